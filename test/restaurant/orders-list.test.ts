import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const water = { name: 'Water', sellingPrice: { amount: '0' } };

describe('GET /orders', () => {
  let t: TestApp;
  let storeId: string;
  let otherStore: string;
  let tables: string[];
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    storeId = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    otherStore = (await t.api('POST', '/stores', { storeName: 'Annex' })).json().storeId;
    tables = [];
    for (const name of ['T1', 'T2']) tables.push((await t.api('POST', '/tables', { storeId, name })).json().tableId);
    tables.push((await t.api('POST', '/tables', { storeId: otherStore, name: 'A1' })).json().tableId);
  });
  afterEach(() => t.close());

  const order = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/orders', body);
    if (res.statusCode !== 200) throw new Error(`order failed: ${res.body}`);
    return res.json() as { orderId: string; tableUseId: string; ordered: string };
  };
  const ids = async (query: string) => {
    const res = await t.api('GET', `/orders${query}`);
    if (res.statusCode !== 200) throw new Error(`list failed: ${res.body}`);
    return (res.json() as { orderId: string }[]).map((o) => o.orderId);
  };

  /**
   * a: store, T1, 12:00   b: store, T1 (same table use), 11:00   c: store, T2, 11:00 (a tie with b)
   * d: other store, 13:00 (sent in UTC)
   */
  const fixture = async () => {
    const a = await order({ storeId, tableIds: [tables[0]], ordered: '2026-11-22T12:00:00+09:00', items: [water] });
    const b = await order({ tableUseId: a.tableUseId, ordered: '2026-11-22T11:00:00+09:00', items: [water, { ...water, name: 'Tea' }] });
    const c = await order({ storeId, tableIds: [tables[1]], ordered: '2026-11-22T11:00:00+09:00', items: [water] });
    const d = await order({ storeId: otherStore, tableIds: [tables[2]], ordered: '2026-11-22T04:00:00Z', items: [water] });
    return { a, b, c, d };
  };

  it('answers orders in the shape of GET /orders/{id}, in ordered order then by id', async () => {
    const { a, b, c, d } = await fixture();
    const res = await t.api('GET', '/orders');
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBeUndefined();
    const list = res.json() as { orderId: string }[];
    expect(list.map((o) => o.orderId)).toEqual([b.orderId, c.orderId, a.orderId, d.orderId]);
    for (const o of list) expect(o).toEqual((await t.api('GET', `/orders/${o.orderId}`)).json());
    // each order carries its own items and table use (batched loading keeps them apart)
    expect(list[0]).toMatchObject({ items: [{ name: 'Water' }, { name: 'Tea' }], tableUse: { tables: [{ id: tables[0], name: 'T1' }] } });
    expect(list[1]).toMatchObject({ items: [{ name: 'Water' }], tableUse: { storeId, tables: [{ id: tables[1], name: 'T2' }] } });
    expect(list[3]).toMatchObject({ ordered: '2026-11-22T13:00:00+09:00', tableUse: { storeId: otherStore } });
    expect(await ids('?store_id=999999')).toEqual([]);
  });

  it('filters by store, table use and ordered range (inclusive, any offset)', async () => {
    const { a, b, c, d } = await fixture();
    expect(await ids(`?store_id=${storeId}`)).toEqual([b.orderId, c.orderId, a.orderId]);
    expect(await ids(`?store_id=${otherStore}`)).toEqual([d.orderId]);
    expect(await ids(`?table_use_id=${a.tableUseId}`)).toEqual([b.orderId, a.orderId]);
    expect(await ids(`?table_use_id=${a.tableUseId}&store_id=${otherStore}`)).toEqual([]);
    expect(await ids('?ordered_from=2026-11-22T12:00:00%2B09:00')).toEqual([a.orderId, d.orderId]);
    expect(await ids('?ordered_to=2026-11-22T02:00:00Z')).toEqual([b.orderId, c.orderId]);
    expect(await ids('?ordered_from=2026-11-22T02:00:00.000Z&ordered_to=2026-11-22T12:00:00%2B09:00')).toEqual([b.orderId, c.orderId, a.orderId]);
    expect(await ids('?ordered_from=2026-11-22T12:00:00%2B09:00&ordered_to=2026-11-22T03:00:00Z')).toEqual([a.orderId]);
  });

  it('sorts by orderId or ordered, each ascending or descending', async () => {
    const { a, b, c, d } = await fixture();
    expect(await ids('?sort=orderId')).toEqual([a.orderId, b.orderId, c.orderId, d.orderId]);
    expect(await ids('?sort=orderId:desc')).toEqual([d.orderId, c.orderId, b.orderId, a.orderId]);
    expect(await ids('?sort=ordered:desc')).toEqual([d.orderId, a.orderId, b.orderId, c.orderId]); // tie by id ascending
    expect(await ids('?sort=ordered:desc,orderId:desc')).toEqual([d.orderId, a.orderId, c.orderId, b.orderId]);
  });

  it('pages with limit and page and sets Link', async () => {
    const { a, b, c } = await fixture();
    const base = `http://localhost/${t.contractId}/pos/orders`;
    const first = await t.api('GET', `/orders?store_id=${storeId}&limit=2`);
    expect(first.json().map((o: { orderId: string }) => o.orderId)).toEqual([b.orderId, c.orderId]);
    expect(first.headers.link).toBe(`<${base}?store_id=${storeId}&limit=2&page=2>; rel="next"`);
    const last = await t.api('GET', `/orders?store_id=${storeId}&limit=2&page=2`);
    expect(last.json().map((o: { orderId: string }) => o.orderId)).toEqual([a.orderId]);
    expect(last.headers.link).toBe(`<${base}?store_id=${storeId}&limit=2&page=1>; rel="prev"`);
    const middle = await t.api('GET', '/orders?limit=1&page=2&sort=orderId');
    expect(middle.json().map((o: { orderId: string }) => o.orderId)).toEqual([b.orderId]);
    expect(middle.headers.link).toBe(`<${base}?limit=1&page=1&sort=orderId>; rel="prev", <${base}?limit=1&page=3&sort=orderId>; rel="next"`);
    expect(await ids('?limit=2&page=3')).toEqual([]);
    expect(await ids('?limit=100')).toHaveLength(4);
  });

  it('pages 20 by default', async () => {
    const { tableUseId } = await order({ storeId, tableIds: [tables[0]], items: [water] });
    for (let i = 0; i < 20; i++) await order({ tableUseId, items: [water] });
    const res = await t.api('GET', '/orders');
    expect(res.json()).toHaveLength(20);
    expect(res.headers.link).toBe(`<http://localhost/${t.contractId}/pos/orders?page=2>; rel="next"`);
    expect(await ids('?page=2')).toHaveLength(1);
  });

  it('400s each bad query parameter', async () => {
    const detail = async (query: string) => problem(await t.api('GET', `/orders${query}`), 400).detail;
    expect(problem(await t.api('GET', '/orders?ordered_from=2026-11-22T12:00:00Z&ordered_to=2026-11-22T11:00:00Z'), 400)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: '[ordered_to] must not be earlier than ordered_from',
    });
    // the same instant in two offsets is not "earlier"
    expect(await ids('?ordered_from=2026-11-22T12:00:00%2B09:00&ordered_to=2026-11-22T03:00:00Z')).toEqual([]);
    expect(await detail('?ordered_from=2026-11-22')).toBe('[ordered_from] must be a date-time like 2026-11-22T10:00:00+09:00');
    expect(await detail('?ordered_to=2026-02-30T10:00:00Z')).toBe('[ordered_to] must be a date-time like 2026-11-22T10:00:00+09:00');
    expect(await detail('?store_id=abc')).toBe('[store_id] must be 1 to 9 digits');
    expect(await detail('?table_use_id=1234567890')).toBe('[table_use_id] must be 1 to 9 digits');
    expect(await detail('?limit=101')).toBe('[limit] limit must be at most 100');
    expect(await detail('?limit=0')).toBe('[limit] limit must be at least 1');
    expect(await detail('?page=x')).toBe('[page] page must be a positive integer');
    expect(await detail('?sort=storeId')).toBe('[sort] storeId is not a sort key; use orderId, ordered with an optional :desc');
    expect(await detail('?status=started')).toBe('[status] is not a known field');
  });

  it('needs waiter.orders:read and is open to every plan', async () => {
    const writer = await t.tokenFor({ scopes: ['waiter.orders:write', 'pos.orders:read'] });
    expect(problem(await t.api('GET', '/orders', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope waiter.orders:read');
    const other = await makeTestApp({ plan: 'standard' });
    try {
      expect((await other.api('GET', '/orders')).json()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('does not list another contract\'s orders', async () => {
    await fixture();
    t.addContract('other-contract', 'food_business');
    const token = await t.tokenFor({ contractId: 'other-contract' });
    const res = await t.app.inject({ method: 'GET', url: '/other-contract/pos/orders', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});

describe('GET /table_uses/{id} orderIds', () => {
  it('lists the orders of the table use oldest first; an order still embeds the plain tableUse', async () => {
    const t = await makeTestApp({ plan: 'food_business' });
    try {
      const storeId = (await t.api('POST', '/stores', { storeName: 'S' })).json().storeId;
      const tableId = (await t.api('POST', '/tables', { storeId, name: 'T' })).json().tableId;
      const first = (await t.api('POST', '/orders', { storeId, tableIds: [tableId], ordered: '2026-11-22T12:00:00+09:00', items: [water] })).json();
      const earlier = (await t.api('POST', '/orders', { tableUseId: first.tableUseId, ordered: '2026-11-22T11:00:00+09:00', items: [water] })).json();
      const use = (await t.api('GET', `/table_uses/${first.tableUseId}`)).json();
      expect(use).toMatchObject({ id: first.tableUseId, status: 'started', storeId, tables: [{ id: tableId, name: 'T' }], orderIds: [earlier.orderId, first.orderId] });
      expect(use.orders.map((o: { orderId: string }) => o.orderId)).toEqual([earlier.orderId, first.orderId]);
      const again = (await t.api('GET', `/orders/${first.orderId}`)).json();
      expect(Object.keys(again.tableUse)).toEqual(['id', 'status', 'storeId', 'tables']);
      const patched = (await t.api('PATCH', `/table_uses/${first.tableUseId}`, { status: 'ended' })).json();
      expect(patched).toMatchObject({ id: use.id, status: 'ended', ended: '2026-11-22T10:00:00+09:00', tables: use.tables, orderIds: use.orderIds });
    } finally {
      await t.close();
    }
  });
});
