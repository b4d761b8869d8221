import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProductRepo } from '../../server/masters/products/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { centralAndStore, CONTRACT } from '../sync/helpers.js';
import {
  makeCategory,
  makeCategoryGroup,
  makeProduct,
  makeStaff,
  makeStore,
  makeSupplier,
  ok,
  orderSetting,
  outboxOf,
  setInventory,
  supplies,
} from './shipments-fixtures.js';

/** Issue 14 item 5: purchase orders (spec 2.10, 4.14). */

const NOW = '2026-11-22T10:00:00+09:00'; // T0 in the contract's zone
const TODAY = '2026-11-22';

let t: TestApp;
let a: string;
let b: string;
let c: string;
let category: string;
let p1: string; // 1100 tax included, cost 120
let p2: string;
let supplier: string;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
  a = await makeStore(t, 'A');
  b = await makeStore(t, 'B');
  c = await makeStore(t, 'C');
  category = await makeCategory(t);
  p1 = await makeProduct(t, category);
  p2 = await makeProduct(t, category, { price: '500', cost: '210.5', taxDivision: '1' });
  supplier = makeSupplier(t, 7001, 'Acme Wholesale');
});
afterEach(() => t.close());

const line = (productId: string, ...deliveries: [string, string][]) => ({
  productId,
  deliveryStore: deliveries.map(([storeId, quantity]) => ({ storeId, quantity })),
});
const orderBody = (body: Record<string, unknown> = {}) => ({
  status: '2',
  products: [line(p1, [a, '3'])],
  stores: [{ storageStoreId: a }],
  ...body,
});
const register = (body: Record<string, unknown> = {}) => ok(t, 'POST', '/purchase_orders', orderBody(body));
const post400 = async (body: Record<string, unknown>) => problem(await t.api('POST', '/purchase_orders', orderBody(body)), 400).detail;

