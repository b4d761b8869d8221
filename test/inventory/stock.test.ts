import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { UI_CLIENT_ID } from '../../server/platform/auth/ui-client.js';
import { StockMovements } from '../../server/inventory/stock/movements.js';
import { DeliveryRepo } from '../../sync/webhooks/deliveries.js';
import { okOf, problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from '../sales/transactions-fixtures.js';

/** Issue 14 item 2: stock per store and product, the platform's stock routes, and the stock sales and returns move. */

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';

let f: Fixture;
let product: string;
let other: string;
beforeEach(async () => {
  f = await makeFixture('retail_business');
  product = (await f.create('/products', { categoryId: f.category, productCode: 'P1', productName: 'Tea', price: '300' })).productId;
  other = (await f.create('/products', { categoryId: f.category, productCode: 'P2', productName: 'Cake', price: '500' })).productId;
});
afterEach(() => f.t.close());

const ok = okOf((method, path, body) => f.api(method, path, body));
const amount = async (productId = product, storeId = f.store) =>
  ((await ok('GET', `/stock?product_id=${productId}&store_id=${storeId}`)) as { stockAmount: string }[])[0]?.stockAmount;
const changes = async (productId = product, storeId = f.store, query = '') =>
  (await ok('GET', `/stock/changes/${productId}/${storeId}${query}`)) as Record<string, string | null>[];
/** Each change as [stockDivision, amount, stockAmount], by id. */
const divisions = async (productId = product) => (await changes(productId)).map((c) => [c.stockDivision, c.amount, c.stockAmount]);
/** Waits for the bulk add's work after its answer (setImmediate) to commit its notice. */
const settle = async () => {
  for (let i = 0; i < 200; i++) {
    const n = f.t.deps.db.prepare("SELECT count(*) FROM webhook_events WHERE event = 'pos:stock'").pluck().get() as number;
    if (n > 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the bulk add never finished');
};

describe('StockMovements (the one way stock moves)', () => {
  it('records the movement and the quantity in one write; reports the quantity balance-only and the movement as an insert', () => {
    const stock = new StockMovements(f.t.deps.db, f.t.deps.writer, f.t.deps.ids, f.t.clock);
    const seen: Change[] = [];
    f.t.deps.writer.onChange((c) => seen.push(c));
    const first = f.t.deps.writer.write(() =>
      stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '5', division: '05', ref: { shippingId: '7001', fromStoreId: '8', toStoreId: f.store } }),
    );
    expect(first.stock).toMatchObject({ stock_amount: '5', layaway_stock_amount: '0' });
    // The product master's tax division, price (thousandths) and cost (none) as they were when it moved.
    expect(first.movement).toMatchObject({
      stock_division: '05',
      delta: '5',
      amount_after: '5',
      target_at: first.movement!.moved_at,
      from_store_id: 8,
      to_store_id: Number(f.store),
      tax_division: '0',
      price_units: 300_000,
      cost_units: null,
      shipping_id: 7001,
      transaction_head_id: null,
    });
    const second = stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '-1.5', division: '10', ref: { shipmentId: 9 } });
    expect(second.stock.stock_amount).toBe('3.5');
    expect(stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '0', division: '10' }).movement).toBeNull();
    expect(seen.map((c) => [c.entity, c.op, c.balanceOnly ?? false])).toEqual([
      ['stock', 'insert', true],
      ['stock_movement', 'insert', false],
      ['stock', 'update', true],
      ['stock_movement', 'insert', false],
    ]);
    expect(stock.amount(f.t.contractId, f.store, product)).toBe('3.5');
    expect(stock.amount(f.t.contractId, f.store, other)).toBe('0');
    // The outbox carries the movements only: the quantity never travels as a row.
    const outbox = f.t.deps.db.prepare("SELECT entity, op FROM outbox WHERE entity IN ('stock', 'stock_movement') ORDER BY seq").all();
    expect(outbox).toEqual([
      { entity: 'stock_movement', op: 'insert' },
      { entity: 'stock_movement', op: 'insert' },
    ]);
  });

  it('a failed write moves nothing', () => {
    const stock = new StockMovements(f.t.deps.db, f.t.deps.writer, f.t.deps.ids, f.t.clock);
    expect(() =>
      f.t.deps.writer.write(() => {
        stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '5', division: '05' });
        throw new Error('later rule');
      }),
    ).toThrow('later rule');
    expect(stock.find(f.t.contractId, f.store, product)).toBeUndefined();
    expect(f.t.deps.db.prepare('SELECT count(*) FROM stock_movements').pluck().get()).toBe(0);
  });
});

