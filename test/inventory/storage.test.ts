import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { makeCategory, makeProduct, makeStaff, makeStore, makeSupplier, ok, stockOf } from './shipments-fixtures.js';

/** Issue 26: storage (入荷) from suppliers, made by purchase orders or registered on its own, and a purchase order's sub-lists. */

const NOW = '2026-11-22T10:00:00+09:00'; // T0 in the contract's zone
const TODAY = '2026-11-22';

let t: TestApp;
let a: string;
let b: string;
let p1: string; // 1100 tax included, cost 120, standard rate
let p2: string; // 500 tax excluded, cost 210.5
let supplier: string;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
  a = await makeStore(t, 'A');
  b = await makeStore(t, 'B');
  const category = await makeCategory(t);
  p1 = await makeProduct(t, category);
  p2 = await makeProduct(t, category, { price: '500', cost: '210.5', taxDivision: '1' });
  supplier = makeSupplier(t, 7001, 'Acme Wholesale');
});
afterEach(() => t.close());

/** A purchase order to the supplier: p1 ×3 to A and ×4 to B, p2 ×1 to B (the request 4.14 shows). */
const order = async (status = '2') =>
  (await ok(t, 'POST', '/purchase_orders', {
    recipientOrderId: supplier,
    status,
    memo: 'weekly',
    products: [
      { productId: p1, deliveryStore: [{ storeId: a, quantity: '3' }, { storeId: b, quantity: '4' }] },
      { productId: p2, cost: '200', deliveryStore: [{ storeId: b, quantity: '1' }] },
    ],
    stores: [{ storageStoreId: a, storageExpectedDateFrom: '2026-11-25', storageExpectedDateTo: '2026-11-26' }, { storageStoreId: b }],
  })).storageInfoId as string;

/** The platform's example body of 入荷登録 (POST /storage), with this test's ids. */
const storageBody = (body: Record<string, unknown> = {}) => ({
  supplierId: supplier,
  storageStoreId: a,
  storageExpectedDateFrom: '2026-11-21',
  storageExpectedDateTo: '2026-11-22',
  storageDate: TODAY,
  memo: '入荷メモ',
  identificationNo: '123456789',
  roundingDivision: '1',
  details: [{ productId: p1, taxRate: '10.000', cost: '100', scheduledQuantity: '3', inspectionQuantity: '2', stockoutQuantity: '1', stockoutReason: '欠品理由', inspectionDate: TODAY, numberMemo: '123456789', dateMemo: TODAY, compulsoryCompleteFlag: '0' }],
  ...body,
});
const post400 = async (body: Record<string, unknown>) => problem(await t.api('POST', '/storage', storageBody(body)), 400).detail;
const storagesOf = async (orderId: string) => (await ok(t, 'GET', `/storage?storage_info_id=${orderId}&with_details=all&sort=storageStoreId`)) as any[];
/** The store's stock history of a product as [stockDivision, amount, stockAmount]. */
const history = async (storeId: string, productId: string) =>
  ((await ok(t, 'GET', `/stock/changes/${productId}/${storeId}`)) as any[]).map((c) => [c.stockDivision, c.amount, c.stockAmount]);