describe('POST /purchase_orders', () => {
  it('registers an order with the defaults of 4.14 filled in', async () => {
    const o = await register({ products: [line(p1, [a, '3'], [b, '4']), line(p2, [b, '1'])], stores: [{ storageStoreId: a }, { storageStoreId: b }] });
    expect(o).toEqual({
      storageInfoId: '1001',
      recipientOrderId: null,
      orderSourceStoreId: null,
      orderStaffName: null,
      divisionUnit: '0',
      categoryGroupId: null,
      orderedDate: TODAY,
      memo: null,
      identificationNo: null,
      roundingDivision: '1',
      status: '2',
      staffId: null,
      insDateTime: NOW,
      updDateTime: NOW,
      products: [
        {
          storageInfoProductId: '1001',
          storageInfoId: '1001',
          productId: p1,
          taxRate: '10.000',
          cost: '120.00000',
          taxDivision: '0',
          quantity: '7',
          insDateTime: NOW,
          updDateTime: NOW,
          deliveryStore: [
            { storageInfoDeliveryProductId: '1001', storeId: a, quantity: '3' },
            { storageInfoDeliveryProductId: '2001', storeId: b, quantity: '4' },
          ],
        },
        {
          storageInfoProductId: '2001',
          storageInfoId: '1001',
          productId: p2,
          taxRate: '10.000',
          cost: '210.50000',
          taxDivision: '1',
          quantity: '1',
          insDateTime: NOW,
          updDateTime: NOW,
          deliveryStore: [{ storageInfoDeliveryProductId: '3001', storeId: b, quantity: '1' }],
        },
      ],
      stores: [
        { storageInfoDeliveryId: '1001', storageInfoId: '1001', storageStoreId: a, storageExpectedDateFrom: TODAY, storageExpectedDateTo: TODAY, insDateTime: NOW, updDateTime: NOW },
        { storageInfoDeliveryId: '2001', storageInfoId: '1001', storageStoreId: b, storageExpectedDateFrom: TODAY, storageExpectedDateTo: TODAY, insDateTime: NOW, updDateTime: NOW },
      ],
    });
    expect(await ok(t, 'GET', '/purchase_orders/1001')).toEqual(o);
  });

  it('takes every field sent', async () => {
    const staff = await makeStaff(t);
    const o = await register({
      recipientOrderId: supplier,
      orderSourceStoreId: c,
      orderStaffName: 'Reiji Suma',
      orderedDate: '2026-11-20',
      memo: 'weekly order',
      identificationNo: 'PO-1',
      roundingDivision: '0',
      status: '5',
      staffId: staff,
      products: [{ ...line(p1, [a, '3']), taxRate: '8', cost: '99.125' }],
      stores: [{ storageStoreId: a, storageExpectedDateFrom: '2026-11-25', storageExpectedDateTo: '2026-11-27' }],
    });
    expect(o).toMatchObject({
      recipientOrderId: supplier,
      orderSourceStoreId: c,
      orderStaffName: 'Reiji Suma',
      orderedDate: '2026-11-20',
      memo: 'weekly order',
      identificationNo: 'PO-1',
      roundingDivision: '0',
      status: '5',
      staffId: staff,
    });
    expect(o.products[0]).toMatchObject({ taxRate: '8.000', cost: '99.12500', quantity: '3' });
    expect(o.stores[0]).toMatchObject({ storageExpectedDateFrom: '2026-11-25', storageExpectedDateTo: '2026-11-27' });
  });

  it('defaults the tax rate to the one in force for the product at registration, and the cost to 0 without one', async () => {
    const reduced = await makeProduct(t, category, { reduceTaxId: '10000001', cost: null });
    const o = await register({ products: [line(p1, [a, '1']), line(reduced, [a, '1'])] });
    expect(o.products.map((p: any) => [p.taxRate, p.cost])).toEqual([
      ['10.000', '120.00000'],
      ['8.000', '0.00000'],
    ]);
    t.clock.set('2019-09-30T23:59:59+09:00');
    expect((await register()).products[0].taxRate).toBe('8.000');
  });

  it("takes the dates of the registration in the contract's time zone", async () => {
    t.clock.set('2026-11-22T15:30:00Z'); // already the 23rd in Tokyo
    const token = await t.tokenFor(); // the first one has expired by then
    const res = await t.api('POST', '/purchase_orders', orderBody({ stores: [{ storageStoreId: a, storageExpectedDateTo: '2026-11-30' }] }), token);
    const o = res.json();
    expect([o.orderedDate, o.stores[0].storageExpectedDateFrom, o.stores[0].storageExpectedDateTo]).toEqual(['2026-11-23', '2026-11-23', '2026-11-30']);
  });

  it('refuses unknown references (400)', async () => {
    expect(await post400({ stores: [{ storageStoreId: a }, { storageStoreId: '999' }] })).toBe('[stores[1].storageStoreId] store 999 does not exist');
    expect(await post400({ products: [line(p1, [a, '1']), line('999', [a, '1'])] })).toBe('[products[1].productId] product 999 does not exist');
    expect(await post400({ staffId: '999' })).toBe('[staffId] staff 999 does not exist');
    expect(await post400({ recipientOrderId: '999' })).toBe('[recipientOrderId] supplier 999 does not exist');
    expect(await post400({ orderSourceStoreId: '999' })).toBe('[orderSourceStoreId] store 999 does not exist');
  });

  it('refuses products and delivery stores that do not fit together (400)', async () => {
    expect(await post400({ products: [line(p1, [a, '1']), line(p2, [a, '1']), line(p1, [a, '2'])] })).toBe(`[products[2].productId] product ${p1} is given twice`);
    expect(await post400({ products: [line(p1, [a, '1'], [b, '1'])] })).toBe(`[products[0].deliveryStore[1].storeId] store ${b} is not among the order's stores`);
    expect(await post400({ products: [line(p1, [a, '1'], [a, '2'])] })).toBe(`[products[0].deliveryStore[1].storeId] store ${a} is given twice for product ${p1}`);
    expect(await post400({ products: [line(p1)] })).toBe('[products[0].deliveryStore] must have at least one entry');
    expect(await post400({ products: [{ productId: p1 }] })).toBe('[products[0].deliveryStore] is required');
    expect(await post400({ stores: [{ storageStoreId: a }, { storageStoreId: a }] })).toBe(`[stores[1].storageStoreId] store ${a} is given twice`);
  });

  it('refuses more than 1000 products and other bodies out of range (400)', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => line(String(100000 + i), [a, '1']));
    expect(await post400({ products: many })).toBe('[products] must have at most 1000 entries');
    expect(await post400({ products: [] })).toBe('[products] must have at least one entry');
    expect(await post400({ stores: [] })).toMatch(/^\[stores\] must have at least one entry/);
    expect(await post400({ status: '3' })).toBe('[status] must be one of 2, 5');
    expect(await post400({ status: undefined })).toBe('[status] is required');
    expect(await post400({ memo: 'x'.repeat(1001) })).toBe('[memo] must be at most 1000 characters');
    expect(await post400({ roundingDivision: '3' })).toBe('[roundingDivision] must be one of 0, 1, 2');
    expect(await post400({ products: [{ ...line(p1, [a, '1']), taxRate: '10.0001' }] })).toMatch(/^\[products\[0\]\.taxRate\] must be a non-negative decimal/);
    expect(await post400({ products: [line(p1, [a, '100000'])] })).toBe('[products[0].deliveryStore[0].quantity] must be a whole number from 0 to 99999');
    expect(await post400({ stores: [{ storageStoreId: a, storageExpectedDateFrom: '2026-11-25', storageExpectedDateTo: '2026-11-24' }] })).toBe(
      '[stores[0].storageExpectedDateTo] 2026-11-24 is earlier than storageExpectedDateFrom 2026-11-25',
    );
  });

  it('registers 1000 products for 3 stores, quantities summed per product', async () => {
    // The masters through the product repo (the rows POST /products writes; 998 requests would only slow the test).
    const repo = new ProductRepo(t.deps.db, t.deps.writer, t.deps.ids, t.clock);
    const products: string[] = [p1, p2];
    for (let i = products.length; i < 1000; i++) {
      products.push(String(repo.create(t.contractId, { categoryId: category, productCode: `M${i}`, productName: 'Item', price: '100' }).row.product_id));
    }
    const o = await register({
      products: products.map((id, i) => line(id, [a, String(i % 7)], [b, '2'], [c, '3'])),
      stores: [a, b, c].map((storageStoreId) => ({ storageStoreId })),
    });
    expect(o.products).toHaveLength(1000);
    expect(o.products[5].quantity).toBe('10'); // 5 + 2 + 3
    expect(o.products.flatMap((p: any) => p.deliveryStore)).toHaveLength(3000);
    expect((await ok(t, 'GET', `/purchase_orders/${o.storageInfoId}`)).products).toEqual(o.products);
  }, 60_000);
});

