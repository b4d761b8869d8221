import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { waiterApi } from './waiter-api.js';

/** Staff calls (issue 26): POST /staff_calls as platform clients send it, read and answered here. */

const AT = '2026-11-22T10:00:00+09:00';
const LATER = '2026-11-22T10:01:00+09:00';

describe('staff calls', () => {
  let t: TestApp;
  let store: string;
  let tables: string[];
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'food_business' });
    store = (await t.api('POST', '/stores', { storeName: 'Bistro' })).json().storeId;
    tables = [];
    for (const name of ['T1', 'T2']) tables.push((await t.api('POST', '/tables', { storeId: store, name })).json().tableId);
  });
  afterEach(() => t.close());

  const waiter = (method: string, path: string, body?: unknown, token?: string) => waiterApi(t, method, path, body, token);

  it('records a call from a table with the party seated there, reported for sync; answered once', async () => {
    const use = (await waiter('POST', '/table_uses', { storeId: store, tableId: tables[0] })).json();
    const caller = await t.tokenFor({ scopes: ['waiter.staff-calls:write'] });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await waiter('POST', '/staff_calls', { storeId: store, tableId: tables[0], message: 'お水ください' }, caller);
    expect(res.statusCode).toBe(200);
    const call = res.json();
    expect(call).toEqual({
      staffCallId: call.staffCallId,
      storeId: store,
      tableId: tables[0],
      tableName: 'T1',
      tableUseId: use.id,
      message: 'お水ください',
      status: 'calling',
      sentAt: AT,
      answeredAt: null,
      answeredStaffId: null,
    });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'staff_call', id: call.staffCallId, op: 'insert' }]);
    // Without a message or a table: the default words; a free table has no party.
    expect((await waiter('POST', '/staff_calls', { storeId: store, tableId: tables[1] })).json()).toMatchObject({ message: 'T2 のお客様がお呼びです', tableUseId: null });
    expect((await waiter('POST', '/staff_calls', { storeId: store })).json()).toMatchObject({ message: 'お客様がお呼びです', tableId: null, tableName: null });

    t.clock.advance(60_000);
    const staff = (await t.api('POST', '/staffs', { staffCode: 'S1', staffName: 'Aoki' })).json().staffId;
    const answered = await waiter('PATCH', `/staff_calls/${call.staffCallId}`, { status: 'answered', staffId: staff }, caller);
    expect(answered.json()).toEqual({ ...call, status: 'answered', answeredAt: LATER, answeredStaffId: staff });
    t.clock.advance(60_000);
    expect((await waiter('PATCH', `/staff_calls/${call.staffCallId}`, { status: 'answered' })).json().answeredAt).toBe(LATER);
  });

  it('lists the calling ones newest first; status, store and table filters; read with waiter.staff-calls:read', async () => {
    const a = (await waiter('POST', '/staff_calls', { storeId: store, tableId: tables[0] })).json();
    t.clock.advance(1000);
    const b = (await waiter('POST', '/staff_calls', { storeId: store, tableId: tables[1] })).json();
    await waiter('PATCH', `/staff_calls/${a.staffCallId}`, { status: 'answered' });
    const reader = await t.tokenFor({ scopes: ['waiter.staff-calls:read'] });
    const ids = async (query: string) => ((await waiter('GET', `/staff_calls${query}`, undefined, reader)).json() as { staffCallId: string }[]).map((c) => c.staffCallId);
    expect(await ids('')).toEqual([b.staffCallId]);
    expect(await ids('?status=all')).toEqual([b.staffCallId, a.staffCallId]);
    expect(await ids('?status=answered')).toEqual([a.staffCallId]);
    expect(await ids(`?status=all&table_id=${tables[0]}&store_id=${store}`)).toEqual([a.staffCallId]);
    expect(await ids('?status=all&sort=sentAt')).toEqual([a.staffCallId, b.staffCallId]);
    expect((await waiter('GET', `/staff_calls/${a.staffCallId}`, undefined, reader)).json().status).toBe('answered');
    expect(problem(await waiter('GET', '/staff_calls/999', undefined, reader), 404).detail).toBe('[staff_call_id] staff call 999 does not exist');
    expect(problem(await waiter('POST', '/staff_calls', { storeId: store }, reader), 403).detail).toBe('[scope] the token lacks the scope waiter.staff-calls:write');
    expect(problem(await waiter('GET', '/staff_calls', undefined, await t.tokenFor({ scopes: ['waiter.orders:read'] })), 403).detail).toBe(
      '[scope] the token lacks the scope waiter.staff-calls:read',
    );
  });

  it('refuses a table of another store, a party not seated there, a closed table use, a missing staff; nothing is written', async () => {
    const other = (await t.api('POST', '/stores', { storeName: 'Other' })).json().storeId;
    const seated = (await waiter('POST', '/table_uses', { storeId: store, tableId: tables[0] })).json();
    const elsewhere = (await waiter('POST', '/table_uses', { storeId: store, tableId: tables[1] })).json();
    const refusals: [unknown, string][] = [
      [{ storeId: other, tableId: tables[0] }, `[tableId] table ${tables[0]} does not exist in store ${other}`],
      [{ storeId: '999' }, '[storeId] store 999 does not exist'],
      [{ storeId: store, tableId: tables[0], tableUseId: elsewhere.id }, `[tableUseId] table ${tables[0]} is in table use ${seated.id}, not in table use ${elsewhere.id}`],
      [{ storeId: store, tableUseId: '999' }, `[tableUseId] table use 999 does not exist in store ${store}`],
      [{ storeId: store, message: 'x'.repeat(201) }, '[message] must be at most 200 characters'],
    ];
    for (const [body, detail] of refusals) expect(problem(await waiter('POST', '/staff_calls', body), 400).detail, JSON.stringify(body)).toBe(detail);
    await waiter('PATCH', `/table_uses/${elsewhere.id}`, { status: 'ended' });
    expect(problem(await waiter('POST', '/staff_calls', { storeId: store, tableUseId: elsewhere.id }), 400).detail).toBe(
      `[tableUseId] table use ${elsewhere.id} is ended; only a seated party calls staff`,
    );
    expect((t.deps.db.prepare('SELECT count(*) AS n FROM staff_calls').get() as { n: number }).n).toBe(0);
    const call = (await waiter('POST', '/staff_calls', { storeId: store, tableUseId: seated.id })).json();
    expect(call).toMatchObject({ tableUseId: seated.id, tableId: null });
    expect(problem(await waiter('PATCH', `/staff_calls/${call.staffCallId}`, { status: 'answered', staffId: '999' }), 400).detail).toBe('[staffId] staff 999 does not exist');
    expect(problem(await waiter('PATCH', `/staff_calls/${call.staffCallId}`, { status: 'calling' }), 400).detail).toBe('[status] must be one of answered');
  });
});
