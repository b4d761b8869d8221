import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import { useT } from '../../../i18n';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { oneOf, type Refs } from '../data';
import { RecordList } from '../RecordList';
import { APPROVAL_STATUSES, messages, SHIPMENT_STATUSES } from './i18n';

type Shipment = components['schemas']['Shipment'];

const PAGE_SIZE = '50';

/** Shipments, newest first: filters store, status and approval (`?store=&status=&approval=&page=`). */
export function ShipmentList({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const q = {
    shipment_store_id: query.get('store') || undefined,
    status: oneOf(SHIPMENT_STATUSES, query.get('status')),
    approval_status: oneOf(APPROVAL_STATUSES, query.get('approval')),
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(call(api.GET('/{contract_id}/pos/shipments', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'shipmentId:desc' } } }))),
  );
  return (
    <RecordList<Shipment>
      base="/inventory/shipments"
      query={query}
      newLabel={t('sm.new')}
      filters={[
        { name: 'store', label: t('sm.store'), value: q.shipment_store_id ?? '', any: t('inv.allStores'), options: refs.storeChoices },
        { name: 'status', label: t('inv.status'), value: q.status ?? '', any: t('inv.any'), options: SHIPMENT_STATUSES.map((s) => ({ value: s, label: t(`sm.status.${s}`) })) },
        { name: 'approval', label: t('inv.approval'), value: q.approval_status ?? '', any: t('inv.any'), options: APPROVAL_STATUSES.map((s) => ({ value: s, label: t(`inv.approval.${s}`) })) },
      ]}
      list={list}
      testId="shipments-table"
      rowAttribute="data-shipment"
      names={{ id: (s) => s.shipmentId, openLabel: (s) => t('sm.openOne', { id: s.shipmentId }), status: (s) => t(`sm.status.${s.status}`) }}
      columns={({ id, status, identificationNo, updated }) => [
        id,
        { key: 'date', header: t('sm.date'), cell: (s) => format.date(s.shipmentDate) },
        { key: 'store', header: t('sm.store'), cell: (s) => refs.storeName(s.shipmentStoreId) },
        {
          key: 'recipient',
          header: t('sm.recipient'),
          cell: (s) => (
            <>
              {s.recipientName ?? ''} <small className="inv-muted">{t(`sm.recipientType.${s.recipientType}`)}</small>
            </>
          ),
        },
        { key: 'division', header: t('sm.division'), cell: (s) => t(`sm.division.${s.shipmentDivision}`) },
        status,
        { key: 'approval', header: t('inv.approval'), cell: (s) => t(`inv.approval.${s.approvalStatus}`), cellProps: () => ({ 'data-testid': 'approval' }) },
        identificationNo,
        updated,
      ]}
    />
  );
}
