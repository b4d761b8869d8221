/**
 * The one entity registry (DESIGN §5): every synced record kind, named as the repos report it
 * to `writer.changed`, with its table, key columns, kind and child tables. The outbox, push,
 * pull, the central change log (sync/) and the generic master repo (master-repo.ts) all read
 * this list; nothing else lists the synced tables.
 *
 * - `sales`: store-made records (transactions, closings, settlements, point movements, the
 *   restaurant's orders, table uses and reservations). Minted by one store, whose node is the
 *   id's 3-digit suffix (DESIGN §4); only that node may push them; pushed store → central only.
 * - `master`: editable anywhere (head office or a store); last writer wins by HLC, ties by node;
 *   pushed and pulled.
 *
 * Every table is contract-scoped: its primary key is (contract_id, ...keys). A record travels as
 * JSON `{ row, children }`: the table's row with its stored column names and values, and the rows
 * of its child tables (those keyed by the same (contract_id, parent key)). Written back by a
 * generic column copy (only columns the local table has), children replaced as a whole.
 */
export type EntityKind = 'sales' | 'master';

export interface ChildTable {
  table: string;
  /** The child's column holding the parent's (single) key. */
  parentKey: string;
}

export interface EntityDef {
  name: string;
  table: string;
  /** Key columns after contract_id; a composite key's id is its values joined by '/'. */
  keys: readonly string[];
  kind: EntityKind;
  children?: readonly ChildTable[];
  /** Order in which existing rows are seeded into central's change log (parents first). */
  seedOrder?: string;
  /** Written once, never changed: the receiver keeps the first copy and refuses updates and deletes. */
  insertOnce?: boolean;
  /** Columns that are each instance's own bookkeeping: they do not travel (the receiver's defaults apply). */
  localColumns?: readonly string[];
}


/**
 * In dependency order (a record's references come before it), which is also the order in which
 * central seeds its change log, so a new store's first pull applies parents before children.
 */
