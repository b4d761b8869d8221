import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat } from '../../../shared/format';
import { useT } from '../../../i18n';
import { Link, navigate, type ScreenProps } from '../../../router';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { useRefs, withQuery } from '../data';
import { InventoryFrame, Paging } from '../Frame';
import { messages, SHIPPING_STATUSES, MODIFICATION_STATUSES } from './i18n';

const BASE = '/inventory/shipping';
const PAGE_SIZE = '50';

/** `#/inventory/shipping?from=&to=&status=&mod=&page=`: shippings, newest first, filtered by the API. */
export function ShippingListScreen({ query }: ScreenProps) {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('inv.shipping')} testId="shipping-list">
      <ShippingList query={query} />
    </InventoryFrame>
  );
}

function ShippingList({ query }: { query: URLSearchParams }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const refs = useRefs();
  const q = {
    shipping_store_id: query.get('from') || undefined,
    receiving_store_id: query.get('to') || undefined,
    status: (SHIPPING_STATUSES as readonly string[]).includes(query.get('status') ?? '') ? (query.get('status') as (typeof SHIPPING_STATUSES)[number]) : undefined,
    modification_request_status: (MODIFICATION_STATUSES as readonly string[]).includes(query.get('mod') ?? '')
      ? (query.get('mod') as (typeof MODIFICATION_STATUSES)[number])
      : undefined,
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(call(api.GET('/{contract_id}/pos/shipping', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'shippingId:desc' } } }))),
  );
  const go = (changes: Record<string, string>) => navigate(`${BASE}${withQuery(query, changes)}`);
  const stores = refs.state === 'done' ? refs.data.stores : [];
  const storeName = (id: string) => (refs.state === 'done' ? refs.data.storeName(id) : id);

  return (
    <>
      <div className="inv-toolbar">
        <form className="inv-filters" aria-label={t('inv.filter')} onSubmit={(e) => e.preventDefault()}>
          <label>
            {t('ship.from')}
            <select name="from" value={query.get('from') ?? ''} onChange={(e) => go({ from: e.target.value })}>
              <option value="">{t('inv.allStores')}</option>
              {stores.map((s) => (
                <option key={s.storeId} value={s.storeId}>
                  {s.storeName}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('ship.to')}
            <select name="to" value={query.get('to') ?? ''} onChange={(e) => go({ to: e.target.value })}>
              <option value="">{t('inv.allStores')}</option>
              {stores.map((s) => (
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
              {SHIPPING_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`ship.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('ship.modification')}
            <select name="mod" value={q.modification_request_status ?? ''} onChange={(e) => go({ mod: e.target.value })}>
              <option value="">{t('inv.any')}</option>
              {MODIFICATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`ship.mod.${s}`)}
                </option>
              ))}
            </select>
          </label>
        </form>
        <Link to={`${BASE}/new`} role="button">
          {t('ship.new')}
        </Link>
      </div>
      {list.state === 'error' ? <FormProblem problem={list.problem} /> : null}
      {list.state === 'loading' ? <p aria-busy="true">{t('common.loading')}</p> : null}
      {list.state === 'done' ? (
        list.data.rows.length ? (
          <div className="inv-table-wrap">
            <table className="inv-table" data-testid="shipping-table">
              <thead>
                <tr>
                  <th scope="col">{t('inv.id')}</th>
                  <th scope="col">{t('ship.shippingDate')}</th>
                  <th scope="col">{t('ship.from')}</th>
                  <th scope="col">{t('ship.to')}</th>
                  <th scope="col">{t('ship.expected')}</th>
                  <th scope="col">{t('inv.status')}</th>
                  <th scope="col">{t('inv.approval')}</th>
                  <th scope="col">{t('ship.modification')}</th>
                  <th scope="col">{t('inv.identificationNo')}</th>
                  <th scope="col">{t('inv.updated')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((s) => (
                  <tr key={s.shippingId} data-shipping={s.shippingId}>
                    <td>
                      <Link to={`${BASE}/${s.shippingId}`} aria-label={t('ship.openOne', { id: s.shippingId })}>
                        {s.shippingId}
                      </Link>
                    </td>
                    <td>{format.date(s.shippingDate)}</td>
                    <td>{storeName(s.shippingStoreId)}</td>
                    <td>{storeName(s.receivingStoreId)}</td>
                    <td>
                      {format.date(s.receivingExpectedDateFrom)}
                      {s.receivingExpectedDateTo !== s.receivingExpectedDateFrom ? ` – ${format.date(s.receivingExpectedDateTo)}` : ''}
                    </td>
                    <td data-testid="status">{t(`ship.status.${s.status}`)}</td>
                    <td>{t(`inv.approval.${s.approvalStatus}`)}</td>
                    <td>{s.modificationRequestStatus === '0' ? '' : t(`ship.mod.${s.modificationRequestStatus}`)}</td>
                    <td>{s.identificationNo ?? ''}</td>
                    <td>{format.dateTime(s.updDateTime)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('inv.none')}</p>
        )
      ) : null}
      {list.state === 'done' ? <Paging base={BASE} query={query} hasPrev={list.data.hasPrev} hasNext={list.data.hasNext} /> : null}
    </>
  );
}
