import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import { DataTable } from '../../../components/DataTable';
import { Facts } from '../../../components/Facts';
import { LoadState } from '../../../components/LoadState';
import { useLang, useT } from '../../../i18n';
import { cost, quantity, useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import type { Refs } from '../data';
import { fiveDecimals, lineTotals } from '../fields';
import { recordFacts, RecordHeading } from '../record';
import { messages } from './i18n';
import { OrderStorages } from './OrderStorages';

type PurchaseOrder = components['schemas']['PurchaseOrder'];

/**
 * One purchase order (`#/inventory/purchase-orders/<id>`), read only (the API has no update):
 * its header, its delivery stores with expected dates, its products × stores with costs, and
 * how far each store has received them (its storages).
 */
export function OrderDetail({ id, refs, created }: { id: string; refs: Refs; created: boolean }) {
  const { api, contract } = useApi();
  const loaded = useLoad(id, () => call(api.GET('/{contract_id}/pos/purchase_orders/{purchase_order_id}', { params: { path: { ...contract, purchase_order_id: id } } })));
  return <LoadState value={loaded}>{(order) => <OrderView order={order} refs={refs} created={created} />}</LoadState>;
}

function OrderView({ order, refs, created }: { order: PurchaseOrder; refs: Refs; created: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const stores = order.stores ?? [];
  const products = order.products ?? [];
  const storeTotals = stores.map((s) => products.reduce((sum, p) => sum + Number(p.deliveryStore.find((d) => d.storeId === s.storageStoreId)?.quantity ?? 0), 0));
  const total = lineTotals(products);
  return (
    <div className="inv-detail" data-testid="order-detail">
      <RecordHeading t={t} back="/inventory/purchase-orders" heading={t('po.heading', { id: order.storageInfoId })} noticeTestId={null} notice={created ? t('po.created') : ''} />
      <article className="inv-summary">
        <Facts
          items={[
            { label: t('po.supplier'), value: refs.supplierName(order.recipientOrderId) || t('po.noSupplier') },
            { label: t('po.sourceStore'), value: refs.storeName(order.orderSourceStoreId) },
            { label: t('po.orderedDate'), value: format.date(order.orderedDate) },
            { label: t('inv.status'), value: t(`po.status.${order.status}`), valueProps: { 'data-testid': 'status' } },
            { label: t('po.staffName'), value: order.orderStaffName ?? '' },
            { label: t('po.divisionUnit'), value: t(`po.divisionUnit.${order.divisionUnit}`) },
            { label: t('po.rounding'), value: t(`po.rounding.${order.roundingDivision}`) },
            ...recordFacts(t, order),
          ]}
        />
      </article>
      <DataTable
        wrap="inv-table-wrap"
        className="inv-table"
        data-testid="order-products"
        rows={products}
        rowKey={(p) => p.storageInfoProductId}
        rowProps={(p) => ({ 'data-product': p.productId })}
        columns={[
          { key: 'product', header: t('inv.product'), cell: (p) => refs.productLabel(p.productId) },
          { key: 'cost', header: t('inv.cost'), num: true, cell: (p) => cost(p.cost) },
          { key: 'taxRate', header: t('inv.taxRate'), num: true, cell: (p) => p.taxRate },
          ...stores.map((s) => ({
            key: s.storageInfoDeliveryId,
            header: (
              <>
                {refs.storeName(s.storageStoreId)}
                <br />
                <small className="inv-muted">
                  {t('po.expected')} {format.date(s.storageExpectedDateFrom)}
                  {s.storageExpectedDateTo !== s.storageExpectedDateFrom ? ` – ${format.date(s.storageExpectedDateTo)}` : ''}
                </small>
              </>
            ),
            num: true,
            cell: (p: (typeof products)[number]) => quantity(p.deliveryStore.find((d) => d.storeId === s.storageStoreId)?.quantity ?? '', lang),
            cellProps: () => ({ 'data-store': s.storageStoreId }),
          })),
          { key: 'quantity', header: t('po.totalQuantity'), num: true, cell: (p) => quantity(p.quantity, lang), cellProps: () => ({ 'data-testid': 'quantity' }) },
          { key: 'amount', header: t('inv.amount'), num: true, cell: (p) => cost(fiveDecimals(Number(p.cost) * Number(p.quantity))) },
        ]}
        foot={
          <tr>
            <th scope="row" colSpan={3}>
              {t('po.total')}
            </th>
            {storeTotals.map((n, j) => (
              <td className="num" key={j}>
                {quantity(n, lang)}
              </td>
            ))}
            <td className="num">{quantity(total.quantity, lang)}</td>
            <td className="num">{cost(fiveDecimals(total.cost))}</td>
          </tr>
        }
      />
      <OrderStorages orderId={order.storageInfoId} refs={refs} />
    </div>
  );
}
