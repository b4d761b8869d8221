import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat } from '../../../shared/format';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { withQuery, type Refs } from '../data';
import { Paging } from '../Frame';
import { APPROVAL_STATUSES, messages, SHIPMENT_STATUSES } from './i18n';

const BASE = '/inventory/shipments';
const PAGE_SIZE = '50';

const pick = <T extends string>(values: readonly T[], v: string | null): T | undefined => (values as readonly string[]).includes(v ?? '') ? (v as T) : undefined;

/** Shipments, newest first: filters store, status and approval (`?store=&status=&approval=&page=`). */
export function ShipmentList({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const q = {
    shipment_store_id: query.get('store') || undefined,
    status: pick(SHIPMENT_STATUSES, query.get('status')),
    approval_status: pick(APPROVAL_STATUSES, query.get('approval')),
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(call(api.GET('/{contract_id}/pos/shipments', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'shipmentId:desc' } } }))),
  );
  const go = (changes: Record<string, string>) => navigate(`${BASE}${withQuery(query, changes)}`);

  return (
    <>
      <div className="inv-toolbar">
        <form className="inv-filters" aria-label={t('inv.filter')} onSubmit={(e) => e.preventDefault()}>
          <label>
            {t('sm.store')}
            <select name="store" value={q.shipment_store_id ?? ''} onChange={(e) => go({ store: e.target.value })}>
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
              {SHIPMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`sm.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('inv.approval')}
            <select name="approval" value={q.approval_status ?? ''} onChange={(e) => go({ approval: e.target.value })}>
              <option value="">{t('inv.any')}</option>
              {APPROVAL_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`inv.approval.${s}`)}
                </option>
              ))}
            </select>
          </label>
        </form>
        <Link to={`${BASE}/new`} role="button">
          {t('sm.new')}
        </Link>
      </div>
      {list.state === 'error' ? <FormProblem problem={list.problem} /> : null}
      {list.state === 'loading' ? <p aria-busy="true">{t('common.loading')}</p> : null}
      {list.state === 'done' && !list.data.rows.length ? <p>{t('inv.none')}</p> : null}
      {list.state === 'done' && list.data.rows.length ? (
        <div className="inv-table-wrap">
          <table className="inv-table" data-testid="shipments-table">
            <thead>
              <tr>
                <th scope="col">{t('inv.id')}</th>
                <th scope="col">{t('sm.date')}</th>
                <th scope="col">{t('sm.store')}</th>
                <th scope="col">{t('sm.recipient')}</th>
                <th scope="col">{t('sm.division')}</th>
                <th scope="col">{t('inv.status')}</th>
                <th scope="col">{t('inv.approval')}</th>
                <th scope="col">{t('inv.identificationNo')}</th>
                <th scope="col">{t('inv.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((s) => (
                <tr key={s.shipmentId} data-shipment={s.shipmentId}>
                  <td>
                    <Link to={`${BASE}/${s.shipmentId}`} aria-label={t('sm.openOne', { id: s.shipmentId })}>
                      {s.shipmentId}
                    </Link>
                  </td>
                  <td>{format.date(s.shipmentDate)}</td>
                  <td>{refs.storeName(s.shipmentStoreId)}</td>
                  <td>
                    {s.recipientName ?? ''} <small className="inv-muted">{t(`sm.recipientType.${s.recipientType}`)}</small>
                  </td>
                  <td>{t(`sm.division.${s.shipmentDivision}`)}</td>
                  <td data-testid="status">{t(`sm.status.${s.status}`)}</td>
                  <td data-testid="approval">{t(`inv.approval.${s.approvalStatus}`)}</td>
                  <td>{s.identificationNo ?? ''}</td>
                  <td>{format.dateTime(s.updDateTime)}</td>
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
