import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { oneOf, useRefs } from '../data';
import { InventoryFrame } from '../Frame';
import { RecordList } from '../RecordList';
import { messages, SHIPPING_STATUSES, MODIFICATION_STATUSES } from './i18n';

type Shipping = components['schemas']['Shipping'];

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
    status: oneOf(SHIPPING_STATUSES, query.get('status')),
    modification_request_status: oneOf(MODIFICATION_STATUSES, query.get('mod')),
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(call(api.GET('/{contract_id}/pos/shipping', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'shippingId:desc' } } }))),
  );
  // The list does not wait for the stores: until they come, ids stand for their names.
  const stores = refs.state === 'done' ? refs.data.storeChoices : [];
  const storeName = (id: string) => (refs.state === 'done' ? refs.data.storeName(id) : id);
  return (
    <RecordList<Shipping>
      base="/inventory/shipping"
      query={query}
      newLabel={t('ship.new')}
      filters={[
        { name: 'from', label: t('ship.from'), value: query.get('from') ?? '', any: t('inv.allStores'), options: stores },
        { name: 'to', label: t('ship.to'), value: query.get('to') ?? '', any: t('inv.allStores'), options: stores },
        { name: 'status', label: t('inv.status'), value: q.status ?? '', any: t('inv.any'), options: SHIPPING_STATUSES.map((s) => ({ value: s, label: t(`ship.status.${s}`) })) },
        { name: 'mod', label: t('ship.modification'), value: q.modification_request_status ?? '', any: t('inv.any'), options: MODIFICATION_STATUSES.map((s) => ({ value: s, label: t(`ship.mod.${s}`) })) },
      ]}
      list={list}
      testId="shipping-table"
      rowAttribute="data-shipping"
      names={{ id: (s) => s.shippingId, openLabel: (s) => t('ship.openOne', { id: s.shippingId }), status: (s) => t(`ship.status.${s.status}`) }}
      columns={({ id, status, identificationNo, updated }) => [
        id,
        { key: 'date', header: t('ship.shippingDate'), cell: (s) => format.date(s.shippingDate) },
        { key: 'from', header: t('ship.from'), cell: (s) => storeName(s.shippingStoreId) },
        { key: 'to', header: t('ship.to'), cell: (s) => storeName(s.receivingStoreId) },
        {
          key: 'expected',
          header: t('ship.expected'),
          cell: (s) => (
            <>
              {format.date(s.receivingExpectedDateFrom)}
              {s.receivingExpectedDateTo !== s.receivingExpectedDateFrom ? ` – ${format.date(s.receivingExpectedDateTo)}` : ''}
            </>
          ),
        },
        status,
        { key: 'approval', header: t('inv.approval'), cell: (s) => t(`inv.approval.${s.approvalStatus}`) },
        { key: 'modification', header: t('ship.modification'), cell: (s) => (s.modificationRequestStatus === '0' ? '' : t(`ship.mod.${s.modificationRequestStatus}`)) },
        identificationNo,
        updated,
      ]}
    />
  );
}