describe('ordering settings per store (4.14)', () => {
  it('refuses a product not orderable, hidden from ordering, or with an order limit of 0 at a delivery store', async () => {
    const both = { stores: [{ storageStoreId: a }, { storageStoreId: b }] };
    orderSetting(t, p1, b, { orderable: '0' });
    expect(await post400({ ...both, products: [line(p1, [a, '1'], [b, '1'])] })).toBe(`[products[0].deliveryStore[1].storeId] product ${p1} is not orderable at store ${b}`);
    orderSetting(t, p2, a, { hidden: '1' });
    expect(await post400({ ...both, products: [line(p2, [a, '1'])] })).toBe(`[products[0].deliveryStore[0].storeId] product ${p2} is hidden from ordering at store ${a}`);
    orderSetting(t, p1, c, { limit: 0 });
    expect(await post400({ stores: [{ storageStoreId: c }], products: [line(p1, [c, '1'])] })).toBe(
      `[products[0].deliveryStore[0].storeId] product ${p1} has an order limit of 0 at store ${c}`,
    );
    // The settings bind their own store only.
    expect((await register({ ...both, products: [line(p1, [a, '1']), line(p2, [b, '1'])] })).products).toHaveLength(2);
  });

  it('an order limit counts the expected arrivals: quantities of open orders (2 and 5) still to arrive', async () => {
    orderSetting(t, p1, a, { limit: 10 });
    expect(await post400({ products: [line(p1, [a, '11'])] })).toBe(`[products[0].deliveryStore[0].quantity] 11 is over the order limit of product ${p1} at store ${a}: 10 leaves 10`);
    const first = await register({ products: [line(p1, [a, '4'])] });
    await register({ status: '5', products: [line(p1, [a, '3'])] });
    // Another store's orders do not count.
    await register({ stores: [{ storageStoreId: b }], products: [line(p1, [b, '50'])] });
    expect(await post400({ products: [line(p1, [a, '4'])] })).toBe(
      `[products[0].deliveryStore[0].quantity] 4 is over the order limit of product ${p1} at store ${a}: 10 less 7 on order leaves 3`,
    );
    await register({ products: [line(p1, [a, '3'])] }); // exactly the limit
    expect(await post400({ products: [line(p1, [a, '1'])] })).toBe(
      `[products[0].deliveryStore[0].storeId] product ${p1} already has 10 on order for store ${a}, which reaches its order limit of 10`,
    );
    expect(await post400({ products: [line(p1, [a, '0'])] })).toMatch(/already has 10 on order/);
    // An order in receiving (3) or received (4) brings nothing more.
    t.deps.db.prepare("UPDATE purchase_orders SET status = '4' WHERE contract_id = ? AND storage_info_id = ?").run(t.contractId, Number(first.storageInfoId));
    expect((await register({ products: [line(p1, [a, '4'])] })).products[0].quantity).toBe('4');
  });
});

