import { useT } from '../../i18n';
import { Link } from '../../router';
import { InventoryFrame, SECTIONS } from './Frame';
import { messages } from './i18n';

export { ShippingDetailScreen, ShippingListScreen } from './shipping';
export { ShipmentDetailScreen, ShipmentsScreen } from './shipments';
export { PurchaseOrderDetailScreen, PurchaseOrdersScreen } from './purchase-orders';
export { StockScreen } from './stock';
export { StocktakingDetailScreen, StocktakingScreen } from './stocktaking'; // Stocktaking (issue 26)
export { LossDetailScreen, LossesScreen } from './losses'; // Losses (issue 26)

/**
 * `#/inventory`: the inventory screens of a Retail Business contract (issue 14), one card each.
 * Each has its own route: /inventory/shipping(/<id>|/new), /inventory/shipments(/<id>|/new),
 * /inventory/purchase-orders(/<id>|/new), /inventory/stock.
 */
export function InventoryScreen() {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('inv.title')} testId="inventory-hub">
      <div className="inv-hub">
        {SECTIONS.map((s) => (
          <article key={s.to}>
            <h2>
              <Link to={s.to}>{t(s.label)}</Link>
            </h2>
            <p>{t(s.hint)}</p>
          </article>
        ))}
      </div>
    </InventoryFrame>
  );
}