describe('PATCH /stock/{product_id}', () => {
  it("sets the store's quantity: a movement of the difference, with its memo; the same quantity again is recorded too", async () => {
    expect(await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '12', stockHistory: { memo: 'count' } })).toEqual({
      productId: product,
      storeId: f.store,
      stockAmount: '12',
      updDateTime: AT_10_00,
      stockHistory: { id: expect.stringMatching(/^\d+001$/), memo: 'count' },
    });
    await f.advance(60_000);
    const res = await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '-3' });
    expect(res).toMatchObject({ stockAmount: '-3', updDateTime: AT_10_01, stockHistory: { memo: null } });
    expect((await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '-3' })).stockHistory).not.toBeNull();
    // Through the stock routes by an API client: stock division 15 (API).
    expect(await divisions()).toEqual([
      ['15', '12', '12'],
      ['15', '-15', '-3'],
      ['15', '0', '-3'],
    ]);
  });

  it('400 for an unknown store and bad values, 404 for an unknown product', async () => {
    expect(problem(await f.api('PATCH', `/stock/${product}`, { storeId: '999', stockAmount: '1' }), 400).detail).toBe('[storeId] store 999 does not exist');
    expect(problem(await f.api('PATCH', '/stock/999', { storeId: f.store, stockAmount: '1' }), 404).detail).toBe('[product_id] product 999 does not exist');
    expect(problem(await f.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1000000000' }), 400).detail).toBe(
      '[stockAmount] must be an integer from -999999999 to 999999999',
    );
    expect(problem(await f.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1.5' }), 400).detail).toBe(
      '[stockAmount] must be an integer from -999999999 to 999999999',
    );
    expect(problem(await f.api('PATCH', `/stock/${product}`, { stockAmount: '1' }), 400).detail).toBe('[storeId] is required');
    expect(problem(await f.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1', stockHistory: { memo: 'x'.repeat(101) } }), 400).detail).toBe(
      '[stockHistory.memo] must be at most 100 characters',
    );
    expect(problem(await f.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1', layawayStockAmount: '1' }), 400).detail).toBe(
      '[layawayStockAmount] is not a known field',
    );
    expect(await ok('GET', '/stock')).toEqual([]);
  });
});

describe('POST /stock/{product_id}/add', () => {
  it('adds and takes; the result must stay within ±999999999', async () => {
    expect(await ok('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '10', stockHistory: { memo: 'delivery' } })).toMatchObject({
      stockAmount: '10',
      stockHistory: { memo: 'delivery' },
    });
    expect((await ok('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '-25' })).stockAmount).toBe('-15');
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '999999999' });
    expect(problem(await f.api('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '1' }), 400).detail).toBe(
      '[stockAmount] would make the quantity 1000000000, more than 999999999',
    );
    // From the top to the bottom in one step is allowed; one more below is not.
    expect((await ok('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '-1999999998' })).stockAmount).toBe('-999999999');
    expect(problem(await f.api('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '-1' }), 400).detail).toBe(
      '[stockAmount] would make the quantity -1000000000, less than -999999999',
    );
    expect(problem(await f.api('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '-1999999999' }), 400).detail).toBe(
      '[stockAmount] must be an integer from -1999999998 to 1999999998',
    );
    expect(problem(await f.api('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '+1' }), 400).detail).toBe(
      '[stockAmount] must be an integer from -1999999998 to 1999999998',
    );
    expect(await amount()).toBe('-999999999');
    expect(await divisions()).toEqual([
      ['15', '10', '10'],
      ['15', '-25', '-15'],
      ['15', '1000000014', '999999999'],
      ['15', '-1999999998', '-999999999'],
    ]);
    expect(problem(await f.api('POST', '/stock/999/add', { storeId: f.store, stockAmount: '1' }), 404).detail).toBe('[product_id] product 999 does not exist');
    expect(problem(await f.api('POST', `/stock/${product}/add`, { storeId: '999', stockAmount: '1' }), 400).detail).toBe('[storeId] store 999 does not exist');
  });
});

describe('GET /stock', () => {
  it('lists quantities that moved, with filters, sort, fields, paging and the update-time range', async () => {
    const east = (await f.create('/stores', { storeName: 'East' })).storeId;
    await ok('PATCH', `/stock/${other}`, { storeId: f.store, stockAmount: '4' });
    await f.advance(60_000);
    await ok('PATCH', `/stock/${product}`, { storeId: east, stockAmount: '2' });
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1' });
    expect(await ok('GET', '/stock')).toEqual([
      { storeId: f.store, productId: product, stockAmount: '1', layawayStockAmount: '0', updDateTime: AT_10_01 },
      { storeId: f.store, productId: other, stockAmount: '4', layawayStockAmount: '0', updDateTime: AT_10_00 },
      { storeId: east, productId: product, stockAmount: '2', layawayStockAmount: '0', updDateTime: AT_10_01 },
    ]);
    const pairs = async (query: string) => ((await ok('GET', `/stock${query}`)) as { storeId: string; productId: string }[]).map((s) => `${s.storeId}/${s.productId}`);
    expect(await pairs(`?store_id=${east}`)).toEqual([`${east}/${product}`]);
    expect(await pairs(`?product_id=${product}`)).toEqual([`${f.store}/${product}`, `${east}/${product}`]);
    expect(await pairs('?sort=productId:desc,storeId:desc')).toEqual([`${f.store}/${other}`, `${east}/${product}`, `${f.store}/${product}`]);
    expect(await pairs('?upd_date_time-from=2026-11-22T10:00:30%2B09:00')).toEqual([`${f.store}/${product}`, `${east}/${product}`]);
    expect(await ok('GET', `/stock?fields=stockAmount&product_id=${other}`)).toEqual([{ stockAmount: '4' }]);
    const page = await f.api('GET', '/stock?limit=2');
    expect(page.json()).toHaveLength(2);
    expect(page.headers.link).toBe('<http://localhost/test-contract/pos/stock?limit=2&page=2>; rel="next"');
    expect(problem(await f.api('GET', '/stock?sort=stockAmount'), 400).detail).toMatch(/^\[sort\] stockAmount is not a sort key/);
    expect(problem(await f.api('GET', '/stock?fields=nope'), 400).detail).toBe('[fields] nope is not a stock field');
    expect(problem(await f.api('GET', '/stock?store_id=x'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
  });
});

describe('GET /stock/changes/{product_id}/{store_id}', () => {
  it("answers the platform's stock history to the request a platform client sends: its names, filters, sort and paging", async () => {
    const staffId = (await f.create('/staffs', { staffName: 'Hanako' })).staffId as string;
    const east = (await f.create('/stores', { storeName: 'East' })).storeId as string;
    await ok('PATCH', `/products/${product}`, { cost: '120.5' });
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '10', stockHistory: { memo: 'opening' } });
    await f.advance(60_000);
    await f.sale({ staffId, details: [line(1, '300', { productId: product, quantity: '2' })] });
    // A store-to-store shipping arriving from East, as the shipping routes record it (test/inventory/shipping.test.ts).
    new StockMovements(f.t.deps.db, f.t.deps.writer, f.t.deps.ids, f.t.clock).move(f.t.contractId, {
      storeId: f.store,
      productId: product,
      delta: '3',
      division: '05',
      ref: { shippingId: '5001', fromStoreId: east, toStoreId: f.store },
    });
    // Half past midnight the next day in the contract's time zone (still the 22nd in UTC).
    await f.advance(14.5 * 3600_000);
    await ok('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '-1' });

    // A platform client holding only pos.stock-changes:read, with the platform's query parameters.
    const token = await f.t.tokenFor({ scopes: ['pos.stock-changes:read'] });
    const get = (query: string) =>
      f.t.app.inject({ method: 'GET', url: `/${f.t.contractId}/pos/stock/changes/${product}/${f.store}${query}`, headers: { authorization: `Bearer ${token}` } });
    const res = await get('?stock_division=02&target_date=2026-11-22&limit=100&page=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        updDateTime: AT_10_01,
        targetDateTime: AT_10_01,
        productId: product,
        storeId: f.store,
        amount: '-2',
        stockAmount: '8',
        layawayStockAmount: '0',
        stockDivision: '02',
        fromStoreId: null,
        toStoreId: null,
        taxDivision: '0',
        price: '300',
        cost: '120.5',
        memo: null,
        staffId,
        staffName: 'Hanako',
      },
    ]);

    const all = (await get('')).json() as Record<string, string | null>[];
    expect(all.map((c) => [c.stockDivision, c.amount, c.stockAmount, c.memo])).toEqual([
      ['15', '10', '10', 'opening'],
      ['02', '-2', '8', null],
      ['05', '3', '11', null],
      ['15', '-1', '10', null],
    ]);
    expect(all[2]).toMatchObject({ fromStoreId: east, toStoreId: f.store, staffId: null, staffName: null });
    expect(all[3]).toMatchObject({ updDateTime: '2026-11-23T00:31:00+09:00', targetDateTime: '2026-11-23T00:31:00+09:00' });
    const listed = async (query: string) => {
      const page = await get(query);
      expect(page.statusCode, page.body).toBe(200);
      return (page.json() as { id: string }[]).map((c) => all.findIndex((a) => a.id === c.id));
    };
    expect(await listed('?sort=id:desc')).toEqual([3, 2, 1, 0]);
    expect(await listed('?sort=targetDateTime:desc,id')).toEqual([3, 1, 2, 0]);
    expect(await listed(`?id=${all[1]!.id}`)).toEqual([1]);
    expect(await listed('?stock_amount=10')).toEqual([0, 3]);
    expect(await listed('?stock_division=15')).toEqual([0, 3]);
    expect(await listed(`?from_store_id=${east}`)).toEqual([2]);
    expect(await listed(`?to_store_id=${f.store}`)).toEqual([2]);
    expect(await listed(`?to_store_id=${east}`)).toEqual([]);
    expect(await listed('?target_date=2026-11-22')).toEqual([0, 1, 2]);
    expect(await listed('?target_date=2026-11-23')).toEqual([3]);
    expect(await listed('?limit=2&page=2')).toEqual([2, 3]);
    expect((await get('?limit=1')).headers.link).toBe(`<http://localhost/${f.t.contractId}/pos/stock/changes/${product}/${f.store}?limit=1&page=2>; rel="next"`);
    expect(await changes(other)).toEqual([]);

    const refused = async (query: string) => problem(await get(query), 400).detail;
    expect(await refused('?stock_division=11')).toBe('[stock_division] must be one of 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 12, 13, 14, 15, 16, 17, 18');
    expect(await refused('?target_date=2026-11-31')).toBe('[target_date] must be a calendar date YYYY-MM-DD from 1900');
    expect(await refused('?stock_amount=1.5')).toBe('[stock_amount] must be an integer');
    expect(await refused('?from_store_id=x')).toBe('[from_store_id] must be 1 to 9 digits');
    expect(await refused('?sort=amount')).toMatch(/^\[sort\] amount is not a sort key; use id, updDateTime, targetDateTime/);
    // Our former names are nobody's: a platform client never sends them.
    expect(await refused('?cause=sale')).toBe('[cause] is not a known field');
    expect(problem(await f.api('GET', `/stock/changes/999/${f.store}`), 404).detail).toBe('[product_id] product 999 does not exist');
    expect(problem(await f.api('GET', `/stock/changes/${product}/999`), 404).detail).toBe('[store_id] store 999 does not exist');
  });

  it('a change through the back-office UI is stock division 01 (correction), with the staff member who made it', async () => {
    const staffId = (await f.create('/staffs', { staffName: 'Hanako', staffCode: 'S001' })).staffId as string;
    new StaffLoginRepo(f.t.deps.db, f.t.deps.writer, f.t.clock).set(f.t.contractId, staffId, hashPasswordSync('correct horse 1'), []);
    const login = await f.t.app.inject({
      method: 'POST',
      url: `/app/${f.t.contractId}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&client_id=${UI_CLIENT_ID}&username=S001&password=correct+horse+1`,
    });
    expect(login.statusCode, login.body).toBe(200);
    const ui = login.json().access_token as string;
    expect((await f.t.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '4', stockHistory: { memo: 'counted' } }, ui)).statusCode).toBe(200);
    expect((await f.t.api('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '1' }, ui)).statusCode).toBe(200);
    await ok('POST', `/stock/${product}/add`, { storeId: f.store, stockAmount: '2' });
    expect((await changes()).map((c) => [c.stockDivision, c.amount, c.staffId, c.staffName, c.memo])).toEqual([
      ['01', '4', staffId, 'Hanako', 'counted'],
      ['01', '1', staffId, 'Hanako', null],
      ['15', '2', null, null, null],
    ]);
  });
});

describe('POST /stock/add/bulk', () => {
  it('accepts, adds every entry after the answer and notifies callbackUrl with the movements', async () => {
    const east = (await f.create('/stores', { storeName: 'East' })).storeId;
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '5' });
    const accepted = await ok('POST', '/stock/add/bulk', {
      stock: [
        { productId: product, storeId: f.store, stockAmount: '3', stockHistory: { memo: 'bulk' } },
        { productId: product, storeId: east, stockAmount: '-2' },
        { productId: other, storeId: f.store, stockAmount: '7' },
      ],
      callbackUrl: 'https://receiver.example/stock?x=1',
    });
    expect(accepted).toEqual({ requestId: expect.any(Number), callbackUrl: 'https://receiver.example/stock?x=1' });
    await settle();
    expect([await amount(), await amount(product, east), await amount(other)]).toEqual(['8', '-2', '7']);
    expect((await changes()).at(-1)).toMatchObject({ stockDivision: '15', amount: '3', memo: 'bulk' });

    const event = f.t.deps.db.prepare("SELECT event, action, body, target_url FROM webhook_events WHERE event = 'pos:stock'").get() as { action: string; body: string; target_url: string };
    expect(event.target_url).toBe('https://receiver.example/stock?x=1');
    expect(event.action).toBe('bulk-update');
    const body = JSON.parse(event.body);
    expect(body).toEqual({
      contractId: f.t.contractId,
      event: 'pos:stock',
      action: 'bulk-update',
      requestId: accepted.requestId,
      status: 'success',
      ids: [
        { id: expect.any(String), productId: product, storeId: f.store },
        { id: expect.any(String), productId: product, storeId: east },
        { id: expect.any(String), productId: other, storeId: f.store },
      ],
      errors: [],
    });
    // The notice goes out like every callback: one delivery to the request's own URL.
    expect(new DeliveryRepo(f.t.deps).fanOut()).toBe(1);
    expect(f.t.deps.db.prepare('SELECT url, subscription_id FROM webhook_deliveries').all()).toEqual([
      { url: 'https://receiver.example/stock?x=1', subscription_id: null },
    ]);
  });

  it('one refused entry refuses the whole request: nothing moves and the notice lists why', async () => {
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '999999990' });
    const accepted = await ok('POST', '/stock/add/bulk', {
      stock: [
        { productId: product, storeId: f.store, stockAmount: '5' },
        { productId: '999', storeId: f.store, stockAmount: '1' },
        { productId: other, storeId: '999', stockAmount: '1' },
        { productId: product, storeId: f.store, stockAmount: '5' }, // 5 + 5 on top of 999999990: over the limit
      ],
      callbackUrl: 'http://127.0.0.1:9/done',
    });
    await settle();
    expect(await amount()).toBe('999999990');
    expect(await amount(other)).toBeUndefined();
    const body = JSON.parse(f.t.deps.db.prepare("SELECT body FROM webhook_events WHERE event = 'pos:stock'").pluck().get() as string);
    expect(body).toMatchObject({ requestId: accepted.requestId, status: 'failed', ids: [] });
    expect(body.errors).toEqual([
      '[stock[1].productId] product 999 does not exist',
      '[stock[2].storeId] store 999 does not exist',
      '[stock[3].stockAmount] would make the quantity 1000000000, more than 999999999',
    ]);
  });

  it('400 for a bad request, which is neither accepted nor notified', async () => {
    const entry = { productId: product, storeId: f.store, stockAmount: '1' };
    const detail = async (body: unknown) => problem(await f.api('POST', '/stock/add/bulk', body), 400).detail;
    expect(await detail({ stock: [entry] })).toBe('[callbackUrl] is required');
    expect(await detail({ stock: [entry], callbackUrl: 'ftp://x/y' })).toBe('[callbackUrl] must be an http:// or https:// URL');
    expect(await detail({ stock: [entry], callbackUrl: `https://x/${'a'.repeat(503)}` })).toBe('[callbackUrl] must be at most 511 characters');
    expect(await detail({ stock: [], callbackUrl: 'https://x/' })).toBe('[stock] must have at least 1 entry');
    expect(await detail({ stock: Array(101).fill(entry), callbackUrl: 'https://x/' })).toBe('[stock] must have at most 100 entries');
    expect(await detail({ stock: [{ ...entry, stockAmount: '0' }], callbackUrl: 'https://x/' })).toBe('[stock[0].stockAmount] must not be 0');
    expect(await detail({ stock: [{ ...entry, stockAmount: '2000000000' }], callbackUrl: 'https://x/' })).toBe(
      '[stock[0].stockAmount] must be an integer from -1999999998 to 1999999998',
    );
    expect(await detail({ stock: [{ productId: product, stockAmount: '1' }], callbackUrl: 'https://x/' })).toBe('[stock[0].storeId] is required');
    await new Promise((r) => setTimeout(r, 20));
    expect(f.t.deps.db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(0);
  });
});

describe('sales and returns move stock in the same transaction', () => {
  it('a sale takes its products’ quantities; lines without a product, or not goods, move nothing', async () => {
    await f.sale({
      details: [
        line(1, '300', { productId: product, quantity: '2' }),
        line(2, '300', { productId: product, quantity: '1.5' }),
        line(3, '500', { productId: other }),
        line(4, '100'), // no product
      ],
    });
    expect([await amount(), await amount(other)]).toEqual(['-3.5', '-1']);
    expect(await changes()).toEqual([expect.objectContaining({ stockDivision: '02', amount: '-3.5', stockAmount: '-3.5', updDateTime: AT_10_00 })]);
  });

  it('return lines bring goods back; bundle parents, tickets and options do not move; children do', async () => {
    await f.sale({ details: [line(1, '300', { productId: product, transactionDetailDivision: '2', quantity: '2' })] });
    expect(await divisions()).toEqual([['12', '2', '2']]);
    await f.sale({
      details: [
        line(1, '0', { productDivision: '4', productId: other }),
        line(2, '300', { productDivision: '7', parentTransactionDetailId: '1', productId: product }),
        line(3, '100', { productDivision: '1', productId: other }),
        line(4, '100', { productDivision: '2', productId: other }),
      ],
    });
    expect(await amount()).toBe('1');
    expect(await amount(other)).toBeUndefined();
  });

  it('cancelled sales and non-sales move nothing; a refused sale moves nothing; a replayed sale moves once', async () => {
    await f.sale({ cancelDivision: '1', details: [line(1, '300', { productId: product })] });
    await f.sale({ transactionHeadDivision: '2', total: '500' });
    expect(await ok('GET', '/stock')).toEqual([]);
    expect(problem(await f.post({ details: [line(1, '300', { productId: product }), line(2, '300', { productId: '999' })] }), 400).detail).toBe(
      '[details[1].productId] product 999 does not exist',
    );
    expect(await ok('GET', '/stock')).toEqual([]);
    const body = { terminalTranId: '77', details: [line(1, '300', { productId: product })] };
    await f.sale(body);
    await f.sale(body); // the same sale again: answered from the first registration
    expect(await divisions()).toEqual([['02', '-1', '-1']]);
  });

  it('a return-cancel (dispose or disposeDivision 2) puts back what the sale took', async () => {
    const sale = await f.sale({ details: [line(1, '300', { productId: product, quantity: '3' }), line(2, '500', { productId: other })] });
    await ok('POST', `/transactions/${sale.transactionHeadId}/dispose`, {});
    expect([await amount(), await amount(other)]).toEqual(['0', '0']);
    expect(await divisions()).toEqual([
      ['02', '-3', '-3'],
      ['12', '3', '0'],
    ]);
    const second = await f.sale({ details: [line(1, '300', { productId: product, quantity: '2' })] });
    await f.sale({
      disposeDivision: '2',
      disposeServerTransactionHeadId: second.transactionHeadId,
      details: [line(1, '300', { productId: product, quantity: '2', transactionDetailDivision: '2' })],
    });
    expect(await amount()).toBe('0');
    expect((await divisions()).slice(-1)).toEqual([['12', '2', '0']]);
  });
});

describe('access', () => {
  it('scopes pos.stock (read, write) and pos.stock-changes:read; Retail Business only', async () => {
    const read = await f.t.tokenFor({ scopes: ['pos.stock:read'] });
    expect((await f.t.api('GET', '/stock', undefined, read)).statusCode).toBe(200);
    expect(problem(await f.t.api('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '1' }, read), 403).detail).toMatch(/pos\.stock:write/);
    expect(problem(await f.t.api('GET', `/stock/changes/${product}/${f.store}`, undefined, read), 403).detail).toMatch(/pos\.stock-changes:read/);
    const changesOnly = await f.t.tokenFor({ scopes: ['pos.stock-changes:read'] });
    expect((await f.t.api('GET', `/stock/changes/${product}/${f.store}`, undefined, changesOnly)).statusCode).toBe(200);

    f.t.addContract('food', 'food_business');
    const food = await f.t.tokenFor({ contractId: 'food' });
    const res = await f.t.app.inject({ method: 'GET', url: '/food/pos/stock', headers: { authorization: `Bearer ${food}` } });
    expect(problem(res, 403).detail).toBe("the contract's plan food_business cannot use GET /stock (plans: retail_business)");
  });
});