describe('order split unit (4.14)', () => {
  it('split by supplier: recipientOrderId required, every product handled by a supplier', async () => {
    setInventory(t, { orderSplitUnit: '2' });
    supplies(t, supplier, { productId: p1 });
    expect(await post400({})).toBe('[recipientOrderId] is required: the contract splits purchase orders by supplier');
    expect(await post400({ recipientOrderId: supplier, products: [line(p1, [a, '1']), line(p2, [a, '1'])] })).toBe(
      `[products[1].productId] product ${p2} has no supplier registered, which the contract's split by supplier needs`,
    );
    // A supplier of the product's category counts.
    const other = await makeCategory(t, { categoryName: 'Drinks' });
    const p3 = await makeProduct(t, other);
    supplies(t, supplier, { categoryId: other });
    const o = await register({ recipientOrderId: supplier, products: [line(p1, [a, '1']), line(p3, [a, '1'])] });
    expect([o.divisionUnit, o.categoryGroupId, o.recipientOrderId]).toEqual(['2', null, supplier]);
  });

  it('split by category group: the products of one group only', async () => {
    setInventory(t, { orderSplitUnit: '1' });
    const g1 = makeCategoryGroup(t, 5001, 'Food');
    const g2 = makeCategoryGroup(t, 6001, 'Drink');
    const food = await makeCategory(t, { categoryName: 'Food', categoryGroupId: g1 });
    const drink = await makeCategory(t, { categoryName: 'Drink', categoryGroupId: g2 });
    const f1 = await makeProduct(t, food);
    const f2 = await makeProduct(t, food);
    const d1 = await makeProduct(t, drink);
    expect(await post400({ products: [line(f1, [a, '1']), line(f2, [a, '1']), line(d1, [a, '1'])] })).toBe(
      `[products[2].productId] product ${d1} is of category group ${g2} and products[0] of category group ${g1}: the contract splits purchase orders by category group`,
    );
    expect(await post400({ products: [line(f1, [a, '1']), line(p1, [a, '1'])] })).toMatch(/is of no category group and products\[0\] of category group 5001/);
    const o = await register({ products: [line(f1, [a, '1']), line(f2, [a, '1'])] });
    expect([o.divisionUnit, o.categoryGroupId]).toEqual(['1', g1]);
    expect((await register()).categoryGroupId).toBeNull(); // products without a group
    // Without a split setting, any mix is fine.
    setInventory(t, { orderSplitUnit: '0' });
    expect((await register({ products: [line(f1, [a, '1']), line(d1, [a, '1'])] })).divisionUnit).toBe('0');
  });
});

