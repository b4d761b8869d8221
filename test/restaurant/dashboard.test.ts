import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { waiterApi } from './waiter-api.js';

/** 店舗の営業状況取得 (issue 26): GET /dashboard/stores/{store_id}, the platform's fields exactly. */

const AT = '2026-11-22T10:00:00+09:00';

describe('GET /dashboard/stores/{store_id}', () => {
  let t: TestApp;
  let store: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
  });
  afterEach(() => t.close());

  const waiter = (method: string, path: string, body?: unknown, token?: string) => waiterApi(t, method, path, body, token);

  it('lists the tables in display order, each with the party seated there while one is', async () => {
    const b = (await t.api('POST', '/tables', { storeId: store, name: 'B', displaySequence: '2' })).json().tableId;
    const a = (await t.api('POST', '/tables', { storeId: store, name: 'A', displaySequence: '1' })).json().tableId;
    const c = (await t.api('POST', '/tables', { storeId: store, name: 'C' })).json().tableId;
    const use = (await waiter('POST', '/table_uses', { storeId: store, tableId: b, guestCount: 3 })).json();
    await waiter('POST', `/table_uses/${use.id}/orders`, { items: [{ name: 'Beer', quantity: 2, sellingPrice: { amount: '600' } }] });
    const ended = (await waiter('POST', '/table_uses', { storeId: store, tableId: c })).json();
    await waiter('PATCH', `/table_uses/${ended.id}`, { status: 'ended' });

    const res = await waiter('GET', `/dashboard/stores/${store}`, undefined, await t.tokenFor({ scopes: ['waiter.orders:read'] }));
    expect(res.statusCode).toBe(200);
    const { orders: _orders, orderIds: _ids, ...record } = (await waiter('GET', `/table_uses/${use.id}`)).json();
    expect(res.json()).toEqual({
      time: AT,
      count: 3,
      total: 3,
      page: 1,
      tables: [
        { table: { id: a, name: 'A', category: null, sortNo: 1 } },
        { table: { id: b, name: 'B', category: null, sortNo: 2 }, tableUse: record },
        { table: { id: c, name: 'C', category: null, sortNo: null } },
      ],
    });
    expect(record).toMatchObject({ number: 3, quantity: 2, totalPrice: '1200', status: 'started' });

    const second = (await waiter('GET', `/dashboard/stores/${store}?limit=2&page=2`)).json();
    expect(second).toMatchObject({ count: 1, total: 3, page: 2, tables: [{ table: { id: c } }] });
    expect((await waiter('GET', `/dashboard/stores/${store}?sort=sort_no:desc&limit=1`)).json().tables[0].table.id).toBe(c);
    expect((await waiter('GET', `/dashboard/stores/${store}?sort=category`)).json().tables.map((x: { table: { id: string } }) => x.table.id)).toEqual([a, b, c]);
  });

  it('404 for a store that does not exist; 400 for a bad query; waiter.orders:read', async () => {
    expect(problem(await waiter('GET', '/dashboard/stores/999'), 404).detail).toBe('[store_id] store 999 does not exist');
    expect(problem(await waiter('GET', `/dashboard/stores/${store}?limit=101`), 400).detail).toBe('[limit] limit must be at most 100');
    expect(problem(await waiter('GET', `/dashboard/stores/${store}?sort=name`), 400).detail).toBe('[sort] name is not a sort key; use sort_no, category with an optional :desc');
    expect(problem(await waiter('GET', `/dashboard/stores/${store}`, undefined, await t.tokenFor({ scopes: ['waiter.stores:read'] })), 403).detail).toBe(
      '[scope] the token lacks the scope waiter.orders:read',
    );
    expect((await waiter('GET', `/dashboard/stores/${store}`)).json()).toEqual({ time: AT, count: 0, total: 0, page: 1, tables: [] });
  });
});
