import type { RouteDef } from './router';
import { LoginScreen } from './screens/login';
import { SetupScreen } from './screens/setup';
import { TodayScreen } from './screens/today';
import { SyncScreen } from './screens/sync';
import { ClosingScreen } from './screens/closing';
import { MastersScreen } from './screens/masters';
import { ReservationsScreen, TableUseOrdersScreen } from './screens/reservations';
import { ChartScreen } from './screens/chart';
import * as Inventory from './screens/inventory';
import { ExportScreen } from './screens/export';
import { SettingsScreen } from './screens/settings';

/**
 * The route table: one line per route, one folder per screen (screens/<name>/index.tsx). A
 * later issue adds its screen with one import and one line here (and one in nav.ts's NAV to
 * list it). The first matching line wins.
 */
export const ROUTES: readonly RouteDef[] = [
  { path: '/login', component: LoginScreen, public: true },
  // The first run, while the server has no contract (the login sends here).
  { path: '/setup', component: SetupScreen, public: true },
  { path: '/today', component: TodayScreen },
  { path: '/sync', component: SyncScreen },
  { path: '/closing', component: ClosingScreen },
  // One sub-route per master kind (MASTER_KINDS in screens/masters/kinds.ts).
  { path: '/masters', component: MastersScreen },
  { path: '/masters/:kind', component: MastersScreen },
  // Reservations by day (?date=YYYY-MM-DD) and table; the orders of one table use.
  { path: '/reservations', component: ReservationsScreen },
  { path: '/reservations/table-uses/:tableUseId', component: TableUseOrdersScreen },
  { path: '/chart', component: ChartScreen },
  // Inventory (Retail Business); `:id` is `new` for the create form.
  { path: '/inventory', component: Inventory.InventoryScreen },
  { path: '/inventory/shipping', component: Inventory.ShippingListScreen },
  { path: '/inventory/shipping/:id', component: Inventory.ShippingDetailScreen },
  { path: '/inventory/shipments', component: Inventory.ShipmentsScreen },
  { path: '/inventory/shipments/:id', component: Inventory.ShipmentDetailScreen },
  { path: '/inventory/purchase-orders', component: Inventory.PurchaseOrdersScreen },
  { path: '/inventory/purchase-orders/:id', component: Inventory.PurchaseOrderDetailScreen },
  { path: '/inventory/stock', component: Inventory.StockScreen },
  // Stocktaking (issue 26).
  { path: '/inventory/stocktaking', component: Inventory.StocktakingScreen },
  { path: '/inventory/stocktaking/:id', component: Inventory.StocktakingDetailScreen },
  // Losses (issue 26).
  { path: '/inventory/losses', component: Inventory.LossesScreen },
  { path: '/inventory/losses/:id', component: Inventory.LossDetailScreen },
  // The transaction detail CSV export (spec 4.11).
  { path: '/export', component: ExportScreen },
  // The desktop app's settings (issue 21).
  { path: '/settings', component: SettingsScreen },
];
