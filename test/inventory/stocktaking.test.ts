import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWebhookPass } from '../../sync/webhooks/deliver.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { CONTRACT } from '../sync/helpers.js';
import { headOfficeWithProduct } from './head-office.js';
import { makeCategory, makeProduct, makeStore, ok, outboxOf, stockOf } from './shipments-fixtures.js';

/** Issue 26: stocktaking (棚卸) in the platform's names, and the writes a back office needs. */

const NOW = '2026-11-22T10:00:00+09:00'; // T0 in the contract's zone

let t: TestApp;
let store: string;
let food: string; // a parent category
let fruit: string; // its child
let tools: string;
let apple: string; // in fruit, cost 120
let bread: string; // in food
let hammer: string; // in tools
let ticket: string; // a ticket (productDivision 1): holds no stock
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
  store = await makeStore(t, 'Main');
  food = await makeCategory(t, { categoryName: 'Food' });
  fruit = await makeCategory(t, { categoryName: 'Fruit', parentCategoryId: food });
  tools = await makeCategory(t, { categoryName: 'Tools' });
  apple = await makeProduct(t, fruit);
  bread = await makeProduct(t, food, { cost: '80' });
  hammer = await makeProduct(t, tools, { cost: '1500' });
  ticket = await makeProduct(t, tools, { productDivision: '1' });
});
afterEach(() => t.close());

const create = (body: Record<string, unknown> = {}) => ok(t, 'POST', '/stocktaking', { storeId: store, targetDivision: '0', ...body });
const detail = async (method: string, path: string, body: unknown, status = 400) => problem(await t.api(method, path, body), status).detail;
const enter = (id: string, products: Record<string, unknown>[]) => ok(t, 'PATCH', `/stocktaking/${id}/products`, { products });
const setStock = (productId: string, amount: string) => ok(t, 'PATCH', `/stock/${productId}`, { storeId: store, stockAmount: amount });
const events = () =>
  (t.deps.db.prepare("SELECT body FROM webhook_events WHERE event = 'pos:stocktaking' ORDER BY event_id").pluck().all() as string[]).map((b) => JSON.parse(b));

describe('POST /stocktaking', () => {
  it('registers a stocktaking of every product, counting, dated today, and raises pos:stocktaking created', async () => {
    const s = await create();
    expect(s).toEqual({
      stocktakingInfoId: '1001',
      storeId: store,
      storeName: 'Main',
      targetDivision: '0',
      stocktakingDate: '2026-11-22',
      memo: null,
      status: '0',
      adjustmentDateTime: null,
      stocktakingCompleteDateTime: null,
      insDateTime: NOW,
      updDateTime: NOW,
    });
    expect(events()).toEqual([{ contractId: t.contractId, event: 'pos:stocktaking', action: 'created', stocktakingInfoIds: ['1001'] }]);
    expect(outboxOf(t, 'stocktaking')).toEqual([['1001', 'insert']]);
  });

  it('refuses a target that does not agree with targetDivision, and targets that do not exist', async () => {
    const post = (body: Record<string, unknown>) => detail('POST', '/stocktaking', { storeId: store, targetDivision: '0', ...body });
    expect(await post({ targetDivision: '1' })).toBe('[categoryIds] is required for targetDivision 1');
    expect(await post({ targetDivision: '2', productIds: [] })).toBe('[productIds] is required for targetDivision 2');
    expect(await post({ categoryIds: [food] })).toBe('[categoryIds] must not be given for targetDivision 0');
    expect(await post({ targetDivision: '1', categoryIds: [food], productIds: [apple] })).toBe('[productIds] must not be given for targetDivision 1');
    expect(await post({ targetDivision: '1', categoryIds: [food, food] })).toBe(`[categoryIds[1]] ${food} is given twice`);
    expect(await post({ targetDivision: '1', categoryIds: [food, '999'] })).toBe('[categoryIds[1]] category 999 does not exist');
    expect(await post({ targetDivision: '2', productIds: ['999'] })).toBe('[productIds[0]] product 999 does not exist');
    expect(await post({ targetDivision: '2', productIds: [ticket] })).toBe(`[productIds[0]] product ${ticket} is of productDivision 1, which holds no stock`);
    expect(await post({ storeId: '999' })).toBe('[storeId] store 999 does not exist');
    expect(await post({ targetDivision: '3' })).toBe('[targetDivision] must be one of 0, 1, 2');
    expect(await post({ stocktakingDate: '2026-02-30' })).toBe('[stocktakingDate] must be a calendar date YYYY-MM-DD from 1900');
    expect(await post({ storeId: undefined })).toMatch(/^\[storeId\] /);
    expect(await post({ extra: '1' })).toMatch(/extra/);
    expect(events()).toEqual([]);
  });
});

