import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { StoreRepo } from '../../server/masters/stores/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/** GET /products/{product_id}/stores (商品取扱店舗) and the `stores` of product bodies that set it. */
describe('products/{product_id}/stores', () => {
  let t: TestApp;
  let shop: string;
  let depot: string;
  let other: string;
  let productId: string;
  beforeEach(async () => {
    t = await makeTestApp();
    shop = (await t.api('POST', '/stores', { storeName: 'Shop' })).json().storeId; // 1001
    depot = (await t.api('POST', '/stores', { storeName: 'Depot', division: '2' })).json().storeId; // 2001
    other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId; // 3001
    const cat = (await t.api('POST', '/categories', { categoryName: 'Tops' })).json().categoryId;
    productId = (await t.api('POST', '/products', { categoryId: cat, productCode: 'T-1', productName: 'Tee', price: '1000' })).json().productId;
  });
  afterEach(() => t.close());

  const storesOf = async (query = '') => {
    const res = await t.api('GET', `/products/${productId}/stores${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('answers one entry per store; a store never set sells the product (assignDivision 0)', async () => {
    expect(await storesOf()).toEqual([
      { productId, storeId: shop, assignDivision: '0' },
      { productId, storeId: depot, assignDivision: '0' },
      { productId, storeId: other, assignDivision: '0' },
    ]);
  });

  it('PATCH /products sets the listed stores and keeps the others; filters, sort and paging', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    t.clock.advance(60_000);
    const res = await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: depot, assignDivision: '1' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().updDateTime).toBe('2026-11-22T10:01:00+09:00');
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'product', id: productId, op: 'update' }]);
    await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: other, assignDivision: '1' }] });
    await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: other, assignDivision: '0' }] });

    expect(await storesOf()).toEqual([
      { productId, storeId: shop, assignDivision: '0' },
      { productId, storeId: depot, assignDivision: '1' },
      { productId, storeId: other, assignDivision: '0' },
    ]);
    expect(await storesOf('?assign_division=1')).toEqual([{ productId, storeId: depot, assignDivision: '1' }]);
    expect(await storesOf(`?store_id=${shop}`)).toEqual([{ productId, storeId: shop, assignDivision: '0' }]);
    expect((await storesOf('?sort=storeId:desc')).map((s: { storeId: string }) => s.storeId)).toEqual([other, depot, shop]);
    const page = await t.api('GET', `/products/${productId}/stores?limit=2`);
    expect(page.json().map((s: { storeId: string }) => s.storeId)).toEqual([shop, depot]);
    expect(page.headers.link).toBe(`<http://localhost/${t.contractId}/pos/products/${productId}/stores?limit=2&page=2>; rel="next"`);
  });

  it('POST /products takes stores too', async () => {
    const cat = (await t.api('POST', '/categories', { categoryName: 'Bottoms' })).json().categoryId;
    const created = await t.api('POST', '/products', {
      categoryId: cat,
      productCode: 'P-1',
      productName: 'Pants',
      price: '3000',
      stores: [{ storeId: shop, assignDivision: '1' }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await t.api('GET', `/products/${created.json().productId}/stores`);
    expect(res.json().map((s: { assignDivision: string }) => s.assignDivision)).toEqual(['1', '0', '0']);
  });

  it('404 for an unknown product; 400 for an unknown store, a store given twice or a bad division, writing nothing', async () => {
    expect(problem(await t.api('GET', '/products/999999/stores'), 404).detail).toBe('[product_id] product 999999 does not exist');
    expect(problem(await t.api('GET', `/products/${productId}/stores?assign_division=2`), 400).detail).toBe('[assign_division] must be one of 0, 1');
    expect(problem(await t.api('GET', `/products/${productId}/stores?sort=assignDivision`), 400).detail).toContain('[sort]');
    expect(problem(await t.api('PATCH', '/products/999999', { stores: [{ storeId: shop, assignDivision: '1' }] }), 404).detail).toBe(
      '[product_id] product 999999 does not exist',
    );
    const unknown = await t.api('PATCH', `/products/${productId}`, {
      stores: [
        { storeId: shop, assignDivision: '1' },
        { storeId: '424242', assignDivision: '1' },
      ],
    });
    expect(problem(unknown, 400).detail).toBe('[stores[1].storeId] store 424242 does not exist');
    const twice = await t.api('PATCH', `/products/${productId}`, {
      stores: [
        { storeId: shop, assignDivision: '1' },
        { storeId: shop, assignDivision: '0' },
      ],
    });
    expect(problem(twice, 400).detail).toBe(`[stores[1].storeId] store ${shop} is given twice`);
    const bad = await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: shop, assignDivision: '2', productOptionGroupId: '1' }] });
    expect(problem(bad, 400).detail).toContain('must be one of 0, 1');
    expect((await storesOf()).every((s: { assignDivision: string }) => s.assignDivision === '0')).toBe(true);
  });

  it('an order-receiving store is not among them, nor can it be set', async () => {
    const orders = String(
      new StoreRepo(t.deps.db, t.deps.writer, t.deps.ids, t.deps.clock).create(t.contractId, { storeName: 'Web orders' }, { orderReceiving: true }).store_id,
    );
    expect((await storesOf()).map((s: { storeId: string }) => s.storeId)).toEqual([shop, depot, other]);
    const res = await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: orders, assignDivision: '1' }] });
    expect(problem(res, 400).detail).toBe(`[stores[0].storeId] store ${orders} does not exist`);
  });

  it('the handling goes with the product when it is deleted', async () => {
    await t.api('PATCH', `/products/${productId}`, { stores: [{ storeId: shop, assignDivision: '1' }] });
    expect((await t.api('DELETE', `/products/${productId}`)).statusCode).toBe(204);
    expect(t.deps.db.prepare('SELECT count(*) AS n FROM product_stores').get()).toEqual({ n: 0 });
  });

  it('needs pos.products:read', async () => {
    const token = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect((await t.api('GET', `/products/${productId}/stores`, undefined, token)).statusCode).toBe(403);
  });
});
