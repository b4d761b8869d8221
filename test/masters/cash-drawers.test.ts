import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { CashDrawer } from '../../server/masters/cash-drawers/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/cash_drawers';

describe('cash drawers', () => {
  let t: TestApp;
  let storeA: string;
  let storeB: string;
  beforeEach(async () => {
    t = await makeTestApp();
    storeA = (await t.api('POST', '/stores', { storeName: 'A' })).json().storeId;
    storeB = (await t.api('POST', '/stores', { storeName: 'B' })).json().storeId;
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<CashDrawer> => {
    const res = await t.api('POST', '/cash_drawers', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  describe('POST /cash_drawers', () => {
    it('creates a usable drawer by default, times in the contract zone', async () => {
      const res = await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: 'Drawer 1' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        cashDrawerId: '1001',
        storeId: storeA,
        cashDrawerName: 'Drawer 1',
        useStopDivision: '0',
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
    });

    it('stores useStopDivision 1 and reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const drawer = await create({ storeId: storeB, cashDrawerName: 'Spare', useStopDivision: '1' });
      expect(drawer).toMatchObject({ storeId: storeB, useStopDivision: '1' });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'cash_drawer', id: drawer.cashDrawerId, op: 'insert' }]);
    });

    it('refuses a store that does not exist, another contract\'s store and bad fields', async () => {
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: '999', cashDrawerName: 'D' }), 400).detail).toBe(
        '[storeId] store 999 does not exist',
      );
      t.addContract('other', 'standard');
      const otherToken = await t.tokenFor({ contractId: 'other' });
      const other = await t.app.inject({
        method: 'POST',
        url: '/other/pos/stores',
        headers: { authorization: `Bearer ${otherToken}` },
        payload: { storeName: 'Other' },
      });
      const otherStore = other.json().storeId;
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: otherStore, cashDrawerName: 'D' }), 400).detail).toBe(
        `[storeId] store ${otherStore} does not exist`,
      );
      expect(problem(await t.api('POST', '/cash_drawers', { cashDrawerName: 'D' }), 400).detail).toBe('[storeId] is required');
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA }), 400).detail).toBe('[cashDrawerName] is required');
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: ' ' }), 400).detail).toBe(
        '[cashDrawerName] must not be empty',
      );
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: 'x'.repeat(86) }), 400).detail).toBe(
        '[cashDrawerName] must be at most 85 characters',
      );
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: 'D', useStopDivision: '2' }), 400).detail).toBe(
        '[useStopDivision] must be one of 0, 1',
      );
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: 'D', color: 'red' }), 400).detail).toBe(
        '[color] is not a known field',
      );
      expect((await t.api('GET', '/cash_drawers')).json()).toEqual([]);
    });

    it('is open to every plan, enterprise included', async () => {
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        const store = (await e.api('POST', '/stores', { storeName: 'E' })).json().storeId;
        expect((await e.api('POST', '/cash_drawers', { storeId: store, cashDrawerName: 'D' })).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });

    it('needs pos.stores:write to create and pos.stores:read to read', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.stores:read'] });
      expect(problem(await t.api('POST', '/cash_drawers', { storeId: storeA, cashDrawerName: 'D' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.stores:write',
      );
      const other = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('GET', '/cash_drawers', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.stores:read');
    });
  });

  describe('GET /cash_drawers', () => {
    it('filters by store and use, pages with Link', async () => {
      for (const n of ['1', '2', '3']) await create({ storeId: storeA, cashDrawerName: `A${n}` });
      await create({ storeId: storeB, cashDrawerName: 'B1', useStopDivision: '1' });

      const names = (res: { json(): unknown }) => (res.json() as CashDrawer[]).map((d) => d.cashDrawerName);
      expect(names(await t.api('GET', `/cash_drawers?store_id=${storeB}`))).toEqual(['B1']);
      expect(names(await t.api('GET', '/cash_drawers?use_stop_division=0'))).toEqual(['A1', 'A2', 'A3']);
      expect(names(await t.api('GET', '/cash_drawers?sort=cashDrawerId:desc'))).toEqual(['B1', 'A3', 'A2', 'A1']);

      const first = await t.api('GET', `/cash_drawers?store_id=${storeA}&limit=2`);
      expect(names(first)).toEqual(['A1', 'A2']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?store_id=${storeA}&limit=2&page=2>; rel="next"`);
      const second = await t.api('GET', `/cash_drawers?store_id=${storeA}&limit=2&page=2`);
      expect(names(second)).toEqual(['A3']);
      expect(second.headers.link).toBe(`<${LINK_BASE}?store_id=${storeA}&limit=2&page=1>; rel="prev"`);
      expect((await t.api('GET', '/cash_drawers')).headers.link).toBeUndefined();
    });

    it('refuses a malformed filter, sort or unknown parameter', async () => {
      expect(problem(await t.api('GET', '/cash_drawers?store_id=x'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/cash_drawers?sort=uuid'), 400).detail).toContain('[sort] uuid is not a sort key');
      expect(problem(await t.api('GET', '/cash_drawers?name=x'), 400).detail).toBe('[name] is not a known field');
    });
  });

  describe('GET /cash_drawers/{cash_drawer_id}', () => {
    it('answers the drawer, 404 when absent, 400 for a malformed id', async () => {
      const d = await create({ storeId: storeA, cashDrawerName: 'D' });
      expect((await t.api('GET', `/cash_drawers/${d.cashDrawerId}`)).json()).toEqual(d);
      expect(problem(await t.api('GET', '/cash_drawers/999'), 404).detail).toBe('[cash_drawer_id] cash drawer 999 does not exist');
      expect(problem(await t.api('GET', '/cash_drawers/abc'), 400).detail).toBe('[cash_drawer_id] must be 1 to 9 digits');
    });
  });

  describe('PATCH /cash_drawers/{cash_drawer_id}', () => {
    it('changes only the keys sent and bumps updDateTime', async () => {
      const d = await create({ storeId: storeA, cashDrawerName: 'D' });
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { cashDrawerName: 'Front', storeId: storeB, useStopDivision: '1' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...d, cashDrawerName: 'Front', storeId: storeB, useStopDivision: '1', updDateTime: AT_10_01 });
    });

    it('refuses an empty body, unknown keys, a missing store and a missing drawer', async () => {
      const d = await create({ storeId: storeA, cashDrawerName: 'D' });
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { cashDrawerName: 'X', kind: 'x' }), 400).detail).toBe('[kind] is not a known field');
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { storeId: '999' }), 400).detail).toBe(
        '[storeId] store 999 does not exist',
      );
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { cashDrawerName: null }), 400).detail).toContain('[cashDrawerName]');
      expect(problem(await t.api('PATCH', '/cash_drawers/999', { cashDrawerName: 'X' }), 404).detail).toBe(
        '[cash_drawer_id] cash drawer 999 does not exist',
      );
      expect((await t.api('GET', `/cash_drawers/${d.cashDrawerId}`)).json()).toEqual(d);
    });

    it('keeps a drawer linked to a terminal in its store and usable until unlinked', async () => {
      const d = await create({ storeId: storeA, cashDrawerName: 'D' });
      const term = (await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'R1', cashDrawerId: d.cashDrawerId })).json()[0];
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { storeId: storeB }), 400).detail).toBe(
        `[storeId] cash drawer ${d.cashDrawerId} is linked to terminal ${term.terminalId}; unlink it before it can move to another store`,
      );
      expect(problem(await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { useStopDivision: '1' }), 400).detail).toBe(
        `[useStopDivision] cash drawer ${d.cashDrawerId} is linked to terminal ${term.terminalId}; unlink it before it can be stopped`,
      );
      // the same store and a rename are fine while linked
      expect((await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { storeId: storeA, cashDrawerName: 'Main' })).statusCode).toBe(200);
      expect((await t.api('PATCH', `/terminals/${term.terminalId}`, { cashDrawerId: null })).statusCode).toBe(200);
      expect((await t.api('PATCH', `/cash_drawers/${d.cashDrawerId}`, { useStopDivision: '1', storeId: storeB })).json()).toMatchObject({
        useStopDivision: '1',
        storeId: storeB,
      });
    });
  });
});
