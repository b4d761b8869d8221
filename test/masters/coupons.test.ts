import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/**
 * Coupons (クーポン, issue 26): the platform's /coupons and their items /coupons/{id}/products,
 * called with the requests the platform's client sends (its recipes: POST with couponName,
 * couponDivision, couponValue, startDate, endDate; PUT with some keys; DELETE).
 */

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T1 = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });
const YEN_500 = { couponName: '500円引きクーポン', couponDivision: '1', couponValue: '500', startDate: '2026-04-01', endDate: '2026-04-30' };
const RATE_10 = { couponName: '10%OFFクーポン', couponDivision: '2', couponValue: '10', startDate: '2026-04-01', endDate: '2026-06-30' };

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp({ plan: 'retail_business' });
});
afterEach(() => t.close());

/** The platform client's request: /{contract_id}/pos{path}, a bearer token, JSON. */
const call = (method: string, path: string, body?: unknown, token = t.token) =>
  t.app.inject({
    method: method as 'GET',
    url: `/${t.contractId}/pos${path}`,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await call(method, path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('/coupons', () => {
  it('registers a discount and a rate coupon as the recipes send them, reported to sync as inserts', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const yen = await ok('POST', '/coupons', YEN_500);
    expect(yen).toEqual({ couponId: expect.stringMatching(/^\d+$/), ...YEN_500, insDateTime: AT_T0, updDateTime: AT_T0 });
    const rate = await ok('POST', '/coupons', RATE_10);
    expect(rate).toMatchObject(RATE_10);
    expect(changes).toEqual([
      { contractId: t.contractId, entity: 'coupon', id: yen.couponId, op: 'insert' },
      { contractId: t.contractId, entity: 'coupon', id: rate.couponId, op: 'insert' },
    ]);
    // Without a period the coupon is valid every day; the value is kept exact in its shortest form.
    expect(await ok('POST', '/coupons', { couponName: 'Always', couponDivision: '2', couponValue: '12.50' })).toMatchObject({
      couponValue: '12.5',
      startDate: null,
      endDate: null,
    });
  });

  it('lists, filters, sorts, pages and limits fields; gets one', async () => {
    const yen = await ok('POST', '/coupons', YEN_500);
    t.clock.advance(60_000);
    const rate = await ok('POST', '/coupons', RATE_10);
    expect(await ok('GET', '/coupons?limit=100')).toEqual([yen, rate]);
    expect(await ok('GET', '/coupons?coupon_division=2')).toEqual([rate]);
    expect(await ok('GET', '/coupons?sort=couponName:desc&fields=couponId,couponName')).toEqual([
      { couponId: yen.couponId, couponName: YEN_500.couponName },
      { couponId: rate.couponId, couponName: RATE_10.couponName },
    ]);
    expect(await ok('GET', `/coupons?upd_date_time-from=${encodeURIComponent(AT_T1)}`)).toEqual([rate]);
    const page = await call('GET', '/coupons?limit=1');
    expect(page.json()).toEqual([yen]);
    expect(page.headers.link).toBe(`<http://localhost/${t.contractId}/pos/coupons?limit=1&page=2>; rel="next"`);
    expect(await ok('GET', `/coupons/${rate.couponId}`)).toEqual(rate);
    expect(await ok('GET', `/coupons/${rate.couponId}?fields=couponValue`)).toEqual({ couponValue: '10' });
    expect(problem(await call('GET', '/coupons/999999'), 404)).toEqual(notFound('[coupon_id] coupon 999999 does not exist'));
    expect(problem(await call('GET', '/coupons?coupon_division=3'), 400).detail).toMatch(/^\[coupon_division\]/);
  });

  it('PUT (the recipe) and PATCH change only the keys sent', async () => {
    const yen = await ok('POST', '/coupons', YEN_500);
    t.clock.advance(60_000);
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const put = await ok('PUT', `/coupons/${yen.couponId}`, { couponName: '更新後クーポン名', endDate: '2026-12-31' });
    expect(put).toEqual({ ...yen, couponName: '更新後クーポン名', endDate: '2026-12-31', updDateTime: AT_T1 });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'coupon', id: yen.couponId, op: 'update' }]);
    const patched = await ok('PATCH', `/coupons/${yen.couponId}`, { couponDivision: '2', couponValue: '15', startDate: null });
    expect(patched).toEqual({ ...put, couponDivision: '2', couponValue: '15', startDate: null });
    expect(await ok('GET', `/coupons/${yen.couponId}`)).toEqual(patched);
  });

  it('refuses bad values, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...YEN_500, couponName: undefined }, '[couponName] is required'],
      [{ ...YEN_500, couponDivision: '3' }, '[couponDivision] must be one of 1, 2'],
      [{ ...YEN_500, couponValue: '0' }, '[couponValue] must be an amount above 0'],
      [{ ...RATE_10, couponValue: '100.5' }, '[couponValue] must be a rate of at most 100 (couponDivision 2 takes 100.5 % off)'],
      [{ ...YEN_500, couponValue: '-5' }, '[couponValue] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals'],
      [{ ...YEN_500, endDate: '2026-03-31' }, '[endDate] 2026-03-31 is before the start date 2026-04-01'],
      [{ ...YEN_500, startDate: '2026-02-30' }, '[startDate] must be a calendar date YYYY-MM-DD from 1900'],
      [{ ...YEN_500, couponCode: 'X' }, '[couponCode] is not a known field'],
    ];
    for (const [body, detail] of cases) expect(problem(await call('POST', '/coupons', JSON.parse(JSON.stringify(body))), 400)).toEqual(bad(detail));

    const yen = await ok('POST', '/coupons', YEN_500);
    // A division or a period end sent alone is checked with the stored other.
    expect(problem(await call('PATCH', `/coupons/${yen.couponId}`, { couponDivision: '2' }), 400)).toEqual(
      bad('[couponDivision] 2 does not fit the stored couponValue 500: it must be a rate of at most 100 (couponDivision 2 takes 500 % off)'),
    );
    expect(problem(await call('PUT', `/coupons/${yen.couponId}`, { startDate: '2026-05-01' }), 400)).toEqual(bad('[startDate] 2026-05-01 is after the end date 2026-04-30'));
    expect(problem(await call('PATCH', `/coupons/${yen.couponId}`, { couponName: null }), 400).detail).toMatch(/^\[couponName\]/);
    expect(problem(await call('PATCH', `/coupons/${yen.couponId}`, {}), 400).detail).toMatch(/^\[body\]/);
    expect(problem(await call('PUT', '/coupons/999999', { couponName: 'X' }), 404)).toEqual(notFound('[coupon_id] coupon 999999 does not exist'));
    expect(await ok('GET', `/coupons/${yen.couponId}`)).toEqual(yen);
  });

  it('DELETE answers 204 and takes the coupon items with it', async () => {
    const yen = await ok('POST', '/coupons', YEN_500);
    const category = (await ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    await ok('POST', `/coupons/${yen.couponId}/products`, { division: '1', itemId: category, type: '1' });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await call('DELETE', `/coupons/${yen.couponId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(changes).toEqual([
      { contractId: t.contractId, entity: 'coupon_product', id: `${yen.couponId}/1/1/${category}`, op: 'delete' },
      { contractId: t.contractId, entity: 'coupon', id: yen.couponId, op: 'delete' },
    ]);
    expect(problem(await call('GET', `/coupons/${yen.couponId}`), 404)).toEqual(notFound(`[coupon_id] coupon ${yen.couponId} does not exist`));
    expect(problem(await call('DELETE', `/coupons/${yen.couponId}`), 404)).toEqual(notFound(`[coupon_id] coupon ${yen.couponId} does not exist`));
  });

  it("raises the platform's pos:coupons notice: created, edited (the coupon or its items), deleted", async () => {
    const yen = await ok('POST', '/coupons', YEN_500);
    await ok('PUT', `/coupons/${yen.couponId}`, { couponName: '更新後クーポン名' });
    const category = (await ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    await ok('POST', `/coupons/${yen.couponId}/products`, { division: '1', itemId: category, type: '1' });
    // Refused changes raise nothing.
    expect((await call('PATCH', `/coupons/${yen.couponId}`, { couponValue: '0' })).statusCode).toBe(400);
    expect((await call('DELETE', `/coupons/${yen.couponId}`)).statusCode).toBe(204);
    const bodies = (t.deps.db.prepare("SELECT body FROM webhook_events WHERE contract_id = ? AND event = 'pos:coupons' ORDER BY created_at, CAST(event_id AS INTEGER)").pluck().all(t.contractId) as string[]).map(
      (b) => JSON.parse(b),
    );
    const body = (action: string) => ({ contractId: t.contractId, event: 'pos:coupons', action, couponIds: [yen.couponId] });
    expect(bodies).toEqual([body('created'), body('edited'), body('edited'), body('deleted')]);
  });

  it('needs pos.products (read to read, write to write) and one of the five plans', async () => {
    const yen = await ok('POST', '/coupons', YEN_500);
    const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect((await call('GET', `/coupons/${yen.couponId}`, undefined, reader)).statusCode).toBe(200);
    expect(problem(await call('PUT', `/coupons/${yen.couponId}`, { couponName: 'X' }, reader), 403).detail).toBe('[scope] the token lacks the scope pos.products:write');
    expect(problem(await call('GET', '/coupons', undefined, await t.tokenFor({ scopes: ['pos.transactions:read'] })), 403).detail).toBe(
      '[scope] the token lacks the scope pos.products:read',
    );
    const enterprise = await makeTestApp({ plan: 'enterprise' });
    try {
      expect(problem(await enterprise.api('GET', '/coupons'), 403).detail).toBe(
        "the contract's plan enterprise cannot use GET /coupons (plans: standard, premium, premium_plus, food_business, retail_business)",
      );
    } finally {
      enterprise.close();
    }
  });
});

describe('/coupons/{coupon_id}/products', () => {
  let coupon: string;
  let category: string;
  let product: string;
  beforeEach(async () => {
    coupon = (await ok('POST', '/coupons', YEN_500)).couponId;
    category = (await ok('POST', '/categories', { categoryName: 'Drinks' })).categoryId;
    product = (await ok('POST', '/products', { categoryId: category, productCode: 'P1', productName: 'Tea', price: '300' })).productId;
  });

  it('registers conditions (a category, a product, a group code) and goods granted; lists them', async () => {
    const byCategory = await ok('POST', `/coupons/${coupon}/products`, { division: '1', itemId: category, type: '1' });
    expect(byCategory).toEqual({ couponId: coupon, type: '1', division: '1', itemId: category, salesPrice: null, insDateTime: AT_T0, updDateTime: AT_T0 });
    const byGroup = await ok('POST', `/coupons/${coupon}/products`, { division: '3', itemId: 'G-01', type: '1' });
    const granted = await ok('POST', `/coupons/${coupon}/products`, { division: '2', itemId: product, type: '2', salesPrice: '100' });
    expect(granted).toMatchObject({ type: '2', division: '2', itemId: product, salesPrice: '100' });
    expect(await ok('GET', `/coupons/${coupon}/products`)).toEqual([byCategory, byGroup, granted]);
    expect(await ok('GET', `/coupons/${coupon}/products?type=2`)).toEqual([granted]);
    expect(problem(await call('GET', '/coupons/999999/products'), 404)).toEqual(notFound('[coupon_id] coupon 999999 does not exist'));
  });

  it('refuses what the platform refuses, naming the field', async () => {
    await ok('POST', `/coupons/${coupon}/products`, { division: '1', itemId: category, type: '1' });
    const cases: [Record<string, unknown>, string][] = [
      [{ division: '1', itemId: category, type: '2', salesPrice: '100' }, '[division] must be 2 (a product id) for goods granted (type 2)'],
      [{ division: '2', itemId: product, type: '2' }, '[salesPrice] is required for goods granted (type 2)'],
      [{ division: '1', itemId: '999999', type: '1' }, '[itemId] category 999999 does not exist'],
      [{ division: '2', itemId: '999999', type: '1' }, '[itemId] product 999999 does not exist'],
      [{ division: '2', itemId: 'G-01', type: '1' }, '[itemId] must be a product id of up to 9 digits for division 2'],
      [{ division: '1', itemId: category, type: '1' }, `[itemId] coupon ${coupon} already has category ${category} as type 1`],
      [{ division: '4', itemId: category, type: '1' }, '[division] must be one of 1, 2, 3'],
    ];
    for (const [body, detail] of cases) expect(problem(await call('POST', `/coupons/${coupon}/products`, body), 400)).toEqual(bad(detail));
    expect(problem(await call('POST', '/coupons/999999/products', { division: '1', itemId: category, type: '1' }), 404)).toEqual(
      notFound('[coupon_id] coupon 999999 does not exist'),
    );
  });

  it('PATCH changes the price of goods granted; DELETE removes an item (204); each names what it cannot find', async () => {
    await ok('POST', `/coupons/${coupon}/products`, { division: '2', itemId: product, type: '2', salesPrice: '100' });
    await ok('POST', `/coupons/${coupon}/products`, { division: '1', itemId: category, type: '1' });
    t.clock.advance(60_000);
    const item = `/coupons/${coupon}/type/2/division/2/products/${product}`;
    expect(await ok('PATCH', item, { salesPrice: '80' })).toEqual({ couponId: coupon, type: '2', division: '2', itemId: product, salesPrice: '80', insDateTime: AT_T0, updDateTime: AT_T1 });
    expect(problem(await call('PATCH', `/coupons/${coupon}/type/1/division/1/products/${category}`, { salesPrice: '80' }), 400)).toEqual(
      bad('[type] must be 2: only goods granted (type 2) have a price to update'),
    );
    expect(problem(await call('PATCH', item, {}), 400).detail).toMatch(/^\[salesPrice\]/);
    expect(problem(await call('DELETE', `/coupons/${coupon}/type/1/division/2/products/${product}`), 404)).toEqual(
      notFound(`[item_id] coupon ${coupon} has no product ${product} as type 1`),
    );
    expect(problem(await call('DELETE', `/coupons/${coupon}/type/1/division/1/products/999999`), 404)).toEqual(notFound('[item_id] category 999999 does not exist'));
    expect(problem(await call('DELETE', `/coupons/999999/type/1/division/1/products/${category}`), 404)).toEqual(notFound('[coupon_id] coupon 999999 does not exist'));
    expect((await call('DELETE', item)).statusCode).toBe(204);
    expect((await ok('GET', `/coupons/${coupon}/products`)).map((i: { itemId: string }) => i.itemId)).toEqual([category]);
  });
});
