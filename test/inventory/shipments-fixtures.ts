import { expect } from 'vitest';
import { ContractRepo, type ContractSettings } from '../../server/platform/contracts/repo.js';
import { StockMovements } from '../../server/inventory/stock/movements.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** Fixtures shared by the shipment and purchase order tests (issue 14 items 4 and 5). */

export async function ok<T = any>(t: TestApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await t.api(method, path, body);
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
  return res.json() as T;
}

export const makeStore = async (t: TestApp, name = 'Main') => (await ok(t, 'POST', '/stores', { storeName: name })).storeId as string;

export const makeCategory = async (t: TestApp, body: Record<string, unknown> = {}) =>
  (await ok(t, 'POST', '/categories', { categoryName: 'Goods', ...body })).categoryId as string;

let codes = 0;
/** A product (price 1100 tax included, cost 120 unless given). */
export async function makeProduct(t: TestApp, categoryId: string, body: Record<string, unknown> = {}): Promise<string> {
  const product = await ok(t, 'POST', '/products', { categoryId, productCode: `P${++codes}`, productName: 'Item', price: '1100', cost: '120', ...body });
  return product.productId as string;
}

export const makeStaff = async (t: TestApp) => (await ok(t, 'POST', '/staffs', { staffName: 'Clerk' })).staffId as string;

/** A supplier row (the suppliers master of the stock work, written directly as a fixture). */
export function makeSupplier(t: TestApp, supplierId: number, name: string): string {
  const now = t.clock.now().getTime();
  t.deps.db
    .prepare('INSERT INTO suppliers (contract_id, supplier_id, supplier_name, ins_at, upd_at) VALUES (?, ?, ?, ?, ?)')
    .run(t.contractId, supplierId, name, now, now);
  return String(supplierId);
}

/** A supplier handles a product (division 2) or a whole category (division 1). */
export function supplies(t: TestApp, supplierId: string, target: { productId?: string; categoryId?: string }): void {
  const now = t.clock.now().getTime();
  const [division, id] = target.productId ? ['2', target.productId] : ['1', target.categoryId!];
  t.deps.db
    .prepare('INSERT INTO supplier_products (contract_id, supplier_id, division, target_id, ins_at, upd_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(t.contractId, Number(supplierId), division, Number(id), now, now);
}

/** A category group row. */
export function makeCategoryGroup(t: TestApp, groupId: number, name: string): string {
  const now = t.clock.now().getTime();
  t.deps.db
    .prepare('INSERT INTO category_groups (contract_id, category_group_id, category_group_name, ins_at, upd_at) VALUES (?, ?, ?, ?, ?)')
    .run(t.contractId, groupId, name, now, now);
  return String(groupId);
}

/** A product's ordering settings at a store. */
export function orderSetting(t: TestApp, productId: string, storeId: string, s: { orderable?: '0' | '1'; hidden?: '0' | '1'; limit?: number | null }): void {
  const now = t.clock.now().getTime();
  t.deps.db
    .prepare(
      `INSERT INTO product_order_settings (contract_id, product_id, store_id, orderable, order_hidden, order_limit, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(t.contractId, Number(productId), Number(storeId), s.orderable ?? '1', s.hidden ?? '0', s.limit ?? null, now, now);
}

export function setInventory(t: TestApp, settings: Partial<Pick<ContractSettings, 'inventoryApproval' | 'shippedShipmentEditForbidden' | 'orderSplitUnit'>>): void {
  new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, settings);
}

/** The store's stock quantity of a product. */
export const stockOf = (t: TestApp, storeId: string, productId: string) =>
  new StockMovements(t.deps.db, t.deps.writer, t.deps.ids, t.clock).amount(t.contractId, storeId, productId);

/** The stock movements a shipment made: [storeId, productId, delta, stock division (10 shipment)]. */
export const shipmentMovements = (t: TestApp, shipmentId: string) =>
  (
    t.deps.db
      .prepare(`SELECT store_id, product_id, delta, stock_division FROM stock_movements WHERE contract_id = ? AND shipment_id = ? ORDER BY movement_id`)
      .all(t.contractId, Number(shipmentId)) as { store_id: number; product_id: number; delta: string; stock_division: string }[]
  ).map((m) => [String(m.store_id), String(m.product_id), m.delta, m.stock_division]);

/** Outbox rows of an entity: [entity_id, op]. */
export const outboxOf = (t: TestApp, entity: string) =>
  (t.deps.db.prepare('SELECT entity_id, op FROM outbox WHERE contract_id = ? AND entity = ? ORDER BY seq').all(t.contractId, entity) as { entity_id: string; op: string }[]).map(
    (r) => [r.entity_id, r.op],
  );

/** A Retail Business app with stores Main and Second and one product (1100 tax included, cost 120) in category Goods. */
export async function twoStoresAndProduct(): Promise<{ t: TestApp; store: string; store2: string; category: string; product: string }> {
  const t = await makeTestApp({ plan: 'retail_business' });
  const store = await makeStore(t, 'Main');
  const store2 = await makeStore(t, 'Second');
  const category = await makeCategory(t);
  return { t, store, store2, category, product: await makeProduct(t, category) };
}
