import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../server/platform/http/scopes.js';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

/**
 * The exact requests public clients of the platform send (issue 16): a Node-RED node set and an
 * MCP server (five scopes), a PHP package (27 scopes, `Bearer ` + token with two spaces,
 * trailing-slash paths, sales posted without Content-Type), generated SDKs (trailing slashes,
 * `-from`/`-to` range filters) and the waiter API's restaurant paths.
 */

const FIVE_SCOPES = 'pos.transactions:read pos.transactions:write pos.stock:read pos.stock:write pos.stock-changes:read';
// A PHP package's default list, verbatim.
const PHP_SCOPES = [
  'pos.products:read', 'pos.products:write', 'pos.customers:read', 'pos.customers:write', 'pos.stock:read', 'pos.stock:write',
  'pos.stock-changes:read', 'pos.transactions:read', 'pos.transactions:write', 'pos.suppliers:read', 'pos.suppliers:write',
  'pos.stores:read', 'pos.stores:write', 'pos.staffs:read', 'pos.staffs:write', 'pos.losses:read', 'pos.losses:write',
  'pos.orders:read', 'pos.orders:write', 'pos.transfers:read', 'pos.transfers:write', 'pos.stocktaking:read',
  'order-shipment.stores:read', 'order-shipment.stores:write', 'order-shipment.orders:read', 'order-shipment.orders:write',
  'order-shipment.stock:read',
];

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ plan: 'food_business' });
});
afterAll(() => t.close());

async function tokenRequest(form: string, scopes: readonly (typeof ALL_SCOPES)[number][] = ALL_SCOPES) {
  const c = t.createClient(t.contractId, scopes);
  return t.app.inject({
    method: 'POST',
    url: `/app/${t.contractId}/token`,
    headers: {
      authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: form,
  });
}

const raw = (method: string, url: string, headers: Record<string, string>, payload?: string) =>
  t.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });

describe('token requests of platform clients', () => {
  it('grants the five-scope request of a Node-RED node set / MCP server', async () => {
    const res = await tokenRequest(`grant_type=client_credentials&scope=${encodeURIComponent(FIVE_SCOPES)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: FIVE_SCOPES });
  });

  it("grants a PHP package's 27-scope default list, and the token works sent as `Bearer  <token>`", async () => {
    const res = await tokenRequest(`grant_type=client_credentials&scope=${encodeURIComponent(PHP_SCOPES.join(' '))}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().scope.split(' ')).toEqual(PHP_SCOPES);
    const list = await raw('GET', `/${t.contractId}/pos/stores/`, { authorization: `Bearer  ${res.json().access_token}` });
    expect(list.statusCode).toBe(200);
  });

  it('narrows to what the client holds and we serve; names outside the families are invalid_scope', async () => {
    const res = await tokenRequest('grant_type=client_credentials&scope=pos.stock-takings:read waiter.menues:read waiter.menus:read pos.products:read', ['pos.products:read']);
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('pos.products:read');
    expect(problem(await tokenRequest('grant_type=client_credentials&scope=pos.products:read email'), 400)).toMatchObject({
      error: 'invalid_scope',
      detail: '[scope] unknown scope email',
    });
  });
});