describe('GET /stocktaking and its target products and categories', () => {
  it('lists with the platform query names: store_id, status, sort, limit', async () => {
    const other = await makeStore(t, 'Second');
    await create({ stocktakingDate: '2026-11-01' });
    await create({ stocktakingDate: '2026-11-20', memo: 'shelves A-C' });
    await create({ storeId: other });
    const ids = (rows: { stocktakingInfoId: string }[]) => rows.map((r) => r.stocktakingInfoId);
    expect(ids(await ok(t, 'GET', `/stocktaking?store_id=${store}&limit=10&sort=stocktakingDate:desc`))).toEqual(['2001', '1001']);
    expect(ids(await ok(t, 'GET', '/stocktaking?status=2'))).toEqual([]);
    const res = await t.api('GET', '/stocktaking?limit=1');
    expect(ids(res.json())).toEqual(['1001']);
    expect(res.headers.link).toMatch(/rel="next"/);
    expect(await detail('GET', '/stocktaking?status=1', undefined)).toBe('[status] must be one of 0, 2');
    expect(await detail('GET', '/stocktaking?sort=targetDate', undefined)).toMatch(/^\[sort\] /);
    expect(problem(await t.api('GET', '/stocktaking/999'), 404).detail).toBe('[stocktaking_info_id] stocktaking 999 does not exist');
  });

  it('every product: the goods with null counts, categoryId "0"', async () => {
    const s = await create();
    const products = await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products`);
    expect(products.map((p: { productId: string }) => p.productId)).toEqual([apple, bread, hammer]); // not the ticket
    expect(products[0]).toEqual({
      productId: apple,
      categoryId: fruit,
      stocktakingQuantity: null,
      inputStocktakingQuantity: null,
      rfidTags: [],
      transportationStockQuantity: null,
      layawayStockQuantity: null,
      stockQuantityBeforeAdjustment: null,
      cost: null,
      memo: null,
      quantityModifiedDatetime: null,
      insDateTime: NOW,
      updDateTime: NOW,
    });
    expect(await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/categories`)).toEqual([{ stocktakingInfoId: s.stocktakingInfoId, categoryId: '0' }]);
    // The platform's own example: fields=productId,stocktakingQuantity.
    expect(await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products?fields=productId,stocktakingQuantity&limit=1`)).toEqual([{ productId: apple, stocktakingQuantity: null }]);
    expect(await ok(t, 'GET', `/stocktaking?fields=stocktakingInfoId,status`)).toEqual([{ stocktakingInfoId: s.stocktakingInfoId, status: '0' }]);
    expect(await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/categories?fields=categoryId`)).toEqual([{ categoryId: '0' }]);
    expect(await detail('GET', `/stocktaking/${s.stocktakingInfoId}/products?fields=storeId`, undefined)).toBe('[fields] storeId is not a stocktaking product field');
    const filtered = await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products?category_id=${food}&sort=productId:desc&limit=10&page=1`);
    expect(filtered.map((p: { productId: string }) => p.productId)).toEqual([bread]);
  });

  it('by category: the products of the target categories and their child categories', async () => {
    const s = await create({ targetDivision: '1', categoryIds: [food] });
    const products = await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products`);
    expect(products.map((p: { productId: string }) => p.productId)).toEqual([apple, bread]);
    expect(await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/categories?sort=categoryId`)).toEqual([{ stocktakingInfoId: s.stocktakingInfoId, categoryId: food }]);
  });

  it('by product: exactly the chosen products, and their categories', async () => {
    const s = await create({ targetDivision: '2', productIds: [hammer, bread] });
    const products = await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products?product_id=${hammer}`);
    expect(products.map((p: { productId: string }) => p.productId)).toEqual([hammer]);
    expect((await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/categories`)).map((c: { categoryId: string }) => c.categoryId)).toEqual([food, tools]);
    expect(problem(await t.api('GET', '/stocktaking/999/products'), 404).detail).toBe('[stocktaking_info_id] stocktaking 999 does not exist');
  });
});

describe('PATCH /stocktaking/{id}/products (entering counts)', () => {
  it('enters counts, a new entry replacing the earlier one, null clearing it; raises edited', async () => {
    const s = await create();
    t.clock.advance(60_000);
    const first = await enter(s.stocktakingInfoId, [{ productId: apple, inputStocktakingQuantity: '7', memo: 'back shelf' }]);
    expect(first).toEqual([expect.objectContaining({ productId: apple, inputStocktakingQuantity: '7', memo: 'back shelf', quantityModifiedDatetime: '2026-11-22T10:01:00+09:00' })]);
    t.clock.advance(60_000);
    const again = await enter(s.stocktakingInfoId, [
      { productId: apple, inputStocktakingQuantity: '9' },
      { productId: bread, inputStocktakingQuantity: '0' },
    ]);
    expect(again.map((p: Record<string, unknown>) => [p.productId, p.inputStocktakingQuantity, p.memo])).toEqual([
      [apple, '9', 'back shelf'],
      [bread, '0', null],
    ]);
    await enter(s.stocktakingInfoId, [{ productId: bread, inputStocktakingQuantity: null }]);
    const listed = await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}/products`);
    expect(listed.map((p: Record<string, unknown>) => p.inputStocktakingQuantity)).toEqual(['9', null, null]);
    expect((await ok(t, 'GET', `/stocktaking/${s.stocktakingInfoId}`)).updDateTime).toBe('2026-11-22T10:02:00+09:00');
    expect(events().map((e) => e.action)).toEqual(['created', 'edited', 'edited', 'edited']);
  });

  it('refuses products that are not targets, the same product twice and bad quantities', async () => {
    const s = await create({ targetDivision: '1', categoryIds: [fruit] });
    const path = `/stocktaking/${s.stocktakingInfoId}/products`;
    expect(await detail('PATCH', path, { products: [{ productId: hammer, inputStocktakingQuantity: '1' }] })).toBe(
      `[products[0].productId] product ${hammer} is not a target of stocktaking ${s.stocktakingInfoId}`,
    );
    expect(await detail('PATCH', path, { products: [{ productId: ticket, inputStocktakingQuantity: '1' }] })).toMatch(/is not a target/);
    expect(
      await detail('PATCH', path, {
        products: [
          { productId: apple, inputStocktakingQuantity: '1' },
          { productId: apple, inputStocktakingQuantity: '2' },
        ],
      }),
    ).toBe(`[products[1].productId] product ${apple} is given twice`);
    expect(await detail('PATCH', path, { products: [{ productId: apple, inputStocktakingQuantity: '-1' }] })).toBe(
      '[products[0].inputStocktakingQuantity] must be a whole number from 0 to 999999999',
    );
    expect(await detail('PATCH', path, { products: [] })).toBe('[products] must have at least one entry');
    expect(problem(await t.api('PATCH', '/stocktaking/999/products', { products: [{ productId: apple, inputStocktakingQuantity: '1' }] }), 404).detail).toBe(
      '[stocktaking_info_id] stocktaking 999 does not exist',
    );
    expect(events().map((e) => e.action)).toEqual(['created']);
  });
});