describe('storages made by a purchase order', () => {
  it('an order placed (status 2) makes one storage per delivery store, waiting without a storage date', async () => {
    const orderId = await order();
    const [atA, atB] = await storagesOf(orderId);
    expect(atA).toEqual({
      storageId: atA.storageId,
      storageInfoId: orderId,
      supplierId: supplier,
      storageStoreId: a,
      storageExpectedDateFrom: '2026-11-25',
      storageExpectedDateTo: '2026-11-26',
      storageDate: null,
      memo: 'weekly',
      staffId: null,
      identificationNo: null,
      roundingDivision: '1',
      status: '0',
      insDateTime: NOW,
      updDateTime: NOW,
      details: [
        {
          storageDetailId: atA.details[0].storageDetailId,
          storageId: atA.storageId,
          storageInfoId: orderId,
          productId: p1,
          taxRate: '10.000',
          cost: '120.00000',
          scheduledQuantity: '3',
          inspectionQuantity: null,
          stockoutQuantity: null,
          stockoutReason: null,
          inspectionDate: null,
          numberMemo: null,
          dateMemo: null,
          status: '0',
          compulsoryCompleteFlag: '0',
          insDateTime: NOW,
          updDateTime: NOW,
        },
      ],
    });
    expect([atB.storageStoreId, atB.storageExpectedDateFrom, atB.storageExpectedDateTo]).toEqual([b, TODAY, TODAY]);
    expect(atB.details.map((d: any) => [d.productId, d.scheduledQuantity, d.cost])).toEqual([
      [p1, '4', '120.00000'],
      [p2, '1', '200.00000'],
    ]);
  });

  it('a provisional order (status 5) makes none', async () => {
    expect(await storagesOf(await order('5'))).toEqual([]);
  });

  it('purchase order → storage → stock: inspecting moves the order to 3, completing every storage to 4, and the counts enter stock as 03', async () => {
    const orderId = await order();
    const [atA, atB] = await storagesOf(orderId);
    // A storage made by an order has no date yet: the first update must give one.
    expect(problem(await t.api('PATCH', `/storage/${atA.storageId}`, { identificationNo: 'X' }), 400).detail).toBe(
      `[storageDate] is required: storage ${atA.storageId} has no storage date yet`,
    );
    t.clock.set('2026-11-22T10:30:00+09:00');
    const inspecting = await t.api('PATCH', `/storage/${atB.storageId}`, {
      storageDate: '2026-11-25',
      details: [{ storageDetailId: atB.details[0].storageDetailId, inspectionQuantity: '4', stockoutQuantity: '0', inspectionDate: '2026-11-25' }],
    });
    expect(inspecting.statusCode).toBe(200);
    expect(inspecting.json()).toMatchObject({ status: '1', storageDate: '2026-11-25', updDateTime: '2026-11-22T10:30:00+09:00' });
    expect(inspecting.json().details.map((d: any) => d.status)).toEqual(['1', '0']);
    expect(stockOf(t, b, p1)).toBe('0');
    expect((await ok(t, 'GET', `/purchase_orders/${orderId}?with_products=none&with_stores=none`)).status).toBe('3');

    const done = (await t.api('PATCH', `/storage/${atB.storageId}`, {
      details: [{ storageDetailId: atB.details[1].storageDetailId, inspectionQuantity: '1', inspectionDate: '2026-11-25' }],
    })).json();
    expect(done.status).toBe('2');
    expect(await history(b, p1)).toEqual([['03', '4', '4']]);
    expect(await history(b, p2)).toEqual([['03', '1', '1']]);
    expect((await ok(t, 'GET', `/purchase_orders/${orderId}?with_products=none&with_stores=none`)).status).toBe('3');

    // Two arrive of three ordered, the third is missing: the detail is inspected, and 2 enter A's stock.
    await ok(t, 'PATCH', `/storage/${atA.storageId}`, {
      storageDate: '2026-11-25',
      details: [{ storageDetailId: atA.details[0].storageDetailId, inspectionQuantity: '2', stockoutQuantity: '1', stockoutReason: 'short', inspectionDate: '2026-11-25' }],
    });
    expect(await history(a, p1)).toEqual([['03', '2', '2']]);
    expect((await ok(t, 'GET', `/purchase_orders/${orderId}?with_products=none&with_stores=none`)).status).toBe('4');
    const movement = t.deps.db.prepare('SELECT storage_info_id FROM stock_movements WHERE contract_id = ? AND store_id = ?').pluck().all(t.contractId, Number(a));
    expect(movement).toEqual([Number(orderId)]);
  });
});

