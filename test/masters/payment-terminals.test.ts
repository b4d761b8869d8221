import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import type { PaymentTerminal } from '../../server/masters/payment-terminals/schema.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/payment_terminals';
const NO_LINKAGE =
  'the contract has no CAT/CCT linkage (contract setting catCctLinkage), so payment terminals cannot be registered or changed';

describe('payment terminals (CAT/CCT)', () => {
  let t: TestApp;
  let store: string;
  const setLinkage = (on: boolean) => new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, { catCctLinkage: on });
  beforeEach(async () => {
    t = await makeTestApp();
    store = (await t.api('POST', '/stores', { storeName: 'A' })).json().storeId;
    setLinkage(true);
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<PaymentTerminal> => {
    const res = await t.api('POST', '/payment_terminals', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  describe('POST /payment_terminals', () => {
    it('creates a device with nulls for unset fields', async () => {
      const res = await t.api('POST', '/payment_terminals', { name: 'CAT 1', kind: 'CAT' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        paymentTerminalId: '1001',
        storeId: null,
        name: 'CAT 1',
        kind: 'CAT',
        deviceCode: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
    });

    it('stores every field and reports the insert', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((c) => changes.push(c));
      const d = await create({ storeId: store, name: 'CCT front', kind: 'CCT', deviceCode: 'SN-0042' });
      expect(d).toMatchObject({ storeId: store, name: 'CCT front', kind: 'CCT', deviceCode: 'SN-0042' });
      expect(changes).toEqual([{ contractId: 'test-contract', entity: 'payment_terminal', id: d.paymentTerminalId, op: 'insert' }]);
    });

    it('is a 403 without the CAT/CCT linkage, and nothing is stored', async () => {
      setLinkage(false);
      const body = problem(await t.api('POST', '/payment_terminals', { name: 'CAT 1', kind: 'CAT' }), 403);
      expect(body).toEqual({ type: 'about:blank', title: 'Forbidden', status: 403, detail: NO_LINKAGE });
      expect((await t.api('GET', '/payment_terminals')).json()).toEqual([]);
    });

    it('refuses a missing store and bad fields', async () => {
      expect(problem(await t.api('POST', '/payment_terminals', { storeId: '999', name: 'C', kind: 'CAT' }), 400).detail).toBe(
        '[storeId] store 999 does not exist',
      );
      expect(problem(await t.api('POST', '/payment_terminals', { name: 'C' }), 400).detail).toBe('[kind] is required');
      expect(problem(await t.api('POST', '/payment_terminals', { kind: 'CAT' }), 400).detail).toBe('[name] is required');
      expect(problem(await t.api('POST', '/payment_terminals', { name: 'C', kind: 'POS' }), 400).detail).toBe('[kind] must be one of CAT, CCT');
      expect(problem(await t.api('POST', '/payment_terminals', { name: 'C', kind: 'CAT', deviceCode: 'a b' }), 400).detail).toBe(
        '[deviceCode] must be 1 to 64 half-width alphanumerics or symbols',
      );
      expect(problem(await t.api('POST', '/payment_terminals', { name: 'C', kind: 'CAT', serial: '1' }), 400).detail).toBe(
        '[serial] is not a known field',
      );
      expect((await t.api('GET', '/payment_terminals')).json()).toEqual([]);
    });

    it('is open to every plan that has the linkage, enterprise included', async () => {
      const e = await makeTestApp({ plan: 'enterprise' });
      try {
        new ContractRepo(e.deps.db, e.deps.writer, e.clock).setSettings(e.contractId, { catCctLinkage: true });
        expect((await e.api('POST', '/payment_terminals', { name: 'C', kind: 'CAT' })).statusCode).toBe(200);
      } finally {
        await e.close();
      }
    });

    it('needs pos.stores:write', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.stores:read'] });
      expect(problem(await t.api('POST', '/payment_terminals', { name: 'C', kind: 'CAT' }, reader), 403).detail).toBe(
        '[scope] the token lacks the scope pos.stores:write',
      );
    });
  });

  describe('GET /payment_terminals', () => {
    it('filters by store and kind, pages with Link, stays readable without the linkage', async () => {
      await create({ storeId: store, name: 'P1', kind: 'CAT' });
      await create({ storeId: store, name: 'P2', kind: 'CCT' });
      await create({ name: 'P3', kind: 'CAT' });
      const names = (res: { json(): unknown }) => (res.json() as PaymentTerminal[]).map((d) => d.name);
      expect(names(await t.api('GET', `/payment_terminals?store_id=${store}`))).toEqual(['P1', 'P2']);
      expect(names(await t.api('GET', '/payment_terminals?kind=CAT'))).toEqual(['P1', 'P3']);
      expect(names(await t.api('GET', '/payment_terminals?sort=name:desc'))).toEqual(['P3', 'P2', 'P1']);
      const first = await t.api('GET', '/payment_terminals?limit=2');
      expect(names(first)).toEqual(['P1', 'P2']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&page=2>; rel="next"`);
      const last = await t.api('GET', '/payment_terminals?limit=2&page=2');
      expect(names(last)).toEqual(['P3']);
      expect(last.headers.link).toBe(`<${LINK_BASE}?limit=2&page=1>; rel="prev"`);

      setLinkage(false);
      expect(names(await t.api('GET', '/payment_terminals'))).toEqual(['P1', 'P2', 'P3']);
      expect(problem(await t.api('GET', '/payment_terminals?kind=XYZ'), 400).detail).toBe('[kind] must be one of CAT, CCT');
    });
  });

  describe('GET and PATCH /payment_terminals/{payment_terminal_id}', () => {
    it('gets the device, 404 when absent, 400 for a malformed id', async () => {
      const d = await create({ name: 'P', kind: 'CAT' });
      expect((await t.api('GET', `/payment_terminals/${d.paymentTerminalId}`)).json()).toEqual(d);
      expect(problem(await t.api('GET', '/payment_terminals/999'), 404).detail).toBe('[payment_terminal_id] payment terminal 999 does not exist');
      expect(problem(await t.api('GET', '/payment_terminals/9x'), 400).detail).toBe('[payment_terminal_id] must be 1 to 9 digits');
    });

    it('changes only the keys sent; null or "" clears storeId and deviceCode', async () => {
      const d = await create({ storeId: store, name: 'P', kind: 'CAT', deviceCode: 'SN-1' });
      t.clock.advance(60_000);
      const renamed = await t.api('PATCH', `/payment_terminals/${d.paymentTerminalId}`, { name: 'Q', kind: 'CCT' });
      expect(renamed.json()).toEqual({ ...d, name: 'Q', kind: 'CCT', updDateTime: AT_10_01 });
      const cleared = await t.api('PATCH', `/payment_terminals/${d.paymentTerminalId}`, { storeId: null, deviceCode: '' });
      expect(cleared.json()).toMatchObject({ storeId: null, deviceCode: null });
    });

    it('refuses an empty body, a missing store or device, and a change without the linkage', async () => {
      const d = await create({ name: 'P', kind: 'CAT' });
      const path = `/payment_terminals/${d.paymentTerminalId}`;
      expect(problem(await t.api('PATCH', path, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', path, { storeId: '999' }), 400).detail).toBe('[storeId] store 999 does not exist');
      expect(problem(await t.api('PATCH', '/payment_terminals/999', { name: 'X' }), 404).detail).toBe(
        '[payment_terminal_id] payment terminal 999 does not exist',
      );
      setLinkage(false);
      expect(problem(await t.api('PATCH', path, { name: 'X' }), 403).detail).toBe(NO_LINKAGE);
      expect((await t.api('GET', path)).json()).toEqual(d);
    });
  });
});
