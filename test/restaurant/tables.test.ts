import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });

describe('tables', () => {
  let t: TestApp;
  let storeId: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'standard' });
    storeId = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await t.api('POST', '/tables', { storeId, ...body });
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.body}`);
    return res.json() as { tableId: string };
  };

  it('creates a table with defaults, gets it, and is open to every plan', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await t.api('POST', '/tables', { storeId, name: 'T1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ tableId: body.tableId, storeId, name: 'T1', seats: null, displaySequence: null, insDateTime: AT_T0, updDateTime: AT_T0 });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'table', id: body.tableId, op: 'insert' }]);
    expect((await t.api('GET', `/tables/${body.tableId}`)).json()).toEqual(body);
  });

  it('stores seats and displaySequence as integer strings', async () => {
    const res = await t.api('POST', '/tables', { storeId, name: 'T2', seats: '04', displaySequence: '-3' });
    expect(res.json()).toMatchObject({ seats: '4', displaySequence: '-3' });
  });

  it('names every bad field', async () => {
    expect(problem(await t.api('POST', '/tables', {}), 400).detail).toBe('[storeId] is required; [name] is required');
    expect(problem(await t.api('POST', '/tables', { storeId, name: ' ', seats: 'x', color: 'red' }), 400)).toEqual(
      badRequest('[name] must not be empty; [seats] must be 0 to 9999 as digits; [color] is not a known field'),
    );
    expect(problem(await t.api('POST', '/tables', { storeId: '999999', name: 'T' }), 400)).toEqual(
      badRequest('[storeId] store 999999 does not exist'),
    );
  });

  it('keeps names unique within a store but not across stores', async () => {
    await create({ name: 'T1' });
    expect(problem(await t.api('POST', '/tables', { storeId, name: 'T1' }), 400).detail).toMatch(/^\[name\] table name T1 is already used by table \d+/);
    const other = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
    expect((await t.api('POST', '/tables', { storeId: other, name: 'T1' })).statusCode).toBe(200);
  });

  it('patches only the keys sent and clears with null; empty body and storeId are 400', async () => {
    const { tableId } = await create({ name: 'T1', seats: '4' });
    t.clock.advance(60_000);
    const res = await t.api('PATCH', `/tables/${tableId}`, { name: 'Window' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Window', seats: '4', updDateTime: '2026-11-22T10:01:00+09:00' });
    expect((await t.api('PATCH', `/tables/${tableId}`, { seats: null })).json().seats).toBeNull();
    expect(problem(await t.api('PATCH', `/tables/${tableId}`, {}), 400).detail).toBe('[body] no field to update was given');
    expect(problem(await t.api('PATCH', `/tables/${tableId}`, { storeId }), 400).detail).toContain("[storeId] is not a known field");
    await create({ name: 'T9' });
    expect(problem(await t.api('PATCH', `/tables/${tableId}`, { name: 'T9' }), 400).detail).toMatch(/^\[name\] table name T9 is already used/);
  });

  it('404s an unknown table and 400s a malformed id', async () => {
    expect(problem(await t.api('GET', '/tables/999999'), 404).detail).toBe('[table_id] table 999999 does not exist');
    expect(problem(await t.api('PATCH', '/tables/999999', { name: 'x' }), 404).detail).toBe('[table_id] table 999999 does not exist');
    expect(problem(await t.api('DELETE', '/tables/999999'), 404).detail).toBe('[table_id] table 999999 does not exist');
    expect(problem(await t.api('GET', '/tables/abc'), 400).detail).toBe('[table_id] must be 1 to 9 digits');
  });

  it('deletes a free table (204) and refuses one a started table use occupies', async () => {
    const { tableId } = await create({ name: 'T1' });
    const busy = await create({ name: 'T2' });
    const order = await t.api('POST', '/orders', { storeId, tableIds: [busy.tableId], items: [{ name: 'Water', sellingPrice: { amount: '0' } }] });
    expect(order.statusCode).toBe(200);
    const res = await t.api('DELETE', `/tables/${tableId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api('GET', `/tables/${tableId}`)).statusCode).toBe(404);
    const useId = order.json().tableUseId;
    expect(problem(await t.api('DELETE', `/tables/${busy.tableId}`), 400)).toEqual(
      badRequest(`[table_id] table ${busy.tableId} is in use by table use ${useId}`),
    );
    // once the party has left the table can go; the ended table use still shows its name
    await t.api('PATCH', `/table_uses/${useId}`, { status: 'ended' });
    expect((await t.api('DELETE', `/tables/${busy.tableId}`)).statusCode).toBe(204);
    expect((await t.api('GET', `/table_uses/${useId}`)).json().tables).toEqual([{ id: busy.tableId, name: 'T2' }]);
  });

  it('lists by store with paging and a Link header', async () => {
    const other = (await t.api('POST', '/stores', { storeName: 'Second' })).json().storeId;
    for (let i = 1; i <= 3; i++) await create({ name: `T${i}`, displaySequence: String(10 - i) });
    await t.api('POST', '/tables', { storeId: other, name: 'X' });
    const all = await t.api('GET', '/tables');
    expect(all.json()).toHaveLength(4);
    const page1 = await t.api('GET', `/tables?store_id=${storeId}&limit=2&sort=displaySequence`);
    expect(page1.json().map((r: { name: string }) => r.name)).toEqual(['T3', 'T2']);
    expect(page1.headers.link).toBe(`<http://localhost/${t.contractId}/pos/tables?store_id=${storeId}&limit=2&sort=displaySequence&page=2>; rel="next"`);
    const page2 = await t.api('GET', `/tables?store_id=${storeId}&limit=2&sort=displaySequence&page=2`);
    expect(page2.json().map((r: { name: string }) => r.name)).toEqual(['T1']);
    expect(page2.headers.link).toBe(`<http://localhost/${t.contractId}/pos/tables?store_id=${storeId}&limit=2&sort=displaySequence&page=1>; rel="prev"`);
    expect(problem(await t.api('GET', '/tables?limit=101'), 400).detail).toBe('[limit] limit must be at most 100');
    expect(problem(await t.api('GET', '/tables?sort=seats'), 400).detail).toContain('[sort] seats is not a sort key');
  });

  it('sorts a table without displaySequence first ascending and last descending, on either engine', async () => {
    await create({ name: 'Two', displaySequence: '2' });
    await create({ name: 'None' });
    await create({ name: 'One', displaySequence: '1' });
    const names = async (sort: string) => (await t.api('GET', `/tables?store_id=${storeId}&sort=${sort}`)).json().map((r: { name: string }) => r.name);
    expect(await names('displaySequence')).toEqual(['None', 'One', 'Two']);
    expect(await names('displaySequence:desc')).toEqual(['Two', 'One', 'None']);
  });

  it('is read with waiter.stores:read and written with pos.stores:write', async () => {
    const reader = await t.tokenFor({ scopes: ['waiter.stores:read', 'pos.orders:write'] });
    expect(problem(await t.api('POST', '/tables', { storeId, name: 'T' }, reader), 403).detail).toBe('[scope] the token lacks the scope pos.stores:write');
    const other = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect(problem(await t.api('GET', '/tables', undefined, other), 403).detail).toBe('[scope] the token lacks the scope waiter.stores:read');
  });
});