describe('POST /stocktaking/{id}/complete', () => {
  it('makes each counted product’s stock its count: 08 movements, the products answer the quantities before', async () => {
    await setStock(apple, '10');
    await setStock(hammer, '3');
    const s = await create();
    const id = s.stocktakingInfoId;
    await enter(id, [
      { productId: apple, inputStocktakingQuantity: '8' },
      { productId: bread, inputStocktakingQuantity: '4' },
      { productId: hammer, inputStocktakingQuantity: '3' },
    ]);
    t.clock.advance(1_800_000); // (within the token's hour)
    const done = await ok(t, 'POST', `/stocktaking/${id}/complete`);
    expect(done).toMatchObject({ status: '2', adjustmentDateTime: '2026-11-22T10:30:00+09:00', stocktakingCompleteDateTime: '2026-11-22T10:30:00+09:00' });

    const changes = await ok(t, 'GET', `/stock/changes/${apple}/${store}?stock_division=08`);
    expect(changes).toEqual([
      expect.objectContaining({ productId: apple, storeId: store, amount: '-2', stockAmount: '8', stockDivision: '08', memo: `stocktaking ${id}`, targetDateTime: '2026-11-22T10:30:00+09:00' }),
    ]);
    expect(await ok(t, 'GET', `/stock/changes/${bread}/${store}?stock_division=08`)).toEqual([expect.objectContaining({ amount: '4', stockAmount: '4' })]);
    // A count equal to the stock moves nothing.
    expect(await ok(t, 'GET', `/stock/changes/${hammer}/${store}?stock_division=08`)).toEqual([]);
    const stock = await ok(t, 'GET', `/stock?store_id=${store}&sort=productId`);
    expect(stock.map((r: Record<string, string>) => [r.productId, r.stockAmount])).toEqual([
      [apple, '8'],
      [bread, '4'],
      [hammer, '3'],
    ]);

    const products = await ok(t, 'GET', `/stocktaking/${id}/products?sort=productId`);
    expect(products.map((p: Record<string, unknown>) => [p.productId, p.stocktakingQuantity, p.stockQuantityBeforeAdjustment, p.layawayStockQuantity, p.transportationStockQuantity, p.cost])).toEqual([
      [apple, '8', '10', '0', '0', '120.00000'],
      [bread, '4', '0', '0', '0', '80.00000'],
      [hammer, '3', '3', '0', '0', '1500.00000'],
    ]);
    expect(events().map((e) => e.action)).toEqual(['created', 'edited', 'edited']);
    expect(outboxOf(t, 'stocktaking')).toEqual([[id, 'insert'], [id, 'update'], [id, 'update']]);
    expect(outboxOf(t, 'stock_movement')).toHaveLength(2 + 2); // the two PATCH /stock, then apple and bread
  });

  it('a complete stocktaking refuses counts, edits, deletion and a second completion (409 naming status)', async () => {
    const s = await create();
    const id = s.stocktakingInfoId;
    await enter(id, [{ productId: apple, inputStocktakingQuantity: '1' }]);
    await ok(t, 'POST', `/stocktaking/${id}/complete`);
    const refused = (doing: string) => `[status] stocktaking ${id} is complete (status 2) and cannot ${doing}`;
    expect(await detail('PATCH', `/stocktaking/${id}/products`, { products: [{ productId: apple, inputStocktakingQuantity: '2' }] }, 409)).toBe(refused('take counts'));
    expect(await detail('PATCH', `/stocktaking/${id}`, { memo: 'late' }, 409)).toBe(refused('be edited'));
    expect(await detail('DELETE', `/stocktaking/${id}`, undefined, 409)).toBe(refused('be deleted'));
    expect(await detail('POST', `/stocktaking/${id}/complete`, undefined, 409)).toBe(refused('be completed again'));
    expect(stockOf(t, store, apple)).toBe('1');
    // A product registered after completion is not one of its targets.
    t.clock.advance(1000);
    await makeProduct(t, fruit);
    expect((await ok(t, 'GET', `/stocktaking/${id}/products`)).map((p: { productId: string }) => p.productId)).toEqual([apple, bread, hammer]);
  });

  it('refuses to complete with nothing counted', async () => {
    const s = await create();
    expect(await detail('POST', `/stocktaking/${s.stocktakingInfoId}/complete`, undefined)).toBe(`[products] stocktaking ${s.stocktakingInfoId} has no counted product to complete with`);
    expect(problem(await t.api('POST', '/stocktaking/999/complete'), 404).detail).toBe('[stocktaking_info_id] stocktaking 999 does not exist');
  });
});

