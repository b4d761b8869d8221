import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import { useLang, useT } from '../../../i18n';
import { quantity, useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { oneOf, type Refs } from '../data';
import { RecordList } from '../RecordList';
import { messages, ORDER_STATUSES } from './i18n';

type Order = components['schemas']['PurchaseOrder'];

const PAGE_SIZE = '50';

/** Purchase orders, newest first: filters supplier, delivery store and status (`?supplier=&store=&status=&page=`). */
export function OrderList({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const q = {
    recipient_order_id: query.get('supplier') || undefined,
    storage_store_id: query.get('store') || undefined,
    status: oneOf(ORDER_STATUSES, query.get('status')),
    page: query.get('page') || undefined,
  };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(
      call(api.GET('/{contract_id}/pos/purchase_orders', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'storageInfoId:desc', with_products: 'all' } } })),
    ),
  );
  return (
    <RecordList<Order>
      base="/inventory/purchase-orders"
      query={query}
      newLabel={t('po.new')}
      filters={[
        { name: 'supplier', label: t('po.supplier'), value: q.recipient_order_id ?? '', any: t('inv.any'), options: refs.supplierChoices },
        { name: 'store', label: t('po.deliveryStore'), value: q.storage_store_id ?? '', any: t('inv.allStores'), options: refs.storeChoices },
        { name: 'status', label: t('inv.status'), value: q.status ?? '', any: t('inv.any'), options: ORDER_STATUSES.map((s) => ({ value: s, label: t(`po.status.${s}`) })) },
      ]}
      list={list}
      testId="orders-table"
      rowAttribute="data-order"
      names={{ id: (o) => o.storageInfoId, openLabel: (o) => t('po.openOne', { id: o.storageInfoId }), status: (o) => t(`po.status.${o.status}`) }}
      columns={({ id, status, identificationNo, updated }) => [
        id,
        { key: 'date', header: t('po.orderedDate'), cell: (o) => format.date(o.orderedDate) },
        { key: 'supplier', header: t('po.supplier'), cell: (o) => refs.supplierName(o.recipientOrderId) },
        { key: 'source', header: t('po.sourceStore'), cell: (o) => refs.storeName(o.orderSourceStoreId) },
        { key: 'quantity', header: t('po.totalQuantity'), num: true, cell: (o) => quantity((o.products ?? []).reduce((n, p) => n + Number(p.quantity), 0), lang) },
        status,
        identificationNo,
        updated,
      ]}
    />
  );
}
