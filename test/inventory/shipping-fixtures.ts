import { expect } from 'vitest';
import { StockMovements } from '../../server/inventory/stock/movements.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** Fixtures of the store-to-store shipping tests (issue 14 item 3). */

/** Times the tests set their clock to, in Tokyo: 10:00, then ten minutes later. */
export const AT_10 = '2026-11-22T10:00:00+09:00';
export const AT_1010 = '2026-11-22T10:10:00+09:00';
export const TEN_MINUTES = 600_000;

export async function ok<T = any>(t: TestApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await t.api(method, path, body);
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
  return res.json() as T;
}

export interface World {
  from: string;
  to: string;
  staff: string;
  p1: string;
  p2: string;
  p3: string;
}

/** Two stores (from: 1001, to: 2001), a staff member and three products. */
export async function world(t: TestApp): Promise<World> {
  const from = (await ok(t, 'POST', '/stores', { storeName: 'Main' })).storeId;
  const to = (await ok(t, 'POST', '/stores', { storeName: 'Branch' })).storeId;
  const staff = (await ok(t, 'POST', '/staffs', { staffName: 'Clerk' })).staffId;
  const category = (await ok(t, 'POST', '/categories', { categoryName: 'Goods' })).categoryId;
  const product = async (code: string) => (await ok(t, 'POST', '/products', { categoryId: category, productCode: code, productName: code, price: '1000' })).productId as string;
  return { from, to, staff, p1: await product('A'), p2: await product('B'), p3: await product('C') };
}

/** A Retail Business contract's app with the world in it (each test takes a fresh one). */
export async function shippingApp(): Promise<{ t: TestApp; w: World }> {
  const t = await makeTestApp({ plan: 'retail_business' });
  return { t, w: await world(t) };
}

/** A registration body from `from` to `to` of p1 × 5 and p2 × 3. */
export const body = (w: World, over: Record<string, unknown> = {}) => ({
  receivingStoreId: w.to,
  shippingStoreId: w.from,
  receivingExpectedDateFrom: '2026-11-24',
  receivingExpectedDateTo: '2026-11-25',
  shippingDate: '2026-11-23',
  status: '0',
  details: [
    { productId: w.p1, quantity: '5' },
    { productId: w.p2, quantity: '3' },
  ],
  ...over,
});

/** A store's stock of a product, as StockMovements keeps it. */
export const stockOf = (t: TestApp, storeId: string, productId: string) =>
  new StockMovements(t.deps.db, t.deps.writer, t.deps.ids, t.clock).amount(t.contractId, storeId, productId);

/** The stock movements a shipping made: [stock division (04 shipping out, 05 receiving), store, product, delta], in order. */
export const movementsOf = (t: TestApp, shippingId: string) =>
  (
    t.deps.db
      .prepare('SELECT stock_division, store_id, product_id, delta FROM stock_movements WHERE contract_id = ? AND shipping_id = ? ORDER BY movement_id')
      .all(t.contractId, Number(shippingId)) as { stock_division: string; store_id: number; product_id: number; delta: string }[]
  ).map((m) => [m.stock_division, String(m.store_id), String(m.product_id), m.delta]);

/** A shipping sent out and moved into receiving inspection (status 2). */
export async function inInspection(t: TestApp, w: World, over: Record<string, unknown> = {}): Promise<string> {
  const id = (await ok(t, 'POST', '/shipping', body(w, { status: '1', ...over }))).shippingId as string;
  await ok(t, 'PATCH', `/shipping/${id}`, { status: '2' });
  return id;
}

/** The receiving details by product: [scheduled, inspection, stockout]. */
export async function receivingByProduct(t: TestApp, id: string): Promise<Record<string, [string, string | null, string | null]>> {
  const r = await ok(t, 'GET', `/receiving/${id}?with_details=all`);
  return Object.fromEntries(
    (r.details as { productId: string; scheduledQuantity: string; inspectionQuantity: string | null; stockoutQuantity: string | null }[]).map((d) => [
      d.productId,
      [d.scheduledQuantity, d.inspectionQuantity, d.stockoutQuantity],
    ]),
  );
}
