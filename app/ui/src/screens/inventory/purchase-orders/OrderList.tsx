import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { withQuery, type Refs } from '../data';
import { Paging } from '../Frame';
import { messages, ORDER_STATUSES } from './i18n';

const BASE = '/inventory/purchase-orders';
const PAGE_SIZE = '50';

/** Purchase orders, newest first: filters supplier, delivery store and status (`?supplier=&store=&status=&page=`). */
export function OrderList({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const status = query.get('status') ?? '';
  const q = {
    recipient_order_id: query.get('supplier') || undefined,
    storage_store_id: query.get('store') || undefined,
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as (typeof ORDER_STATUSES)[number]) : undefined,
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(
      call(api.GET('/{contract_id}/pos/purchase_orders', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'storageInfoId:desc', with_products: 'all' } } })),
    ),
  );
  const go = (changes: Record<string, string>) => navigate(`${BASE}${withQuery(query, changes)}`);

  return (
    <>
      <div className="inv-toolbar">
        <form className="inv-filters" aria-label={t('inv.filter')} onSubmit={(e) => e.preventDefault()}>
          <label>
            {t('po.supplier')}
            <select name="supplier" value={q.recipient_order_id ?? ''} onChange={(e) => go({ supplier: e.target.value })}>
              <option value="">{t('inv.any')}</option>
              {refs.suppliers.map((s) => (
                <option key={s.supplierId} value={s.supplierId}>
                  {s.supplierName}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('po.deliveryStore')}
            <select name="store" value={q.storage_store_id ?? ''} onChange={(e) => go({ store: e.target.value })}>
              <option value="">{t('inv.allStores')}</option>
              {refs.stores.map((s) => (
                <option key={s.storeId} value={s.storeId}>
                  {s.storeName}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('inv.status')}
            <select name="status" value={q.status ?? ''} onChange={(e) => go({ status: e.target.value })}>
              <option value="">{t('inv.any')}</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`po.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
        </form>
        <Link to={`${BASE}/new`} role="button">
          {t('po.new')}
        </Link>
      </div>
      {list.state === 'error' ? <FormProblem problem={list.problem} /> : null}
      {list.state === 'loading' ? <p aria-busy="true">{t('common.loading')}</p> : null}
      {list.state === 'done' && !list.data.rows.length ? <p>{t('inv.none')}</p> : null}
      {list.state === 'done' && list.data.rows.length ? (
        <div className="inv-table-wrap">
          <table className="inv-table" data-testid="orders-table">
            <thead>
              <tr>
                <th scope="col">{t('inv.id')}</th>
                <th scope="col">{t('po.orderedDate')}</th>
                <th scope="col">{t('po.supplier')}</th>
                <th scope="col">{t('po.sourceStore')}</th>
                <th scope="col" className="num">
                  {t('po.totalQuantity')}
                </th>
                <th scope="col">{t('inv.status')}</th>
                <th scope="col">{t('inv.identificationNo')}</th>
                <th scope="col">{t('inv.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((o) => (
                <tr key={o.storageInfoId} data-order={o.storageInfoId}>
                  <td>
                    <Link to={`${BASE}/${o.storageInfoId}`} aria-label={t('po.openOne', { id: o.storageInfoId })}>
                      {o.storageInfoId}
                    </Link>
                  </td>
                  <td>{format.date(o.orderedDate)}</td>
                  <td>{refs.supplierName(o.recipientOrderId)}</td>
                  <td>{refs.storeName(o.orderSourceStoreId)}</td>
                  <td className="num">{quantity((o.products ?? []).reduce((n, p) => n + Number(p.quantity), 0), lang)}</td>
                  <td data-testid="status">{t(`po.status.${o.status}`)}</td>
                  <td>{o.identificationNo ?? ''}</td>
                  <td>{format.dateTime(o.updDateTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.state === 'done' ? <Paging base={BASE} query={query} hasPrev={list.data.hasPrev} hasNext={list.data.hasNext} /> : null}
    </>
  );
}
