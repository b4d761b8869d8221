import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import { InventoryFrame } from '../Frame';
import { WithRefs } from '../WithRefs';
import { messages } from './i18n';
import { ShipmentCreate } from './ShipmentCreate';
import { ShipmentDetail } from './ShipmentDetail';
import { ShipmentList } from './ShipmentList';

/** `#/inventory/shipments`: shipments to suppliers and others (2.9), filtered and paged by the API. */
export function ShipmentsScreen({ query }: ScreenProps) {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('inv.shipments')} testId="shipments-list">
      <WithRefs suppliers>{(refs) => <ShipmentList query={query} refs={refs} />}</WithRefs>
    </InventoryFrame>
  );
}

/** `#/inventory/shipments/new` (the create form) and `#/inventory/shipments/<id>` (one shipment, its approval and edit). */
export function ShipmentDetailScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const id = params.id ?? '';
  return (
    <InventoryFrame title={t('inv.shipments')} testId="shipment-screen">
      <WithRefs suppliers>{(refs) => (id === 'new' ? <ShipmentCreate refs={refs} /> : <ShipmentDetail key={id} id={id} refs={refs} created={query.has('created')} />)}</WithRefs>
    </InventoryFrame>
  );
}
