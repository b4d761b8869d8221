import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import { InventoryFrame } from '../Frame';
import { WithRefs } from '../WithRefs';
import { messages } from './i18n';
import { OrderCreate } from './OrderCreate';
import { OrderDetail } from './OrderDetail';
import { OrderList } from './OrderList';

/** `#/inventory/purchase-orders`: orders to suppliers (2.10), filtered and paged by the API. */
export function PurchaseOrdersScreen({ query }: ScreenProps) {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('inv.purchaseOrders')} testId="orders-list">
      <WithRefs suppliers>{(refs) => <OrderList query={query} refs={refs} />}</WithRefs>
    </InventoryFrame>
  );
}

/** `#/inventory/purchase-orders/new` (products × delivery stores) and `#/inventory/purchase-orders/<id>`. */
export function PurchaseOrderDetailScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const id = params.id ?? '';
  return (
    <InventoryFrame title={t('inv.purchaseOrders')} testId="order-screen">
      <WithRefs suppliers>{(refs) => (id === 'new' ? <OrderCreate refs={refs} /> : <OrderDetail key={id} id={id} refs={refs} created={query.has('created')} />)}</WithRefs>
    </InventoryFrame>
  );
}
