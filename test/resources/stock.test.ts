import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { StockMovements } from '../../server/resources/stock/movements.js';
import { DeliveryRepo } from '../../sync/webhooks/deliveries.js';
import { problem } from '../helpers/app.js';
import { line, makeFixture, type Fixture } from './transactions-fixtures.js';

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

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await f.api(method, path, body);
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const amount = async (productId = product, storeId = f.store) =>
  ((await ok('GET', `/stock?product_id=${productId}&store_id=${storeId}`)) as { stockAmount: string }[])[0]?.stockAmount;
const changes = async (productId = product, storeId = f.store, query = '') =>
  (await ok('GET', `/stock/changes/${productId}/${storeId}${query}`)) as Record<string, string | null>[];
const causes = async (productId = product) => (await changes(productId)).map((c) => [c.cause, c.changeAmount, c.stockAmount]);
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
    const first = f.t.deps.writer.write(() => stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '5', cause: 'receiving', ref: { shippingId: '7001' } }));
    expect(first.stock).toMatchObject({ stock_amount: '5', layaway_stock_amount: '0' });
    expect(first.movement).toMatchObject({ cause: 'receiving', delta: '5', amount_after: '5', shipping_id: 7001, transaction_head_id: null });
    const second = stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '-1.5', cause: 'shipment', ref: { shipmentId: 9 } });
    expect(second.stock.stock_amount).toBe('3.5');
    expect(stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '0', cause: 'shipment' }).movement).toBeNull();
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
        stock.move(f.t.contractId, { storeId: f.store, productId: product, delta: '5', cause: 'receiving' });
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
    expect(await causes()).toEqual([
      ['manual_set', '12', '12'],
      ['manual_set', '-15', '-3'],
      ['manual_set', '0', '-3'],
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
    expect(await causes()).toEqual([
      ['manual_add', '10', '10'],
      ['manual_add', '-25', '-15'],
      ['manual_set', '1000000014', '999999999'],
      ['manual_add', '-1999999998', '-999999999'],
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
  it('every movement with its cause and references, oldest first; sort and paging; 404s', async () => {
    await ok('PATCH', `/stock/${product}`, { storeId: f.store, stockAmount: '10', stockHistory: { memo: 'opening' } });
    await f.advance(60_000);
    const sale = await f.sale({ details: [line(1, '300', { productId: product, quantity: '2' })] });
    const list = await changes();
    expect(list).toEqual([
      {
        id: expect.any(String),
        productId: product,
        storeId: f.store,
        cause: 'manual_set',
        changeAmount: '10',
        stockAmount: '10',
        memo: 'opening',
        transactionHeadId: null,
        shippingId: null,
        shipmentId: null,
        storageInfoId: null,
        staffId: null,
        updDateTime: AT_10_00,
      },
      expect.objectContaining({ cause: 'sale', changeAmount: '-2', stockAmount: '8', transactionHeadId: sale.transactionHeadId, updDateTime: AT_10_01 }),
    ]);
    expect((await changes(product, f.store, '?sort=updDateTime:desc')).map((c) => c.cause)).toEqual(['sale', 'manual_set']);
    expect((await changes(product, f.store, '?limit=1&page=2')).map((c) => c.cause)).toEqual(['sale']);
    expect(await changes(other)).toEqual([]);
    expect(problem(await f.api('GET', `/stock/changes/999/${f.store}`), 404).detail).toBe('[product_id] product 999 does not exist');
    expect(problem(await f.api('GET', `/stock/changes/${product}/999`), 404).detail).toBe('[store_id] store 999 does not exist');
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
    expect((await changes()).at(-1)).toMatchObject({ cause: 'bulk_add', changeAmount: '3', memo: 'bulk' });

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
    const sale = await f.sale({
      details: [
        line(1, '300', { productId: product, quantity: '2' }),
        line(2, '300', { productId: product, quantity: '1.5' }),
        line(3, '500', { productId: other }),
        line(4, '100'), // no product
      ],
    });
    expect([await amount(), await amount(other)]).toEqual(['-3.5', '-1']);
    expect(await changes()).toEqual([expect.objectContaining({ cause: 'sale', changeAmount: '-3.5', transactionHeadId: sale.transactionHeadId })]);
  });

  it('return lines bring goods back; bundle parents, tickets and options do not move; children do', async () => {
    await f.sale({ details: [line(1, '300', { productId: product, transactionDetailDivision: '2', quantity: '2' })] });
    expect(await causes()).toEqual([['return', '2', '2']]);
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
    expect(await causes()).toEqual([['sale', '-1', '-1']]);
  });

  it('a return-cancel (dispose or disposeDivision 2) puts back what the sale took', async () => {
    const sale = await f.sale({ details: [line(1, '300', { productId: product, quantity: '3' }), line(2, '500', { productId: other })] });
    const cancel = await ok('POST', `/transactions/${sale.transactionHeadId}/dispose`, {});
    expect([await amount(), await amount(other)]).toEqual(['0', '0']);
    expect((await changes()).map((c) => [c.cause, c.changeAmount, c.transactionHeadId])).toEqual([
      ['sale', '-3', sale.transactionHeadId],
      ['return', '3', cancel.transactionHeadId],
    ]);
    const second = await f.sale({ details: [line(1, '300', { productId: product, quantity: '2' })] });
    await f.sale({
      disposeDivision: '2',
      disposeServerTransactionHeadId: second.transactionHeadId,
      details: [line(1, '300', { productId: product, quantity: '2', transactionDetailDivision: '2' })],
    });
    expect(await amount()).toBe('0');
    expect((await causes()).slice(-1)).toEqual([['return', '2', '0']]);
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