describe('paths with a trailing slash', () => {
  const get = (path: string) => raw('GET', `/${t.contractId}/pos${path}`, { authorization: `Bearer ${t.token}` });

  it('answers a list, a create and an item the same with or without the slash', async () => {
    const categoryId = (await t.api('POST', '/categories', { categoryName: 'Drinks' })).json().categoryId;
    const created = await t.app.inject({
      method: 'POST',
      url: `/${t.contractId}/pos/products/`,
      headers: { authorization: `Bearer ${t.token}` },
      payload: { categoryId, productCode: 'TEA-1', productName: 'Tea', price: '300' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().productId;
    const withSlash = await get('/products/?limit=10');
    expect(withSlash.statusCode).toBe(200);
    expect(withSlash.body).toBe((await get('/products?limit=10')).body);
    expect((await get(`/products/${id}/`)).json().productName).toBe('Tea');
    const sales = await get('/transactions/?transaction_date_time-from=2026-11-01T00:00:00%2B09:00&transaction_date_time-to=2026-11-30T00:00:00%2B09:00');
    expect(sales.statusCode).toBe(200);
  });
});

describe('range filters spelled -from / -to', () => {
  it('filters a master list by upd_date_time-from/-to, the underscore spelling and an unencoded + alike', async () => {
    const first = (await t.api('POST', '/categories', { categoryName: 'Early' })).json();
    t.clock.advance(600_000);
    const later = (await t.api('POST', '/categories', { categoryName: 'Late' })).json();
    const names = async (query: string) => (await t.api('GET', `/categories?${query}`)).json().map((c: { categoryName: string }) => c.categoryName);

    expect(await names(`upd_date_time-from=${encodeURIComponent(later.updDateTime)}`)).toEqual(['Late']);
    const early = await names(`upd_date_time-to=${encodeURIComponent(first.updDateTime)}`);
    expect(early).toContain('Early');
    expect(early).not.toContain('Late');
    expect(await names(`upd_date_time_from=${encodeURIComponent(later.updDateTime)}`)).toEqual(['Late']);
    // `+09:00` written into the URL as is arrives as a space.
    expect(await names(`upd_date_time-from=${later.updDateTime}`)).toEqual(['Late']);
  });

  it('refuses a range whose end is before its start, naming the -to key', async () => {
    const res = await t.api('GET', '/stores?upd_date_time-from=2026-11-22T10:00:00%2B09:00&upd_date_time-to=2026-11-21T10:00:00%2B09:00');
    expect(problem(res, 400).detail).toBe('[upd_date_time-to] must not be earlier than upd_date_time-from');
    expect(problem(await t.api('GET', '/stores?upd_date_time-from=yesterday'), 400).detail).toContain('[upd_date_time-from] must be a date-time');
  });
});

describe('leniency that costs nothing', () => {
  it('reads a body sent without Content-Type as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/${t.contractId}/pos/stores`,
      headers: { authorization: `Bearer ${t.token}` },
      payload: Buffer.from(JSON.stringify({ storeName: 'No content type' })),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().storeName).toBe('No content type');
  });

  it('answers 404 problem for the platform paths this server does not provide, not a 400 about an id', async () => {
    for (const path of ['/transactions/temporaries', '/transactions/product_sets']) {
      expect(problem(await t.api('GET', path), 404).detail).toBe(`no route GET /${t.contractId}/pos${path}`);
    }
    // A malformed id is still a 400 naming the parameter.
    expect(problem(await t.api('GET', '/transactions/12a'), 400).detail).toBe('[transaction_id] must be 1 to 9 digits');
  });

  it('names a field inside an array one way: details[0].salesPrice', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Shop' })).json().storeId;
    const res = await t.api('POST', '/transactions', {
      storeId: store,
      transactionHeadDivision: '1',
      sumDivision: '2',
      sumDate: '2026-11-22',
      details: [{ transactionDetailId: '1', salesPrice: 'abc', quantity: '1' }],
    });
    expect(problem(res, 400).detail).toMatch(/^\[details\[0\]\.salesPrice\] /);
  });
});

describe('the restaurant API under /{contract_id}/waiter', () => {
  it('takes an order at a table use and reads it back with a waiter.orders:read token', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    const table = (await t.api('POST', '/tables', { storeId: store, name: 'T1' })).json().tableId;
    const first = await t.api('POST', '/orders', { storeId: store, tableIds: [table], items: [{ name: 'Water', sellingPrice: { amount: '0' } }] });
    expect(first.statusCode).toBe(200);
    const tableUseId = first.json().tableUseId;

    const waiter = (method: string, path: string, token: string, payload?: object) =>
      t.app.inject({ method: method as 'GET', url: `/${t.contractId}/waiter${path}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    const writer = await t.tokenFor({ scopes: ['waiter.orders:write'] });
    const second = await waiter('POST', `/table_uses/${tableUseId}/orders`, writer, {
      items: [{ name: 'Pasta', quantity: 2, sellingPrice: { amount: '1200' } }],
      orderPrints: { kitchenTicket: true, orderSlip: false },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ tableUseId, items: [{ name: 'Pasta', quantity: 2 }] });

    const reader = await t.tokenFor({ scopes: ['waiter.orders:read'] });
    const read = await waiter('GET', `/orders/${second.json().orderId}`, reader);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(second.json());
    const use = await waiter('GET', `/table_uses/${tableUseId}/`, reader);
    expect(use.statusCode).toBe(200);
    // The /pos path keeps working for earlier clients.
    expect((await t.api('GET', `/orders/${second.json().orderId}`, undefined, reader)).body).toBe(read.body);

    expect(problem(await waiter('GET', `/orders/${second.json().orderId}`, writer), 403).detail).toBe('[scope] the token lacks the scope waiter.orders:read');
    expect(problem(await waiter('POST', '/table_uses/999999/orders', writer, { items: [{ name: 'X', sellingPrice: { amount: '0' } }] }), 404).detail).toBe(
      '[table_use_id] table use 999999 does not exist',
    );
    // POS resources are not under /waiter.
    expect(problem(await waiter('GET', '/stores', reader), 404).status).toBe(404);
  });

  it('serves reservations, menus, menu conditions and topping groups under /waiter with the plan lines of their /pos twins', async () => {
    const menusReader = await t.tokenFor({ scopes: ['waiter.menus:read'] });
    const get = (path: string, token: string) => raw('GET', `/${t.contractId}/waiter${path}`, { authorization: `Bearer ${token}` });
    expect((await get('/menus', menusReader)).statusCode).toBe(200);
    expect((await get('/topping_groups', menusReader)).statusCode).toBe(200);
    const ordersReader = await t.tokenFor({ scopes: ['waiter.orders:read'] });
    expect((await get('/reservations', ordersReader)).statusCode).toBe(200);
    const retail = await makeTestApp({ plan: 'retail_business' });
    try {
      const res = await retail.app.inject({ method: 'GET', url: `/${retail.contractId}/waiter/reservations/1`, headers: { authorization: `Bearer ${retail.token}` } });
      expect(problem(res, 403).detail).toContain('cannot use GET /reservations/{reservation_id}');
    } finally {
      await retail.close();
    }
  });
});