export const ENTITIES: readonly EntityDef[] = [
  { name: 'store', table: 'stores', keys: ['store_id'], kind: 'master' },
  { name: 'cash_drawer', table: 'cash_drawers', keys: ['cash_drawer_id'], kind: 'master' },
  { name: 'payment_terminal', table: 'payment_terminals', keys: ['payment_terminal_id'], kind: 'master' },
  { name: 'terminal', table: 'terminals', keys: ['terminal_id'], kind: 'master', seedOrder: 'parent_terminal_id IS NOT NULL, terminal_id' },
  { name: 'category_group', table: 'category_groups', keys: ['category_group_id'], kind: 'master' },
  { name: 'category', table: 'categories', keys: ['category_id'], kind: 'master', seedOrder: 'level, category_id' },
  { name: 'customer_group_section', table: 'customer_group_sections', keys: ['section_id'], kind: 'master' },
  { name: 'customer_group', table: 'customer_groups', keys: ['customer_group_id'], kind: 'master' },
  { name: 'customer', table: 'customers', keys: ['customer_id'], kind: 'master' },
  { name: 'staff_rank', table: 'staff_ranks', keys: ['staff_rank'], kind: 'master' },
  { name: 'staff', table: 'staffs', keys: ['staff_id'], kind: 'master' },
  { name: 'staff_login', table: 'staff_logins', keys: ['staff_id'], kind: 'master' },
  // Tax rates by period, receipt provisos and staff roles (issue 26, masters-tax; migration 0037).
  { name: 'consumption_tax_rate', table: 'consumption_tax_rates', keys: ['apply_start_date'], kind: 'master' },
  { name: 'reduce_tax_rate', table: 'reduce_tax_rates', keys: ['reduce_tax_id', 'term_start'], kind: 'master' },
  { name: 'receipt_proviso', table: 'receipt_provisos', keys: ['receipt_proviso_code'], kind: 'master' },
  { name: 'role', table: 'roles', keys: ['role_id'], kind: 'master', children: [{ table: 'role_function_controls', parentKey: 'role_id' }] },
  { name: 'payment_method_group', table: 'payment_method_groups', keys: ['payment_method_group_id'], kind: 'master' },
  { name: 'payment_method', table: 'payment_methods', keys: ['payment_method_id'], kind: 'master' },
  { name: 'product_reserve_item_label', table: 'product_reserve_item_labels', keys: ['no'], kind: 'master' },
  // Product attributes (issue 26, pos-rest; migration 0040): three named slots.
  { name: 'product_attribute', table: 'product_attributes', keys: ['no'], kind: 'master' },
  {
    name: 'product',
    table: 'products',
    keys: ['product_id'],
    kind: 'master',
    children: [
      { table: 'product_reserve_items', parentKey: 'product_id' },
      { table: 'product_stores', parentKey: 'product_id' },
    ],
  },
  // Inventory masters (issue 14): suppliers, what they handle, and a product's ordering settings per store.
  { name: 'supplier', table: 'suppliers', keys: ['supplier_id'], kind: 'master' },
  { name: 'supplier_product', table: 'supplier_products', keys: ['supplier_id', 'division', 'target_id'], kind: 'master' },
  { name: 'product_order_setting', table: 'product_order_settings', keys: ['product_id', 'store_id'], kind: 'master' },
  // Losses (issue 26): the loss divisions a loss names, the contract's own list.
  { name: 'loss_division', table: 'loss_divisions', keys: ['division_code'], kind: 'master' },
  // Bundles (issue 26, bundles; migration 0042): the platform's /bundles are these groups; their targets travel with them.
  {
    name: 'product_bundle_group',
    table: 'product_bundle_groups',
    keys: ['product_bundle_group_id'],
    kind: 'master',
    children: [{ table: 'product_bundle_products', parentKey: 'product_bundle_group_id' }],
  },
  // Discount divisions and bargains (issue 26, options-sets; migration 0039): a bargain's stores and targets travel with it.
  { name: 'discount_division', table: 'discount_divisions', keys: ['discount_division'], kind: 'master' },
  {
    name: 'bargain',
    table: 'bargains',
    keys: ['bargain_id'],
    kind: 'master',
    children: [
      { table: 'bargain_stores', parentKey: 'bargain_id' },
      { table: 'bargain_products', parentKey: 'bargain_id' },
    ],
  },
  // Coupons and their items (issue 26, cancel-coupons; migration 0036): sales' coupon lines name them.
  { name: 'coupon', table: 'coupons', keys: ['coupon_id'], kind: 'master' },
  { name: 'coupon_product', table: 'coupon_products', keys: ['coupon_id', 'type', 'division', 'item_id'], kind: 'master' },
  // Product option groups (issue 26) are the topping groups; their option products travel with them.
  {
    name: 'topping_group',
    table: 'topping_groups',
    keys: ['topping_group_id'],
    kind: 'master',
    children: [{ table: 'product_option_group_products', parentKey: 'product_option_group_id' }],
  },
  // waiter operations (issue 26): toppings, each a member of one topping group, with their conditions at each store
  { name: 'topping', table: 'toppings', keys: ['topping_id'], kind: 'master', children: [{ table: 'topping_conditions', parentKey: 'topping_id' }] },
  { name: 'menu', table: 'menus', keys: ['menu_id'], kind: 'master' },
  { name: 'table', table: 'dining_tables', keys: ['table_id'], kind: 'master' },
  { name: 'daily_budget', table: 'daily_budgets', keys: ['store_id', 'budget_date'], kind: 'master' },
  // E-commerce orders (order-shipment API): shipped or canceled at either side; last writer wins.
  { name: 'order_shipment_order', table: 'order_shipment_orders', keys: ['order_head_id'], kind: 'master' },
  // Webhook subscriptions: managed at central and pulled; a linked store refuses local edits (sync/webhooks).
  { name: 'webhook_subscription', table: 'webhook_subscriptions', keys: ['subscription_id'], kind: 'master' },
  // A store's quantity of a product: a balance that merges by its stock movements, never last
  // writer wins (always reported balance-only; sync/balances.ts).
  { name: 'stock', table: 'stock', keys: ['store_id', 'product_id'], kind: 'master' },
  {
    name: 'transaction',
    table: 'transactions',
    keys: ['transaction_head_id'],
    kind: 'sales',
    children: [
      { table: 'transaction_details', parentKey: 'transaction_head_id' },
      { table: 'transaction_deposit_others', parentKey: 'transaction_head_id' },
      { table: 'transaction_coupons', parentKey: 'transaction_head_id' },
    ],
  },
  { name: 'customer_point_movement', table: 'customer_point_movements', keys: ['movement_id'], kind: 'sales', insertOnce: true },
  { name: 'stock_movement', table: 'stock_movements', keys: ['movement_id'], kind: 'sales', insertOnce: true },
  { name: 'adjustment', table: 'adjustments', keys: ['adjustment_id'], kind: 'sales' },
  // Shipments and purchase orders: made at a store (edited there, never at head office), so they
  // travel like sales records, with their child rows, each time they change.
  { name: 'shipment', table: 'shipments', keys: ['shipment_id'], kind: 'sales', children: [{ table: 'shipment_details', parentKey: 'shipment_id' }] },
  // Stocktaking (issue 26): made, counted and completed at its store (node-suffixed ids); travels with its target categories and lines each time it changes.
  {
    name: 'stocktaking',
    table: 'stocktakings',
    keys: ['stocktaking_info_id'],
    kind: 'sales',
    children: [
      { table: 'stocktaking_categories', parentKey: 'stocktaking_info_id' },
      { table: 'stocktaking_products', parentKey: 'stocktaking_info_id' },
    ],
  },
  // Losses (issue 26): made at a store, travel with their details each time they change.
  { name: 'loss', table: 'losses', keys: ['loss_id'], kind: 'sales', children: [{ table: 'loss_details', parentKey: 'loss_id' }] },
  // Layaways (取置き, issue 26; migration 0041): made at a store, travel with their lines.
  { name: 'layaway', table: 'layaways', keys: ['transaction_head_id'], kind: 'sales', children: [{ table: 'layaway_details', parentKey: 'transaction_head_id' }] },
  {
    name: 'purchase_order',
    table: 'purchase_orders',
    keys: ['storage_info_id'],
    kind: 'sales',
    children: [
      { table: 'purchase_order_products', parentKey: 'storage_info_id' },
      { table: 'purchase_order_delivery_products', parentKey: 'storage_info_id' },
      { table: 'purchase_order_stores', parentKey: 'storage_info_id' },
    ],
  },
  // Store-to-store shipping (2.8, 3.1, 4.2, 4.19): one record worked on by two store PCs in turn
  // (the shipping store sends and edits under a modification request, the receiving store
  // inspects, requests and receives; head office may do either), so it is an editable record
  // pushed and pulled like a master: the whole record with both sides' details, last writer wins
  // by HLC, except that a version with a lower status loses whatever its HLC (sync/apply.ts
  // RANKS): a sent or received shipping is never rolled back to be sent or received again.
  // Its stock moves travel separately as stock movements, made once by whichever PC takes the
  // step (stocked_quantity and the status travel with the record); applying a copy moves nothing.
  {
    name: 'shipping',
    table: 'shippings',
    keys: ['shipping_id'],
    kind: 'master',
    children: [
      { table: 'shipping_details', parentKey: 'shipping_id' },
      { table: 'shipping_receiving_details', parentKey: 'shipping_id' },
    ],
  },
  // Storage (入荷, issue 26): made where the purchase order is registered (or by POST /storage),
  // inspected and completed at the delivery store's PC, so editable like a shipping; a completed
  // storage is never rolled back by an older copy (sync/apply.ts RANKS). Its stock moves travel
  // as stock movements, made once by the PC that completes it.
  { name: 'storage', table: 'storages', keys: ['storage_id'], kind: 'master', children: [{ table: 'storage_details', parentKey: 'storage_id' }] },
  {
    name: 'daily_summary',
    table: 'daily_summaries',
    keys: ['daily_summary_id'],
    kind: 'sales',
    children: [{ table: 'daily_summary_transactions', parentKey: 'daily_summary_id' }],
  },
  { name: 'table_use', table: 'table_uses', keys: ['table_use_id'], kind: 'sales', children: [{ table: 'table_use_tables', parentKey: 'table_use_id' }] },
  { name: 'order', table: 'orders', keys: ['order_id'], kind: 'sales', children: [{ table: 'order_items', parentKey: 'order_id' }] },
  // waiter operations (issue 26): a table's staff calls, made at the store
  { name: 'staff_call', table: 'staff_calls', keys: ['staff_call_id'], kind: 'sales' },
  // A linked store's webhook events (6.1, 6.2) ride the push and central delivers them (sync/event-forwarder.ts
  // forwards only linked contracts' events); fanned_out is each instance's own.
  { name: 'webhook_event', table: 'webhook_events', keys: ['event_id'], kind: 'sales', insertOnce: true, localColumns: ['fanned_out'] },
  {
    name: 'reservation',
    table: 'reservations',
    keys: ['reservation_id'],
    kind: 'sales',
    children: [{ table: 'reservation_tables', parentKey: 'reservation_id' }],
  },
];

const BY_NAME = new Map(ENTITIES.map((e) => [e.name, e]));

/** The entity named so by `writer.changed`, or undefined for records that are not synced (contracts, API clients). */
export const entityNamed = (name: string): EntityDef | undefined => BY_NAME.get(name);

/** The key values of a record id ('/' joins a composite key). */
export function keyValues(def: EntityDef, id: string): string[] {
  const parts = def.keys.length === 1 ? [id] : id.split('/');
  if (parts.length !== def.keys.length || parts.some((p) => p === '')) throw new RangeError(`${def.name} id "${id}" must have ${def.keys.length} part(s)`);
  return parts;
}

/** The id of a record from its row. */
export const idOfRow = (def: EntityDef, row: Record<string, unknown>): string => def.keys.map((k) => String(row[k])).join('/');

/**
 * A record id minted by a node ends in that node's 3-digit suffix (DESIGN §4). Sales records
 * must belong to the node that pushes them.
 */
export const belongsToNode = (id: string, node: number): boolean => /^\d{4,}$/.test(id) && id.endsWith(String(node).padStart(3, '0'));
