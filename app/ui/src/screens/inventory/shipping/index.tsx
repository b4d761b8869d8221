import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import { InventoryFrame } from '../Frame';
import { WithRefs } from '../WithRefs';
import { messages } from './i18n';
import { ShippingCreate } from './ShippingCreate';
import { ShippingDetail } from './ShippingDetail';

export { ShippingListScreen } from './ShippingList';

/** `#/inventory/shipping/new` (the create form) and `#/inventory/shipping/<id>` (one shipping). */
export function ShippingDetailScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const id = params.id ?? '';
  return (
    <InventoryFrame title={t('inv.shipping')} testId="shipping-screen">
      <WithRefs>{(refs) => (id === 'new' ? <ShippingCreate refs={refs} /> : <ShippingDetail key={id} id={id} refs={refs} created={query.has('created')} />)}</WithRefs>
    </InventoryFrame>
  );
}