describe('POST /storage', () => {
  it("registers the platform's example: every field kept, complete at once, the count entering stock", async () => {
    const staff = await makeStaff(t);
    const s = await ok(t, 'POST', '/storage', storageBody({ staffId: staff }));
    expect(s).toEqual({
      storageId: s.storageId,
      storageInfoId: null,
      supplierId: supplier,
      storageStoreId: a,
      storageExpectedDateFrom: '2026-11-21',
      storageExpectedDateTo: TODAY,
      storageDate: TODAY,
      memo: '入荷メモ',
      staffId: staff,
      identificationNo: '123456789',
      roundingDivision: '1',
      status: '2',
      insDateTime: NOW,
      updDateTime: NOW,
      details: [
        {
          storageDetailId: s.details[0].storageDetailId,
          storageId: s.storageId,
          storageInfoId: null,
          productId: p1,
          taxRate: '10.000',
          cost: '100.00000',
          scheduledQuantity: '3',
          inspectionQuantity: '2',
          stockoutQuantity: '1',
          stockoutReason: '欠品理由',
          inspectionDate: TODAY,
          numberMemo: '123456789',
          dateMemo: TODAY,
          status: '1',
          compulsoryCompleteFlag: '0',
          insDateTime: NOW,
          updDateTime: NOW,
        },
      ],
    });
    expect(await history(a, p1)).toEqual([['03', '2', '2']]);
    const staffOf = t.deps.db.prepare('SELECT staff_id FROM stock_movements WHERE contract_id = ?').pluck().all(t.contractId);
    expect(staffOf).toEqual([Number(staff)]);
    expect(await ok(t, 'GET', `/storage/${s.storageId}?with_details=all`)).toEqual(s);
    const { details: _, ...head } = s;
    expect(await ok(t, 'GET', `/storage/${s.storageId}`)).toEqual(head);
  });

  it('fills the defaults: expected dates the storage date, rounding 1, rate and cost from the product, scheduled the counted plus missing', async () => {
    const s = await ok(t, 'POST', '/storage', {
      supplierId: supplier,
      storageStoreId: b,
      storageDate: '2026-11-20',
      details: [{ productId: p2, inspectionQuantity: '5', stockoutQuantity: '2', inspectionDate: '2026-11-20' }, { productId: p1 }],
    });
    expect(s).toMatchObject({ storageExpectedDateFrom: '2026-11-20', storageExpectedDateTo: '2026-11-20', roundingDivision: '1', memo: null, staffId: null, identificationNo: null, status: '1' });
    expect(s.details.map((d: any) => [d.taxRate, d.cost, d.scheduledQuantity, d.status])).toEqual([
      ['10.000', '210.50000', '7', '1'],
      ['10.000', '120.00000', '0', '0'],
    ]);
    expect(stockOf(t, b, p2)).toBe('0');
  });

  it('a detail closed by force (compulsoryCompleteFlag 1) is inspected: never counted, it adds nothing', async () => {
    const s = await ok(t, 'POST', '/storage', storageBody({ details: [{ productId: p1, scheduledQuantity: '5', compulsoryCompleteFlag: '1' }] }));
    expect([s.status, s.details[0].status]).toEqual(['2', '1']);
    expect(await history(a, p1)).toEqual([]);
  });

  it('an over-delivery counts: 5 arrived of 3 scheduled completes the detail with 5', async () => {
    await ok(t, 'POST', '/storage', storageBody({ details: [{ productId: p1, scheduledQuantity: '3', inspectionQuantity: '5', inspectionDate: TODAY }] }));
    expect(await history(a, p1)).toEqual([['03', '5', '5']]);
  });

  it('refuses unknown references (400)', async () => {
    expect(await post400({ supplierId: '999' })).toBe('[supplierId] supplier 999 does not exist');
    expect(await post400({ storageStoreId: '999' })).toBe('[storageStoreId] store 999 does not exist');
    expect(await post400({ staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await post400({ details: [{ productId: p1 }, { productId: '999' }] })).toBe('[details[1].productId] product 999 does not exist');
  });

  it('refuses bodies that break the rules (400)', async () => {
    expect(await post400({ details: [{ productId: p1 }, { productId: p1 }] })).toBe(`[details[1].productId] product ${p1} is given twice`);
    expect(await post400({ details: [{ productId: p1, inspectionQuantity: '1' }] })).toBe('[details[0].inspectionDate] is required with inspectionQuantity or stockoutQuantity');
    expect(await post400({ details: [{ productId: p1, stockoutQuantity: '1' }] })).toBe('[details[0].inspectionDate] is required with inspectionQuantity or stockoutQuantity');
    expect(await post400({ storageExpectedDateFrom: '2026-11-23' })).toBe('[storageExpectedDateTo] 2026-11-22 is earlier than storageExpectedDateFrom 2026-11-23');
    expect(await post400({ details: [] })).toBe('[details] must have at least one entry');
    const many = Array.from({ length: 1001 }, (_, i) => ({ productId: String(100000 + i) }));
    expect(await post400({ details: many })).toBe('[details] must have at most 1000 entries');
    expect(await post400({ supplierId: undefined })).toBe('[supplierId] is required');
    expect(await post400({ storageStoreId: undefined })).toBe('[storageStoreId] is required');
    expect(await post400({ storageDate: undefined })).toBe('[storageDate] is required');
    expect(await post400({ storageDate: '2026-02-30' })).toBe('[storageDate] must be a calendar date YYYY-MM-DD from 1900');
    expect(await post400({ roundingDivision: '3' })).toBe('[roundingDivision] must be one of 0, 1, 2');
    expect(await post400({ memo: 'x'.repeat(1001) })).toBe('[memo] must be at most 1000 characters');
    expect(await post400({ identificationNo: 'x'.repeat(33) })).toBe('[identificationNo] must be at most 32 characters');
    expect(await post400({ details: [{ productId: p1, scheduledQuantity: '100000' }] })).toBe('[details[0].scheduledQuantity] must be a whole number from 0 to 99999');
    expect(await post400({ details: [{ productId: p1, numberMemo: '1234567890123' }] })).toBe('[details[0].numberMemo] must be a whole number from -999999999999 to 999999999999');
    expect(await post400({ details: [{ productId: p1, compulsoryCompleteFlag: '2' }] })).toBe('[details[0].compulsoryCompleteFlag] must be one of 0, 1');
    expect(await post400({ details: [{ productId: p1, stockoutReason: 'x'.repeat(256) }] })).toBe('[details[0].stockoutReason] must be at most 255 characters');
    expect(await post400({ status: '2' })).toMatch(/^\[status\] /);
  });
});

describe('PATCH /storage/{storage_id}', () => {
  const open = async () => ok(t, 'POST', '/storage', storageBody({ details: [{ productId: p1, scheduledQuantity: '3' }, { productId: p2, scheduledQuantity: '2' }] }));
  const patch400 = async (id: string, body: unknown) => problem(await t.api('PATCH', `/storage/${id}`, body), 400).detail;

  it('records inspections of existing details, memo fields and the identification number; clears with null', async () => {
    const s = await open();
    const d0 = s.details[0].storageDetailId;
    const after = await ok(t, 'PATCH', `/storage/${s.storageId}`, {
      identificationNo: 'ID-2',
      details: [{ storageDetailId: d0, inspectionQuantity: '1', inspectionDate: TODAY, numberMemo: '-5', dateMemo: '2026-12-01', stockoutReason: 'late' }],
    });
    expect(after).toMatchObject({ identificationNo: 'ID-2', status: '1', storageDate: TODAY });
    expect(after.details[0]).toMatchObject({ inspectionQuantity: '1', stockoutQuantity: null, numberMemo: '-5', dateMemo: '2026-12-01', stockoutReason: 'late', status: '0' });
    const cleared = await ok(t, 'PATCH', `/storage/${s.storageId}`, { identificationNo: null, details: [{ storageDetailId: d0, numberMemo: null, dateMemo: '', stockoutReason: null }] });
    expect([cleared.identificationNo, cleared.details[0].numberMemo, cleared.details[0].dateMemo, cleared.details[0].stockoutReason]).toEqual([null, null, null, null]);
    expect(stockOf(t, a, p1)).toBe('0');
    // Closing the rest by force completes it: only what was counted enters the stock.
    const done = await ok(t, 'PATCH', `/storage/${s.storageId}`, {
      details: [{ storageDetailId: d0, compulsoryCompleteFlag: '1' }, { storageDetailId: s.details[1].storageDetailId, compulsoryCompleteFlag: '1' }],
    });
    expect(done.status).toBe('2');
    expect(await history(a, p1)).toEqual([['03', '1', '1']]);
    expect(await history(a, p2)).toEqual([]);
  });

  it('refuses what the platform refuses (400) and an absent storage (404)', async () => {
    const s = await open();
    const other = await open();
    const d0 = s.details[0].storageDetailId;
    expect(await patch400(s.storageId, { details: [{ storageDetailId: other.details[0].storageDetailId, inspectionQuantity: '1', inspectionDate: TODAY }] })).toBe(
      `[details[0].storageDetailId] storage detail ${other.details[0].storageDetailId} is not a detail of storage ${s.storageId}`,
    );
    expect(await patch400(s.storageId, { details: [{ storageDetailId: d0, numberMemo: '1' }, { storageDetailId: d0, numberMemo: '2' }] })).toBe(
      `[details[1].storageDetailId] storage detail ${d0} is given twice`,
    );
    expect(await patch400(s.storageId, { details: [{ storageDetailId: d0, inspectionQuantity: '1' }] })).toBe('[details[0].inspectionDate] is required with inspectionQuantity or stockoutQuantity');
    expect(await patch400(s.storageId, { details: [{ productId: p1, inspectionQuantity: '1', inspectionDate: TODAY }] })).toMatch(/^\[details\[0\]\.storageDetailId\] /);
    expect(await patch400(s.storageId, { status: '2' })).toMatch(/^\[status\] /);
    expect(await patch400(s.storageId, {})).toBe('[body] no field to update was given');
    expect(await patch400(s.storageId, { details: [] })).toBe('[details] must have at least one entry');
    expect(problem(await t.api('PATCH', '/storage/999', { identificationNo: 'X' }), 404).detail).toBe('[storage_id] storage 999 does not exist');
    // Nothing of a refused update was kept.
    expect((await ok(t, 'GET', `/storage/${s.storageId}/details`)).map((d: any) => d.inspectionQuantity)).toEqual([null, null]);

    const done = await ok(t, 'POST', '/storage', storageBody());
    expect(await patch400(done.storageId, { identificationNo: 'X' })).toBe(`[storage_id] storage ${done.storageId} is complete (status 2): it cannot be updated`);
    expect(await history(a, p1)).toEqual([['03', '2', '2']]);
  });
});

describe('GET /storage and its details', () => {
  it('filters, sorts and pages with Link', async () => {
    const orderId = await order();
    const free = await ok(t, 'POST', '/storage', storageBody({ storageStoreId: b, identificationNo: 'FREE' }));
    const all = (await ok(t, 'GET', '/storage')) as any[];
    expect(all.map((s) => [s.storageInfoId, s.storageStoreId, s.status])).toEqual([
      [orderId, a, '0'],
      [orderId, b, '0'],
      [null, b, '2'],
    ]);
    expect(all[0].details).toBeUndefined();
    expect(((await ok(t, 'GET', `/storage?storage_store_id=${b}&sort=storageId:desc`)) as any[]).map((s) => s.storageId)).toEqual([free.storageId, all[1].storageId]);
    expect(((await ok(t, 'GET', '/storage?status=2')) as any[]).map((s) => s.storageId)).toEqual([free.storageId]);
    expect(((await ok(t, 'GET', `/storage?storage_date=${TODAY}&supplier_id=${supplier}&identification_no=FREE`)) as any[]).map((s) => s.storageId)).toEqual([free.storageId]);
    const page = await t.api('GET', '/storage?limit=2');
    expect(page.json()).toHaveLength(2);
    expect(page.headers.link).toBe('<http://localhost/test-contract/pos/storage?limit=2&page=2>; rel="next"');
    expect(problem(await t.api('GET', '/storage?storage_store=1'), 400).detail).toMatch(/^\[storage_store\] /);
    expect(problem(await t.api('GET', '/storage?sort=memo'), 400).detail).toMatch(/^\[sort\] /);
  });

  it('GET /storage/{storage_id}/details: product_id, status, sort and paging; 404 for an absent storage', async () => {
    const [, atB] = await storagesOf(await order());
    await ok(t, 'PATCH', `/storage/${atB.storageId}`, { storageDate: TODAY, details: [{ storageDetailId: atB.details[1].storageDetailId, inspectionQuantity: '1', inspectionDate: TODAY }] });
    const path = `/storage/${atB.storageId}/details`;
    expect(((await ok(t, 'GET', path)) as any[]).map((d) => [d.productId, d.status])).toEqual([[p1, '0'], [p2, '1']]);
    expect(((await ok(t, 'GET', `${path}?status=1`)) as any[]).map((d) => d.productId)).toEqual([p2]);
    expect(((await ok(t, 'GET', `${path}?product_id=${p1}`)) as any[]).map((d) => d.productId)).toEqual([p1]);
    expect(((await ok(t, 'GET', `${path}?sort=productId:desc`)) as any[]).map((d) => d.productId)).toEqual([p2, p1]);
    const page = await t.api('GET', `${path}?limit=1`);
    expect(page.json().map((d: any) => d.productId)).toEqual([p1]);
    expect(page.headers.link).toBe(`<http://localhost/test-contract/pos${path}?limit=1&page=2>; rel="next"`);
    expect(problem(await t.api('GET', '/storage/999/details'), 404).detail).toBe('[storage_id] storage 999 does not exist');
    expect(problem(await t.api('GET', '/storage/999'), 404).detail).toBe('[storage_id] storage 999 does not exist');
  });
});

describe('a purchase order\'s products and stores', () => {
  it('GET /purchase_orders/{id}/products: with_deliveries, product_id, sort and paging', async () => {
    const orderId = await order();
    const path = `/purchase_orders/${orderId}/products`;
    const products = (await ok(t, 'GET', path)) as any[];
    expect(products.map((p) => [p.productId, p.quantity, p.deliveryStore])).toEqual([
      [p1, '7', undefined],
      [p2, '1', undefined],
    ]);
    expect(products[0]).toMatchObject({ storageInfoId: orderId, taxRate: '10.000', cost: '120.00000', taxDivision: '0', insDateTime: NOW });
    const withDeliveries = (await ok(t, 'GET', `${path}?with_deliveries=all&product_id=${p1}`)) as any[];
    expect(withDeliveries.map((p) => p.deliveryStore.map((d: any) => [d.storeId, d.quantity]))).toEqual([[[a, '3'], [b, '4']]]);
    expect(((await ok(t, 'GET', `${path}?sort=quantity`)) as any[]).map((p) => p.productId)).toEqual([p2, p1]);
    const page = await t.api('GET', `${path}?limit=1&page=2`);
    expect(page.json().map((p: any) => p.productId)).toEqual([p2]);
    expect(page.headers.link).toBe(`<http://localhost/test-contract/pos${path}?limit=1&page=1>; rel="prev"`);
    expect(problem(await t.api('GET', '/purchase_orders/999/products'), 404).detail).toBe('[purchase_order_id] purchase order 999 does not exist');
  });

  it('GET /purchase_orders/{id}/stores: storage_store_id, sort', async () => {
    const orderId = await order();
    const path = `/purchase_orders/${orderId}/stores`;
    expect(((await ok(t, 'GET', path)) as any[]).map((s) => [s.storageStoreId, s.storageExpectedDateFrom])).toEqual([
      [a, '2026-11-25'],
      [b, TODAY],
    ]);
    expect(((await ok(t, 'GET', `${path}?sort=storageExpectedDateFrom`)) as any[]).map((s) => s.storageStoreId)).toEqual([b, a]);
    expect(((await ok(t, 'GET', `${path}?storage_store_id=${b}`)) as any[]).map((s) => s.storageStoreId)).toEqual([b]);
    expect(problem(await t.api('GET', '/purchase_orders/999/stores'), 404).detail).toBe('[purchase_order_id] purchase order 999 does not exist');
  });
});

describe('access and sync', () => {
  it('is Retail Business only and needs pos.orders', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.orders:read'] });
    expect(problem(await t.api('POST', '/storage', storageBody(), reader), 403).detail).toBe('[scope] the token lacks the scope pos.orders:write');
    const writer = await t.tokenFor({ scopes: ['pos.orders:write'] });
    expect(problem(await t.api('GET', '/storage', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.orders:read');
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'premium_plus');
    const routes = [['GET', '/storage'], ['POST', '/storage'], ['GET', '/storage/1'], ['PATCH', '/storage/1'], ['GET', '/storage/1/details'], ['GET', '/purchase_orders/1/products'], ['GET', '/purchase_orders/1/stores']];
    for (const [method, path] of routes) {
      expect(problem(await t.api(method!, path!, method === 'GET' ? undefined : {}), 403).detail, `${method} ${path}`).toMatch(/^the contract's plan premium_plus cannot use /);
    }
  });

  it('reaches head office: one outbox row per write, with its details', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const s = await ok(t, 'POST', '/storage', storageBody({ details: [{ productId: p1, scheduledQuantity: '1' }] }));
    await ok(t, 'PATCH', `/storage/${s.storageId}`, { details: [{ storageDetailId: s.details[0].storageDetailId, inspectionQuantity: '1', inspectionDate: TODAY }] });
    expect(changes.filter((c) => c.entity === 'storage').map((c) => `${c.op} ${c.id}`)).toEqual([`insert ${s.storageId}`, `update ${s.storageId}`]);
    const rows = t.deps.db.prepare("SELECT op, row FROM outbox WHERE entity = 'storage' AND entity_id = ? ORDER BY seq").all(s.storageId) as { op: string; row: string }[];
    expect(rows.map((r) => r.op)).toEqual(['insert', 'update']);
    expect(JSON.parse(rows[1]!.row).children.storage_details[0]).toMatchObject({ inspection_quantity: 1 });
  });
});