describe('PATCH and DELETE /stocktaking/{id}', () => {
  it('changes the date and memo while counting, and deletes with its lines (204), raising edited and deleted', async () => {
    const s = await create({ memo: 'first' });
    const id = s.stocktakingInfoId;
    expect(await ok(t, 'PATCH', `/stocktaking/${id}`, { stocktakingDate: '2026-11-30', memo: '' })).toMatchObject({ stocktakingDate: '2026-11-30', memo: null });
    expect(await detail('PATCH', `/stocktaking/${id}`, {})).toBe('[body] no field to update was given');
    await enter(id, [{ productId: apple, inputStocktakingQuantity: '1' }]);
    const res = await t.api('DELETE', `/stocktaking/${id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(problem(await t.api('GET', `/stocktaking/${id}`), 404).detail).toBe(`[stocktaking_info_id] stocktaking ${id} does not exist`);
    expect(t.deps.db.prepare('SELECT count(*) FROM stocktaking_products').pluck().get()).toBe(0);
    expect(events().map((e) => e.action)).toEqual(['created', 'edited', 'edited', 'deleted']);
    expect(outboxOf(t, 'stocktaking').at(-1)).toEqual([id, 'delete']);
  });
});

describe('GET /stocktaking/{id}/details/{base_date}', () => {
  it('answers each target product’s stock at the end of the base date, valued at its cost', async () => {
    await setStock(apple, '10'); // 2026-11-22
    const s = await create({ targetDivision: '1', categoryIds: [fruit] });
    t.clock.advance(86_400_000); // the 23rd, on a new token
    const token = await t.tokenFor();
    expect((await t.api('PATCH', `/stock/${apple}`, { storeId: store, stockAmount: '12' }, token)).statusCode).toBe(200);
    const get = async (path: string) => (await t.api('GET', path, undefined, token)).json();
    const onThe22nd = await get(`/stocktaking/${s.stocktakingInfoId}/details/2026-11-22?limit=100`);
    expect(onThe22nd).toEqual([
      {
        stocktakingInfoId: s.stocktakingInfoId,
        productId: apple,
        categoryId: fruit,
        stockQuantity: '10',
        stockMoney: '1200',
        transportationQuantity: '0',
        transportationMoney: '0',
        layawayQuantity: '0',
        layawayMoney: '0',
        storeId: store,
      },
    ]);
    expect((await get(`/stocktaking/${s.stocktakingInfoId}/details/2026-11-23`))[0].stockQuantity).toBe('12');
    expect(await get(`/stocktaking/${s.stocktakingInfoId}/details/2026-11-23?fields=productId,stockQuantity`)).toEqual([{ productId: apple, stockQuantity: '12' }]);
    expect((await get(`/stocktaking/${s.stocktakingInfoId}/details/2026-11-21`))[0].stockQuantity).toBe('0');
    expect(problem(await t.api('GET', `/stocktaking/${s.stocktakingInfoId}/details/2026-13-01`, undefined, token), 400).detail).toBe('[base_date] must be a calendar date YYYY-MM-DD from 1900');
  });
});

describe('webhook', () => {
  it('a subscription to pos:stocktaking receives the platform body (stocktakingInfoIds) with Service-Event', async () => {
    const received: { headers: Record<string, unknown>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook-stocktaking`;
      await ok(t, 'POST', '/webhook_subscriptions', { url, events: ['pos:stocktaking'] });
      const s = await create();
      await ok(t, 'PATCH', `/stocktaking/${s.stocktakingInfoId}`, { memo: 'aisle 3' });
      expect((await runWebhookPass(t.deps, { schedule: [1000], timeoutMs: 2000, random: () => 0.5 })).map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
      expect(received.map((r) => [r.headers['service-event'], JSON.parse(r.body)])).toEqual([
        ['pos:stocktaking', { contractId: t.contractId, event: 'pos:stocktaking', action: 'created', stocktakingInfoIds: [s.stocktakingInfoId] }],
        ['pos:stocktaking', { contractId: t.contractId, event: 'pos:stocktaking', action: 'edited', stocktakingInfoIds: [s.stocktakingInfoId] }],
      ]);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('access', () => {
  it('is Retail Business only (403) and needs the pos.stocktaking scopes', async () => {
    t.addContract('food', 'food_business');
    const food = await t.tokenFor({ contractId: 'food' });
    const res = await t.app.inject({ method: 'GET', url: '/food/pos/stocktaking', headers: { authorization: `Bearer ${food}` } });
    expect(problem(res, 403).detail).toMatch(/plan food_business cannot use GET \/stocktaking/);
    const stockOnly = await t.tokenFor({ scopes: ['pos.stock:read'] });
    expect(problem(await t.api('GET', '/stocktaking', undefined, stockOnly), 403).detail).toMatch(/pos\.stocktaking:read/);
    const readOnly = await t.tokenFor({ scopes: ['pos.stocktaking:read'] });
    expect(problem(await t.api('POST', '/stocktaking', { storeId: store, targetDivision: '0' }, readOnly), 403).detail).toMatch(/pos\.stocktaking:write/);
  });
});

describe('head office', () => {
  it("a store's stocktaking reaches central with its lines as it changes, its 08 movements too, and a deletion", async () => {
    const { central, store: shop, agent, close, storeId, categoryId, productId } = await headOfficeWithProduct();
    try {
      await agent.drain(CONTRACT);

      const s = await shop.ok('POST', '/stocktaking', { storeId, targetDivision: '1', categoryIds: [categoryId] });
      expect(s.stocktakingInfoId).toMatch(/007$/); // minted by node 7
      await shop.ok('PATCH', `/stocktaking/${s.stocktakingInfoId}/products`, { products: [{ productId, inputStocktakingQuantity: '6' }] });
      const done = await shop.ok('POST', `/stocktaking/${s.stocktakingInfoId}/complete`);
      await agent.drain(CONTRACT);
      expect(await central.ok('GET', `/stocktaking/${s.stocktakingInfoId}`)).toEqual(done);
      expect(await central.ok('GET', `/stocktaking/${s.stocktakingInfoId}/products`)).toEqual(await shop.ok('GET', `/stocktaking/${s.stocktakingInfoId}/products`));
      expect(await central.ok('GET', `/stocktaking/${s.stocktakingInfoId}/categories`)).toEqual([{ stocktakingInfoId: s.stocktakingInfoId, categoryId }]);
      expect(await central.ok('GET', `/stock?store_id=${storeId}&product_id=${productId}`)).toEqual([expect.objectContaining({ stockAmount: '6' })]);

      const other = await shop.ok('POST', '/stocktaking', { storeId, targetDivision: '0' });
      await agent.drain(CONTRACT);
      expect((await central.ok('GET', `/stocktaking/${other.stocktakingInfoId}`)).status).toBe('0');
      expect((await shop.api('DELETE', `/stocktaking/${other.stocktakingInfoId}`)).statusCode).toBe(204);
      await agent.drain(CONTRACT);
      expect((await central.api('GET', `/stocktaking/${other.stocktakingInfoId}`)).statusCode).toBe(404);
    } finally {
      await close();
    }
  }, 30_000);
});