describe('GET /purchase_orders', () => {
  it('lists headers with paging and filters; children on request', async () => {
    const o1 = await register({ orderedDate: '2026-11-01', recipientOrderId: supplier });
    const o2 = await register({ orderedDate: '2026-11-10', status: '5', orderSourceStoreId: b, stores: [{ storageStoreId: b }], products: [line(p2, [b, '2'])] });
    const o3 = await register({ orderedDate: '2026-11-20', identificationNo: 'X' });
    const ids = async (q: string) => (await ok(t, 'GET', `/purchase_orders?${q}`)).map((o: any) => o.storageInfoId);
    const all = await ok(t, 'GET', '/purchase_orders');
    expect(all.map((o: any) => o.storageInfoId)).toEqual([o1.storageInfoId, o2.storageInfoId, o3.storageInfoId]);
    expect([all[0].products, all[0].stores]).toEqual([undefined, undefined]);
    expect(await ids('status=5')).toEqual([o2.storageInfoId]);
    expect(await ids(`recipient_order_id=${supplier}`)).toEqual([o1.storageInfoId]);
    expect(await ids(`order_source_store_id=${b}`)).toEqual([o2.storageInfoId]);
    expect(await ids(`storage_store_id=${a}`)).toEqual([o1.storageInfoId, o3.storageInfoId]);
    expect(await ids('ordered_date-from=2026-11-05&ordered_date-to=2026-11-15')).toEqual([o2.storageInfoId]);
    expect(await ids('identification_no=X')).toEqual([o3.storageInfoId]);
    expect(await ids('division_unit=1')).toEqual([]);

    const page = await t.api('GET', '/purchase_orders?limit=1&page=2&sort=orderedDate:desc&with_products=all&with_stores=all');
    expect(page.json()).toEqual([o2]);
    expect(page.headers.link).toBe(
      '<http://localhost/test-contract/pos/purchase_orders?limit=1&page=1&sort=orderedDate%3Adesc&with_products=all&with_stores=all>; rel="prev", ' +
        '<http://localhost/test-contract/pos/purchase_orders?limit=1&page=3&sort=orderedDate%3Adesc&with_products=all&with_stores=all>; rel="next"',
    );
    expect(problem(await t.api('GET', '/purchase_orders?ordered_date-from=2026-11-10&ordered_date-to=2026-11-01'), 400).detail).toBe(
      '[ordered_date-to] must not be earlier than ordered_date-from',
    );
  });

  it('GET one takes with_products and with_stores, and answers 404 for an absent order', async () => {
    const o = await register();
    const { products, stores, ...header } = o;
    expect(await ok(t, 'GET', `/purchase_orders/${o.storageInfoId}?with_products=none&with_stores=none`)).toEqual(header);
    expect(await ok(t, 'GET', `/purchase_orders/${o.storageInfoId}?with_stores=none`)).toEqual({ ...header, products });
    expect(await ok(t, 'GET', `/purchase_orders/${o.storageInfoId}?with_products=none`)).toEqual({ ...header, stores });
    expect(problem(await t.api('GET', '/purchase_orders/999'), 404).detail).toBe('[purchase_order_id] purchase order 999 does not exist');
  });
});

describe('access and sync', () => {
  it('is Retail Business only (403) and needs the pos.orders scope', async () => {
    t.addContract('premium', 'premium_plus');
    const other = await t.tokenFor({ contractId: 'premium' });
    for (const [method, url] of [['POST', '/premium/pos/purchase_orders'], ['GET', '/premium/pos/purchase_orders'], ['GET', '/premium/pos/purchase_orders/1']]) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${other}` }, ...(method === 'POST' ? { payload: orderBody() } : {}) });
      expect(problem(res, 403).detail).toMatch(/plan premium_plus cannot use/);
    }
    const readOnly = await t.tokenFor({ scopes: ['pos.orders:read'] });
    expect(problem(await t.api('POST', '/purchase_orders', orderBody(), readOnly), 403).detail).toMatch(/pos\.orders:write/);
  });

  it('an order reaches the outbox once with its children; a refused one writes nothing', async () => {
    const o = await register({ products: [line(p1, [a, '1']), line(p2, [a, '2'])] });
    await t.api('POST', '/purchase_orders', orderBody({ staffId: '999' }));
    expect(outboxOf(t, 'purchase_order')).toEqual([[o.storageInfoId, 'insert']]);
    const count = (table: string) => t.deps.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    expect([count('purchase_orders'), count('purchase_order_products'), count('purchase_order_delivery_products'), count('purchase_order_stores')]).toEqual([1, 2, 2, 1]);
  });
});

describe('head office', () => {
  it('a purchase order reaches central through the outbox with its products, deliveries and stores', async () => {
    const { central, store: shop, agent, close } = await centralAndStore();
    try {
      const [s1, s2] = [(await central.ok('POST', '/stores', { storeName: 'A' })).storeId, (await central.ok('POST', '/stores', { storeName: 'B' })).storeId];
      const categoryId = (await central.ok('POST', '/categories', { categoryName: 'Goods' })).categoryId;
      const productId = (await central.ok('POST', '/products', { categoryId, productCode: 'P1', productName: 'Item', price: '1100', cost: '120' })).productId;
      await agent.drain(CONTRACT);

      const o = await shop.ok('POST', '/purchase_orders', {
        status: '2',
        products: [{ productId, deliveryStore: [{ storeId: s1, quantity: '3' }, { storeId: s2, quantity: '4' }] }],
        stores: [{ storageStoreId: s1 }, { storageStoreId: s2 }],
      });
      expect(o.storageInfoId).toMatch(/007$/);
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/purchase_orders/${o.storageInfoId}`)).toEqual(o);
      expect((await central.ok('GET', '/purchase_orders?with_products=all&with_stores=all'))).toEqual([o]);
    } finally {
      await close();
    }
  }, 30_000);
});
