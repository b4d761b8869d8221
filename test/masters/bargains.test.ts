import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });

describe('bargains (セール) with their stores and targets', () => {
  let t: TestApp;
  let store: string;
  let category: string;
  let product: string;
  beforeEach(async () => {
    t = await makeTestApp();
    store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
    category = (await t.api('POST', '/categories', { categoryName: 'Tops' })).json().categoryId;
    product = (await t.api('POST', '/products', { categoryId: category, productCode: 'TEE', productName: 'Tee', price: '1000' })).json().productId;
  });
  afterEach(() => t.close());

  const winterSale = async () => {
    const res = await t.api('POST', '/bargains', { bargainName: 'Winter sale', termStart: '2026-12-01', termEnd: '2026-12-31' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { bargainId: string } & Record<string, string>;
  };

  describe('/bargains', () => {
    it('POST registers a sale period as the platform answers it, and reports it', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const sale = await winterSale();
      expect(sale).toEqual({ bargainId: sale.bargainId, bargainName: 'Winter sale', termStart: '2026-12-01', termEnd: '2026-12-31', insDateTime: AT_T0, updDateTime: AT_T0 });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'bargain', id: sale.bargainId, op: 'insert' }]);
      expect((await t.api('GET', `/bargains/${sale.bargainId}`)).json()).toEqual(sale);
      expect((await t.api('POST', '/bargains', { bargainName: 'One day', termStart: '2026-12-24', termEnd: '2026-12-24' })).statusCode).toBe(200);
    });

    it('names every bad field and refuses a term that ends before it starts', async () => {
      expect(problem(await t.api('POST', '/bargains', {}), 400)).toEqual(bad('[bargainName] is required; [termStart] is required; [termEnd] is required'));
      expect(problem(await t.api('POST', '/bargains', { bargainName: ' ', termStart: '2026-02-30', termEnd: '2026/12/31', bargainId: '1' }), 400)).toEqual(
        bad(
          '[bargainName] must not be empty; [termStart] must be a calendar date YYYY-MM-DD from 1900; [termEnd] must be a calendar date YYYY-MM-DD from 1900; ' +
            '[bargainId] is not a known field',
        ),
      );
      expect(problem(await t.api('POST', '/bargains', { bargainName: 'S', termStart: '2026-12-31', termEnd: '2026-12-01' }), 400)).toEqual(
        bad('[termEnd] 2026-12-01 is before termStart 2026-12-31'),
      );
      const sale = await winterSale();
      expect(problem(await t.api('PATCH', `/bargains/${sale.bargainId}`, { termStart: '2027-01-01' }), 400).detail).toBe('[termStart] 2027-01-01 is after termEnd 2026-12-31');
    });

    it('GET lists with sort, fields and paging; PATCH changes the keys sent; DELETE takes stores and targets with it', async () => {
      const sale = await winterSale();
      t.clock.advance(60_000);
      const spring = (await t.api('POST', '/bargains', { bargainName: 'Spring', termStart: '2026-03-01', termEnd: '2026-03-31' })).json();
      const ids = async (query: string) => ((await t.api('GET', `/bargains?${query}`)).json() as { bargainId: string }[]).map((b) => b.bargainId);
      expect(await ids('')).toEqual([sale.bargainId, spring.bargainId]);
      expect(await ids('sort=termStart')).toEqual([spring.bargainId, sale.bargainId]);
      expect(await ids('upd_date_time-from=2026-11-22T10:00:30%2B09:00')).toEqual([spring.bargainId]);
      expect((await t.api('GET', '/bargains?fields=bargainName&limit=1')).json()).toEqual([{ bargainName: 'Winter sale' }]);
      expect(problem(await t.api('GET', '/bargains?sort=bargainName'), 400).detail).toMatch(/^\[sort\]/);

      const patched = await t.api('PATCH', `/bargains/${sale.bargainId}`, { bargainName: 'Year-end sale', termEnd: '2027-01-03' });
      expect(patched.json()).toEqual({ ...sale, bargainName: 'Year-end sale', termEnd: '2027-01-03', updDateTime: AT_T0_PLUS_1MIN });
      expect(problem(await t.api('PATCH', '/bargains/999999', { bargainName: 'X' }), 404)).toEqual(notFound('[bargain_id] bargain 999999 does not exist'));

      await t.api('POST', `/bargains/${sale.bargainId}/stores`, { storeId: store });
      await t.api('POST', `/bargains/${sale.bargainId}/products`, { targetDivision: '2', targetId: product, division: '1', value: '10' });
      expect((await t.api('DELETE', `/bargains/${sale.bargainId}`)).statusCode).toBe(204);
      expect(t.deps.db.prepare('SELECT (SELECT count(*) FROM bargain_stores) + (SELECT count(*) FROM bargain_products)').pluck().get()).toBe(0);
      expect(problem(await t.api('GET', `/bargains/${sale.bargainId}`), 404).detail).toBe(`[bargain_id] bargain ${sale.bargainId} does not exist`);
    });
  });

  describe('/bargains/{bargain_id}/stores', () => {
    it('adds a store once, lists and removes it; each change is reported as the bargain changing', async () => {
      const sale = await winterSale();
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const added = await t.api('POST', `/bargains/${sale.bargainId}/stores`, { storeId: store });
      expect(added.statusCode, added.body).toBe(200);
      const link = added.json();
      expect(link).toEqual({ bargainStoreId: link.bargainStoreId, bargainId: sale.bargainId, storeId: store, insDateTime: AT_T0, updDateTime: AT_T0 });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'bargain', id: sale.bargainId, op: 'update' }]);
      expect((await t.api('GET', `/bargains/${sale.bargainId}/stores`)).json()).toEqual([link]);
      expect((await t.api('GET', `/bargains/${sale.bargainId}/stores?store_id=999`)).json()).toEqual([]);

      expect(problem(await t.api('POST', `/bargains/${sale.bargainId}/stores`, { storeId: store }), 400).detail).toBe(
        `[storeId] store ${store} is already in bargain ${sale.bargainId} (bargain store ${link.bargainStoreId})`,
      );
      expect(problem(await t.api('POST', `/bargains/${sale.bargainId}/stores`, { storeId: '999999' }), 400).detail).toBe('[storeId] store 999999 does not exist');
      expect(problem(await t.api('POST', `/bargains/${sale.bargainId}/stores`, {}), 400).detail).toBe('[storeId] is required');
      expect(problem(await t.api('POST', '/bargains/999999/stores', { storeId: store }), 404).detail).toBe('[bargain_id] bargain 999999 does not exist');
      expect(problem(await t.api('GET', '/bargains/999999/stores'), 404).detail).toBe('[bargain_id] bargain 999999 does not exist');

      expect((await t.api('DELETE', `/bargains/${sale.bargainId}/stores/${link.bargainStoreId}`)).statusCode).toBe(204);
      expect(problem(await t.api('DELETE', `/bargains/${sale.bargainId}/stores/${link.bargainStoreId}`), 404).detail).toBe(
        `[bargain_store_id] bargain store ${link.bargainStoreId} of bargain ${sale.bargainId} does not exist`,
      );
    });
  });

  describe('/bargains/{bargain_id}/products', () => {
    it('adds a category, a product and a group code target with the division and value of the sale', async () => {
      const sale = await winterSale();
      const url = `/bargains/${sale.bargainId}/products`;
      const add = async (body: Record<string, unknown>) => {
        const res = await t.api('POST', url, body);
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as Record<string, string>;
      };
      const rate = await add({ targetDivision: '1', targetId: category, division: '1', value: '10.50' });
      expect(rate).toEqual({
        bargainProductId: rate.bargainProductId,
        bargainId: sale.bargainId,
        targetDivision: '1',
        targetId: category,
        division: '1',
        value: '10.5',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
      });
      const price = await add({ targetDivision: '2', targetId: product, division: '3', value: '800' });
      const group = await add({ targetDivision: '3', targetId: 'TEE-GROUP', division: '2', value: '100' });
      expect((await t.api('GET', url)).json()).toEqual([rate, price, group]);
      expect((await t.api('GET', `${url}?target_division=3`)).json()).toEqual([group]);
      expect((await t.api('GET', `${url}?division=3`)).json()).toEqual([price]);
      expect((await t.api('GET', `${url}/${price.bargainProductId}`)).json()).toEqual(price);
    });

    it('refuses unknown targets, a target twice, a rate above 100 and bad fields', async () => {
      const sale = await winterSale();
      const url = `/bargains/${sale.bargainId}/products`;
      const detail = async (body: Record<string, unknown>) => problem(await t.api('POST', url, body), 400).detail;
      expect(await detail({ targetDivision: '2', targetId: '999999', division: '2', value: '10' })).toBe('[targetId] product 999999 does not exist');
      expect(await detail({ targetDivision: '1', targetId: 'ABC', division: '2', value: '10' })).toBe('[targetId] category ABC does not exist');
      expect(await detail({ targetDivision: '1', targetId: category, division: '1', value: '100.001' })).toBe('[value] must be at most 100 (percent) when division is 1');
      expect(await detail({ targetDivision: '4', targetId: '', division: '0', value: '-1' })).toBe(
        '[targetDivision] must be one of 1, 2, 3; [targetId] must be 1 to 85 half-width alphanumerics or symbols; [division] must be one of 1, 2, 3; ' +
          '[value] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
      );
      const first = (await t.api('POST', url, { targetDivision: '2', targetId: product, division: '2', value: '100' })).json();
      expect(await detail({ targetDivision: '2', targetId: product, division: '3', value: '500' })).toBe(
        `[targetId] product ${product} is already a target of bargain ${sale.bargainId} (bargain product ${first.bargainProductId})`,
      );
    });

    it('PATCH changes a target (checked again), DELETE removes it; 404 for an unknown bargain or target', async () => {
      const sale = await winterSale();
      const url = `/bargains/${sale.bargainId}/products`;
      const target = (await t.api('POST', url, { targetDivision: '2', targetId: product, division: '2', value: '100' })).json();
      t.clock.advance(60_000);
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const patched = await t.api('PATCH', `${url}/${target.bargainProductId}`, { division: '1', value: '20' });
      expect(patched.json()).toEqual({ ...target, division: '1', value: '20', updDateTime: AT_T0_PLUS_1MIN });
      expect(changes).toEqual([{ contractId: t.contractId, entity: 'bargain', id: sale.bargainId, op: 'update' }]);
      expect(problem(await t.api('PATCH', `${url}/${target.bargainProductId}`, { value: '150' }), 400).detail).toBe('[value] must be at most 100 (percent) when division is 1');
      expect(problem(await t.api('PATCH', `${url}/${target.bargainProductId}`, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', `${url}/999999`, { value: '1' }), 404)).toEqual(
        notFound(`[bargain_product_id] bargain product 999999 of bargain ${sale.bargainId} does not exist`),
      );
      expect(problem(await t.api('GET', `/bargains/999999/products/${target.bargainProductId}`), 404).detail).toBe('[bargain_id] bargain 999999 does not exist');
      expect((await t.api('DELETE', `${url}/${target.bargainProductId}`)).statusCode).toBe(204);
      expect((await t.api('GET', url)).json()).toEqual([]);
      expect(problem(await t.api('DELETE', `${url}/${target.bargainProductId}`), 404).status).toBe(404);
    });
  });

  it('needs pos.products scopes and one of the five plans', async () => {
    const sale = await winterSale();
    const readOnly = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect((await t.api('GET', `/bargains/${sale.bargainId}/products`, undefined, readOnly)).statusCode).toBe(200);
    expect(problem(await t.api('POST', `/bargains/${sale.bargainId}/stores`, { storeId: store }, readOnly), 403).detail).toBe(
      '[scope] the token lacks the scope pos.products:write',
    );
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    expect(problem(await enterprise.api('GET', '/bargains'), 403).detail).toBe(
      "the contract's plan enterprise cannot use GET /bargains (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    await enterprise.close();
  });
});
