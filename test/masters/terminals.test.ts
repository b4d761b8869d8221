import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Plan } from '../../server/domain/plans.js';
import { ContractRepo, type ContractSettings } from '../../server/platform/contracts/repo.js';
import type { Terminal } from '../../server/masters/terminals/schema.js';
import { seedTerminals } from '../../server/seed/demo-terminals.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const AT_10_01 = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/terminals';
const FIVE: Plan[] = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];

let t: TestApp;
let storeA: string;
let storeB: string;
let suspended: string;

async function setUp(plan: Plan = 'retail_business') {
  t = await makeTestApp({ plan });
  storeA = (await t.api('POST', '/stores', { storeName: 'A' })).json().storeId;
  storeB = (await t.api('POST', '/stores', { storeName: 'B' })).json().storeId;
  suspended = (await t.api('POST', '/stores', { storeName: 'S', pauseFlag: '1' })).json().storeId;
}
const settings = (s: Partial<ContractSettings>) => new ContractRepo(t.deps.db, t.deps.writer, t.clock).setSettings(t.contractId, s);
const ok = async (method: string, path: string, body: Record<string, unknown>) => {
  const res = await t.api(method, path, body);
  if (res.statusCode !== 200) throw new Error(`${method} ${path} failed: ${res.statusCode} ${res.body}`);
  return res.json();
};
const create = async (body: Record<string, unknown>): Promise<Terminal> => (await ok('POST', '/terminals', body))[0];
const drawer = async (storeId: string, useStopDivision = '0'): Promise<string> =>
  (await ok('POST', '/cash_drawers', { storeId, cashDrawerName: 'D', useStopDivision })).cashDrawerId;
const device = async (): Promise<string> => (await ok('POST', '/payment_terminals', { name: 'CAT', kind: 'CAT' })).paymentTerminalId;
const detail = async (status: number, method: string, path: string, body: Record<string, unknown>) =>
  problem(await t.api(method, path, body), status).detail;
const count = async () => ((await t.api('GET', '/terminals')).json() as Terminal[]).length;

describe('POST /terminals (4.16)', () => {
  beforeEach(() => setUp());
  afterEach(() => t.close());

  it('answers an array holding the terminal, with defaults and nulls', async () => {
    const res = await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'Register 1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        terminalId: '1001',
        storeId: storeA,
        terminalName: 'Register 1',
        uuid: null,
        useStopDivision: '0',
        transactionEditableFlag: '0',
        selfCheckoutAvailableFlag: '0',
        smartIdEngineAvailableFlag: '0',
        creditTerminalId: null,
        cashDrawerId: null,
        parentTerminalId: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      },
    ]);
  });

  it('stores every field of 2.11 and reports the insert', async () => {
    settings({ catCctLinkage: true, maxSelfCheckoutTerminals: 1, maxSmartIdEngines: 1 });
    const [d, cat, parent] = [await drawer(storeA), await device(), await create({ storeId: storeA, terminalName: 'P' })];
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const body = {
      storeId: storeA,
      terminalName: 'Self 1',
      uuid: '6F1C2A40-0001-4000-8000-000000000001',
      useStopDivision: '0',
      transactionEditableFlag: '1',
      selfCheckoutAvailableFlag: '1',
      smartIdEngineAvailableFlag: '1',
      creditTerminalId: cat,
      cashDrawerId: d,
      parentTerminalId: parent.terminalId,
    };
    const created = await create(body);
    expect(created).toEqual({ ...body, terminalId: created.terminalId, insDateTime: AT_10_00, updDateTime: AT_10_00 });
    expect(changes).toEqual([{ contractId: 'test-contract', entity: 'terminal', id: created.terminalId, op: 'insert' }]);
    expect((await t.api('GET', `/terminals/${created.terminalId}`)).json()).toEqual(created);
  });

  it('validates the body: required fields, formats, unknown keys', async () => {
    expect(await detail(400, 'POST', '/terminals', { terminalName: 'R' })).toBe('[storeId] is required');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA })).toBe('[terminalName] is required');
    expect(await detail(400, 'POST', '/terminals', { storeId: 'A1', terminalName: 'R' })).toBe('[storeId] must be 1 to 9 digits');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'x'.repeat(86) })).toBe('[terminalName] must be at most 85 characters');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', uuid: 'has space' })).toBe(
      '[uuid] must be 1 to 64 half-width alphanumerics or symbols',
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', useStopDivision: '2' })).toBe('[useStopDivision] must be one of 0, 1');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', smartIdEngineAvailableFlag: 1 })).toBe(
      '[smartIdEngineAvailableFlag] must be one of 0, 1',
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', cashDrawerId: 'x' })).toBe('[cashDrawerId] must be 1 to 9 digits');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', terminalId: '5' })).toBe('[terminalId] is not a known field');
    // null and "" mean "none" for the optional references and uuid
    const t1 = await create({ storeId: storeA, terminalName: 'R', uuid: '', cashDrawerId: null, parentTerminalId: '', creditTerminalId: null });
    expect(t1).toMatchObject({ uuid: null, cashDrawerId: null, parentTerminalId: null, creditTerminalId: null });
  });

  it('400 when the store does not exist or is suspended', async () => {
    expect(await detail(400, 'POST', '/terminals', { storeId: '999', terminalName: 'R' })).toBe('[storeId] store 999 does not exist');
    expect(await detail(400, 'POST', '/terminals', { storeId: suspended, terminalName: 'R' })).toBe(`[storeId] store ${suspended} is suspended`);
    expect(await count()).toBe(0);
  });

  it('400 over the sales terminal cap; stopped terminals hold no seat', async () => {
    settings({ maxSalesTerminals: 2 });
    await create({ storeId: storeA, terminalName: 'R1' });
    const r2 = await create({ storeId: storeB, terminalName: 'R2' });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R3' })).toBe(
      "[useStopDivision] the contract's sales terminal cap of 2 is reached (2 in use); register it with useStopDivision 1 or stop another terminal",
    );
    expect(await create({ storeId: storeA, terminalName: 'R3', useStopDivision: '1' })).toMatchObject({ useStopDivision: '1' });
    await ok('PATCH', `/terminals/${r2.terminalId}`, { useStopDivision: '1' });
    expect((await create({ storeId: storeA, terminalName: 'R4' })).terminalName).toBe('R4');
    expect(await count()).toBe(4);
  });

  it('400 for a uuid already used in the contract (without case), fine in another contract', async () => {
    const first = await create({ storeId: storeA, terminalName: 'R1', uuid: 'abc-123' });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeB, terminalName: 'R2', uuid: 'ABC-123' })).toBe(
      `[uuid] uuid ABC-123 is already used by terminal ${first.terminalId}`,
    );
    t.addContract('other', 'standard');
    const token = await t.tokenFor({ contractId: 'other' });
    const inject = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/other/pos${url}`, headers: { authorization: `Bearer ${token}` }, payload });
    const otherStore = (await inject('/stores', { storeName: 'O' })).json().storeId;
    expect((await inject('/terminals', { storeId: otherStore, terminalName: 'O1', uuid: 'abc-123' })).statusCode).toBe(200);
  });

  it('400 over the self-checkout and smart ID engine caps (flag 1 in use)', async () => {
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'S', selfCheckoutAvailableFlag: '1' })).toBe(
      "[selfCheckoutAvailableFlag] the contract's self-checkout terminal cap of 0 is reached (0 in use)",
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'S', smartIdEngineAvailableFlag: '1' })).toBe(
      "[smartIdEngineAvailableFlag] the contract's smart ID engine cap of 0 is reached (0 in use)",
    );
    settings({ maxSelfCheckoutTerminals: 1, maxSmartIdEngines: 1 });
    await create({ storeId: storeA, terminalName: 'S1', selfCheckoutAvailableFlag: '1', smartIdEngineAvailableFlag: '1' });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'S2', selfCheckoutAvailableFlag: '1' })).toBe(
      "[selfCheckoutAvailableFlag] the contract's self-checkout terminal cap of 1 is reached (1 in use)",
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'S2', smartIdEngineAvailableFlag: '1' })).toBe(
      "[smartIdEngineAvailableFlag] the contract's smart ID engine cap of 1 is reached (1 in use)",
    );
    // a stopped terminal holds no seat, so it may carry the flags
    await create({ storeId: storeA, terminalName: 'S3', useStopDivision: '1', selfCheckoutAvailableFlag: '1', smartIdEngineAvailableFlag: '1' });
    expect(await count()).toBe(2);
  });

  it('creditTerminalId: 403 without CAT/CCT linkage; with it 400 when absent or used elsewhere', async () => {
    expect(problem(await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'R', creditTerminalId: '1001' }), 403)).toEqual({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: '[creditTerminalId] the contract has no CAT/CCT linkage (contract setting catCctLinkage), so a payment terminal cannot be linked',
    });
    settings({ catCctLinkage: true });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', creditTerminalId: '999' })).toBe(
      '[creditTerminalId] payment terminal 999 does not exist',
    );
    const cat = await device();
    const r1 = await create({ storeId: storeA, terminalName: 'R1', creditTerminalId: cat });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeB, terminalName: 'R2', creditTerminalId: cat })).toBe(
      `[creditTerminalId] payment terminal ${cat} is already linked to terminal ${r1.terminalId}`,
    );
    expect(await count()).toBe(1);
  });

  it('cashDrawerId: 400 when absent, of another store, or not usable', async () => {
    const [other, stopped] = [await drawer(storeB), await drawer(storeA, '1')];
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', cashDrawerId: '999' })).toBe('[cashDrawerId] cash drawer 999 does not exist');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', cashDrawerId: other })).toBe(
      `[cashDrawerId] cash drawer ${other} belongs to store ${storeB}, not to store ${storeA}`,
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', cashDrawerId: stopped })).toBe(
      `[cashDrawerId] cash drawer ${stopped} is not usable (useStopDivision 1)`,
    );
    expect(await count()).toBe(0);
  });

  it('parentTerminalId: 400 when absent, of another store, or itself a child', async () => {
    const parent = await create({ storeId: storeA, terminalName: 'P' });
    const child = await create({ storeId: storeA, terminalName: 'C', parentTerminalId: parent.terminalId });
    const elsewhere = await create({ storeId: storeB, terminalName: 'B' });
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', parentTerminalId: '999' })).toBe('[parentTerminalId] terminal 999 does not exist');
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', parentTerminalId: elsewhere.terminalId })).toBe(
      `[parentTerminalId] terminal ${elsewhere.terminalId} belongs to store ${storeB}, not to store ${storeA}`,
    );
    expect(await detail(400, 'POST', '/terminals', { storeId: storeA, terminalName: 'R', parentTerminalId: child.terminalId })).toBe(
      `[parentTerminalId] terminal ${child.terminalId} is itself the child of terminal ${parent.terminalId}`,
    );
    expect(await count()).toBe(3);
  });

  it('plan-limited flags: 403 for 1 on a plan without them, 0 is fine everywhere', async () => {
    const editable: Plan[] = ['premium_plus', 'food_business', 'retail_business'];
    for (const plan of FIVE) {
      await t.close();
      await setUp(plan);
      settings({ maxSelfCheckoutTerminals: 5 });
      const edit = await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'R', transactionEditableFlag: '1' });
      if (editable.includes(plan)) expect(edit.statusCode).toBe(200);
      else {
        expect(problem(edit, 403).detail).toBe(
          `[transactionEditableFlag] the contract's plan ${plan} cannot use transaction editing (plans: premium_plus, food_business, retail_business)`,
        );
      }
      const self = await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'S', selfCheckoutAvailableFlag: '1' });
      if (plan === 'retail_business') expect(self.statusCode).toBe(200);
      else expect(problem(self, 403).detail).toBe(`[selfCheckoutAvailableFlag] the contract's plan ${plan} cannot use self-checkout terminals (plans: retail_business)`);
      const zeros = { storeId: storeA, terminalName: 'Z', transactionEditableFlag: '0', selfCheckoutAvailableFlag: '0' };
      expect((await t.api('POST', '/terminals', zeros)).statusCode).toBe(200);
    }
  });

  it('plan line: the five plans may register, enterprise is a 403', async () => {
    await t.close();
    await setUp('enterprise');
    expect(await detail(403, 'POST', '/terminals', { storeId: storeA, terminalName: 'R' })).toBe(
      "the contract's plan enterprise cannot use POST /terminals (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    // the supporting list stays open to every plan
    expect((await t.api('GET', '/terminals')).statusCode).toBe(200);
  });

  it('order of checks: 403s, then store, uuid, CAT/CCT, drawer, parent, then the caps', async () => {
    await t.close();
    await setUp('standard');
    settings({ maxSalesTerminals: 1 });
    const first = await create({ storeId: storeA, terminalName: 'R1', uuid: 'U1' });
    const all = { storeId: '999', terminalName: 'R', uuid: 'U1', creditTerminalId: '999', cashDrawerId: '999', parentTerminalId: '999' };
    const refused = async (body: Record<string, unknown>) => (await t.api('POST', '/terminals', body)).json().detail as string;
    expect(await refused({ ...all, transactionEditableFlag: '1' })).toMatch(/^\[transactionEditableFlag\] /);
    expect(await refused(all)).toMatch(/^\[creditTerminalId\] the contract has no CAT\/CCT linkage/);
    settings({ catCctLinkage: true });
    expect(await refused(all)).toBe('[storeId] store 999 does not exist');
    expect(await refused({ ...all, storeId: storeA })).toBe(`[uuid] uuid U1 is already used by terminal ${first.terminalId}`);
    expect(await refused({ ...all, storeId: storeA, uuid: 'U2' })).toBe('[creditTerminalId] payment terminal 999 does not exist');
    expect(await refused({ ...all, storeId: storeA, uuid: 'U2', creditTerminalId: null })).toBe('[cashDrawerId] cash drawer 999 does not exist');
    expect(await refused({ ...all, storeId: storeA, uuid: 'U2', creditTerminalId: null, cashDrawerId: null })).toBe(
      '[parentTerminalId] terminal 999 does not exist',
    );
    expect(await refused({ storeId: storeA, terminalName: 'R', uuid: 'U2' })).toMatch(/^\[useStopDivision\] the contract's sales terminal cap of 1/);
    expect(await count()).toBe(1);
  });

  it('needs pos.stores:write', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect(problem(await t.api('POST', '/terminals', { storeId: storeA, terminalName: 'R' }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.stores:write',
    );
  });
});

describe('GET /terminals', () => {
  beforeEach(() => setUp());
  afterEach(() => t.close());

  it('filters by store, uuid (without case) and use; sorts; pages with Link', async () => {
    await create({ storeId: storeA, terminalName: 'A1', uuid: 'u-a1' });
    await create({ storeId: storeA, terminalName: 'A2', useStopDivision: '1' });
    await create({ storeId: storeA, terminalName: 'A3' });
    await create({ storeId: storeB, terminalName: 'B1' });
    const names = (res: { json(): unknown }) => (res.json() as Terminal[]).map((x) => x.terminalName);
    expect(names(await t.api('GET', `/terminals?store_id=${storeB}`))).toEqual(['B1']);
    expect(names(await t.api('GET', '/terminals?uuid=U-A1'))).toEqual(['A1']);
    expect(names(await t.api('GET', '/terminals?use_stop_division=1'))).toEqual(['A2']);
    expect(names(await t.api('GET', '/terminals?sort=storeId:desc,terminalName:desc'))).toEqual(['B1', 'A3', 'A2', 'A1']);

    const first = await t.api('GET', `/terminals?store_id=${storeA}&limit=2`);
    expect(names(first)).toEqual(['A1', 'A2']);
    expect(first.headers.link).toBe(`<${LINK_BASE}?store_id=${storeA}&limit=2&page=2>; rel="next"`);
    const last = await t.api('GET', `/terminals?store_id=${storeA}&limit=2&page=2`);
    expect(names(last)).toEqual(['A3']);
    expect(last.headers.link).toBe(`<${LINK_BASE}?store_id=${storeA}&limit=2&page=1>; rel="prev"`);
    expect((await t.api('GET', '/terminals')).headers.link).toBeUndefined();
  });

  it('400 for a malformed filter, sort or unknown parameter; 404/400 for one terminal', async () => {
    expect(problem(await t.api('GET', '/terminals?store_id=A'), 400).detail).toBe('[store_id] must be 1 to 9 digits');
    expect(problem(await t.api('GET', '/terminals?sort=uuid'), 400).detail).toContain('[sort] uuid is not a sort key');
    expect(problem(await t.api('GET', '/terminals?name=x'), 400).detail).toBe('[name] is not a known field');
    expect(problem(await t.api('GET', '/terminals/999'), 404).detail).toBe('[terminal_id] terminal 999 does not exist');
    expect(problem(await t.api('GET', '/terminals/x1'), 400).detail).toBe('[terminal_id] must be 1 to 9 digits');
  });
});

describe('PATCH /terminals/{terminal_id}', () => {
  beforeEach(() => setUp());

  it('takes back the values a terminal already has after its store was suspended, the linkage ended or the plan changed', async () => {
    await settings({ catCctLinkage: true, maxSelfCheckoutTerminals: 2 });
    const cat = await device();
    const reg = await create({ storeId: storeA, terminalName: 'R', creditTerminalId: cat, selfCheckoutAvailableFlag: '1' });
    await ok('PATCH', `/stores/${storeA}`, { pauseFlag: '1' });
    await settings({ catCctLinkage: false });
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'premium_plus');
    // A client that sends the whole terminal back can still stop it.
    const echoed = await ok('PATCH', `/terminals/${reg.terminalId}`, {
      storeId: storeA, creditTerminalId: cat, selfCheckoutAvailableFlag: '1', useStopDivision: '1',
    });
    expect(echoed).toMatchObject({ useStopDivision: '1', creditTerminalId: cat, selfCheckoutAvailableFlag: '1' });
    // New uses are still refused.
    expect(await detail(400, 'PATCH', `/terminals/${reg.terminalId}`, { storeId: suspended })).toBe(`[storeId] store ${suspended} is suspended`);
    await settings({ catCctLinkage: true });
    const otherCat = await device();
    await settings({ catCctLinkage: false });
    expect(await detail(403, 'PATCH', `/terminals/${reg.terminalId}`, { creditTerminalId: otherCat })).toMatch(/^\[creditTerminalId\]/);
    const plain = await create({ storeId: storeB, terminalName: 'P' });
    expect(await detail(403, 'PATCH', `/terminals/${plain.terminalId}`, { selfCheckoutAvailableFlag: '1' })).toMatch(/^\[selfCheckoutAvailableFlag\] the contract's plan premium_plus cannot use/);
  });
  afterEach(() => t.close());
  const patch = (id: string, body: Record<string, unknown>) => t.api('PATCH', `/terminals/${id}`, body);

  it('changes only the keys sent, bumps updDateTime and reports the update', async () => {
    const r = await create({ storeId: storeA, terminalName: 'R', uuid: 'U1' });
    t.clock.advance(60_000);
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await patch(r.terminalId, { terminalName: 'Front', uuid: 'u1', transactionEditableFlag: '1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...r, terminalName: 'Front', uuid: 'u1', transactionEditableFlag: '1', updDateTime: AT_10_01 });
    expect(changes).toEqual([{ contractId: 'test-contract', entity: 'terminal', id: r.terminalId, op: 'update' }]);
    expect((await patch(r.terminalId, { uuid: null })).json().uuid).toBeNull();
  });

  it('400 for an empty body or unknown key, 404 for an absent terminal, 403 before 404', async () => {
    const r = await create({ storeId: storeA, terminalName: 'R' });
    expect(problem(await patch(r.terminalId, {}), 400).detail).toBe('[body] no field to update was given');
    expect(problem(await patch(r.terminalId, { terminalName: 'X', insDateTime: 'x' }), 400).detail).toBe('[insDateTime] is not a known field');
    expect(problem(await patch('999', { terminalName: 'X' }), 404).detail).toBe('[terminal_id] terminal 999 does not exist');
    expect(problem(await patch('999', { creditTerminalId: '1' }), 403).detail).toMatch(/^\[creditTerminalId\] the contract has no CAT\/CCT linkage/);
  });

  it('storeId: must exist and not be suspended; a parent cannot leave its children; kept drawer and parent must follow', async () => {
    const d = await drawer(storeA);
    const parent = await create({ storeId: storeA, terminalName: 'P' });
    const child = await create({ storeId: storeA, terminalName: 'C', cashDrawerId: d, parentTerminalId: parent.terminalId });
    expect(problem(await patch(child.terminalId, { storeId: '999' }), 400).detail).toBe('[storeId] store 999 does not exist');
    expect(problem(await patch(child.terminalId, { storeId: suspended }), 400).detail).toBe(`[storeId] store ${suspended} is suspended`);
    expect(problem(await patch(parent.terminalId, { storeId: storeB }), 400).detail).toBe(
      `[storeId] terminal ${parent.terminalId} is the parent of terminal ${child.terminalId}, which stay in store ${storeA}`,
    );
    expect(problem(await patch(child.terminalId, { storeId: storeB }), 400).detail).toBe(
      `[cashDrawerId] cash drawer ${d} belongs to store ${storeA}, not to store ${storeB}; send the terminal's new cashDrawerId (or null) with storeId`,
    );
    expect(problem(await patch(child.terminalId, { storeId: storeB, cashDrawerId: null }), 400).detail).toBe(
      `[parentTerminalId] terminal ${parent.terminalId} belongs to store ${storeA}, not to store ${storeB}; send the terminal's new parentTerminalId (or null) with storeId`,
    );
    const moved = await patch(child.terminalId, { storeId: storeB, cashDrawerId: await drawer(storeB), parentTerminalId: null });
    expect(moved.json()).toMatchObject({ storeId: storeB, parentTerminalId: null });
    // a terminal already in a store that was suspended later can still be renamed
    await ok('PATCH', `/stores/${storeA}`, { pauseFlag: '1' });
    expect((await patch(parent.terminalId, { terminalName: 'Renamed' })).statusCode).toBe(200);
  });

  it('uuid: unique among the other terminals; its own is fine', async () => {
    const a = await create({ storeId: storeA, terminalName: 'A', uuid: 'UA' });
    const b = await create({ storeId: storeA, terminalName: 'B' });
    expect(problem(await patch(b.terminalId, { uuid: 'ua' }), 400).detail).toBe(`[uuid] uuid ua is already used by terminal ${a.terminalId}`);
    expect((await patch(a.terminalId, { uuid: 'UA' })).statusCode).toBe(200);
  });

  it('creditTerminalId: linkage, existence and one register per device; null clears even without linkage', async () => {
    settings({ catCctLinkage: true });
    const [cat1, cat2] = [await device(), await device()];
    const a = await create({ storeId: storeA, terminalName: 'A', creditTerminalId: cat1 });
    const b = await create({ storeId: storeA, terminalName: 'B' });
    expect(problem(await patch(b.terminalId, { creditTerminalId: cat1 }), 400).detail).toBe(
      `[creditTerminalId] payment terminal ${cat1} is already linked to terminal ${a.terminalId}`,
    );
    expect(problem(await patch(b.terminalId, { creditTerminalId: '999' }), 400).detail).toBe('[creditTerminalId] payment terminal 999 does not exist');
    expect((await patch(a.terminalId, { creditTerminalId: cat1 })).statusCode).toBe(200);
    expect((await patch(b.terminalId, { creditTerminalId: cat2 })).json().creditTerminalId).toBe(cat2);
    settings({ catCctLinkage: false });
    expect(problem(await patch(a.terminalId, { creditTerminalId: cat2 }), 403).detail).toMatch(/^\[creditTerminalId\] /);
    expect((await patch(a.terminalId, { terminalName: 'kept link' })).json().creditTerminalId).toBe(cat1);
    expect((await patch(a.terminalId, { creditTerminalId: null })).json().creditTerminalId).toBeNull();
  });

  it('cashDrawerId: absent, of another store or unusable is a 400', async () => {
    const r = await create({ storeId: storeA, terminalName: 'R' });
    const [other, stopped] = [await drawer(storeB), await drawer(storeA, '1')];
    expect(problem(await patch(r.terminalId, { cashDrawerId: '999' }), 400).detail).toBe('[cashDrawerId] cash drawer 999 does not exist');
    expect(problem(await patch(r.terminalId, { cashDrawerId: other }), 400).detail).toBe(
      `[cashDrawerId] cash drawer ${other} belongs to store ${storeB}, not to store ${storeA}`,
    );
    expect(problem(await patch(r.terminalId, { cashDrawerId: stopped }), 400).detail).toBe(`[cashDrawerId] cash drawer ${stopped} is not usable (useStopDivision 1)`);
    expect((await patch(r.terminalId, { storeId: storeB, cashDrawerId: other })).json()).toMatchObject({ storeId: storeB, cashDrawerId: other });
  });

  it('parentTerminalId: not itself, not a child, not for a terminal that has children', async () => {
    const p = await create({ storeId: storeA, terminalName: 'P' });
    const c = await create({ storeId: storeA, terminalName: 'C', parentTerminalId: p.terminalId });
    const x = await create({ storeId: storeA, terminalName: 'X' });
    const elsewhere = await create({ storeId: storeB, terminalName: 'B' });
    expect(problem(await patch(x.terminalId, { parentTerminalId: x.terminalId }), 400).detail).toBe(
      `[parentTerminalId] terminal ${x.terminalId} cannot be its own parent`,
    );
    expect(problem(await patch(x.terminalId, { parentTerminalId: c.terminalId }), 400).detail).toBe(
      `[parentTerminalId] terminal ${c.terminalId} is itself the child of terminal ${p.terminalId}`,
    );
    expect(problem(await patch(p.terminalId, { parentTerminalId: x.terminalId }), 400).detail).toBe(
      `[parentTerminalId] terminal ${p.terminalId} is the parent of terminal ${c.terminalId}, so it cannot have a parent`,
    );
    expect(problem(await patch(x.terminalId, { parentTerminalId: '999' }), 400).detail).toBe('[parentTerminalId] terminal 999 does not exist');
    expect(problem(await patch(x.terminalId, { parentTerminalId: elsewhere.terminalId }), 400).detail).toBe(
      `[parentTerminalId] terminal ${elsewhere.terminalId} belongs to store ${storeB}, not to store ${storeA}`,
    );
    expect((await patch(x.terminalId, { parentTerminalId: p.terminalId })).json().parentTerminalId).toBe(p.terminalId);
  });

  it('caps count the other terminals and only for a seat the PATCH takes', async () => {
    settings({ maxSalesTerminals: 1, maxSelfCheckoutTerminals: 1, maxSmartIdEngines: 0 });
    const a = await create({ storeId: storeA, terminalName: 'A', selfCheckoutAvailableFlag: '1' });
    const b = await create({ storeId: storeA, terminalName: 'B', useStopDivision: '1' });
    expect(problem(await patch(b.terminalId, { useStopDivision: '0' }), 400).detail).toBe(
      "[useStopDivision] the contract's sales terminal cap of 1 is reached (1 in use); register it with useStopDivision 1 or stop another terminal",
    );
    expect(problem(await patch(a.terminalId, { smartIdEngineAvailableFlag: '1' }), 400).detail).toBe(
      "[smartIdEngineAvailableFlag] the contract's smart ID engine cap of 0 is reached (0 in use)",
    );
    // the terminal's own seats are not counted against it
    expect((await patch(a.terminalId, { useStopDivision: '0', selfCheckoutAvailableFlag: '1' })).statusCode).toBe(200);
    // a lowered cap does not block edits that take no new seat
    settings({ maxSalesTerminals: 0, maxSelfCheckoutTerminals: 0 });
    expect((await patch(a.terminalId, { terminalName: 'A2' })).statusCode).toBe(200);
    // freeing A's seat lets B take it
    settings({ maxSalesTerminals: 1, maxSelfCheckoutTerminals: 1 });
    await ok('PATCH', `/terminals/${a.terminalId}`, { useStopDivision: '1' });
    expect((await patch(b.terminalId, { useStopDivision: '0', selfCheckoutAvailableFlag: '1' })).statusCode).toBe(200);
    expect(problem(await patch(a.terminalId, { useStopDivision: '0' }), 400).detail).toMatch(/^\[useStopDivision\] /);
  });

  it('plan-limited flags are a 403 on PATCH too, and nothing changes', async () => {
    await t.close();
    await setUp('premium');
    const r = await create({ storeId: storeA, terminalName: 'R' });
    expect(problem(await patch(r.terminalId, { terminalName: 'X', transactionEditableFlag: '1' }), 403).detail).toMatch(/^\[transactionEditableFlag\] /);
    expect(problem(await patch(r.terminalId, { selfCheckoutAvailableFlag: '1' }), 403).detail).toMatch(/^\[selfCheckoutAvailableFlag\] /);
    expect((await t.api('GET', `/terminals/${r.terminalId}`)).json()).toEqual(r);
  });
});

describe('seedTerminals (demo)', () => {
  afterEach(() => t.close());
  const seed = async () => {
    await t.api('POST', '/categories', { categoryName: 'Apparel', categoryCode: 'APP' });
    return seedTerminals(t.deps, { contractId: t.contractId, plan: 'retail_business', storeIds: [storeA, storeB], categoryIds: { APP: '1001' } });
  };

  it('retail with linkage and seats: drawer, CAT, parent and child registers, a self-checkout with smart ID', async () => {
    await setUp('retail_business');
    settings({ catCctLinkage: true, maxSelfCheckoutTerminals: 2, maxSmartIdEngines: 1 });
    expect(await seed()).toEqual({ cashDrawers: 1, paymentTerminals: 1, terminals: 3 });
    const [drawers, cats, terms] = await Promise.all(['/cash_drawers', '/payment_terminals', '/terminals'].map(async (p) => (await t.api('GET', p)).json()));
    const [parent, child, self] = terms as Terminal[];
    expect(parent).toMatchObject({ storeId: storeA, transactionEditableFlag: '1', creditTerminalId: cats[0].paymentTerminalId, parentTerminalId: null });
    expect(child).toMatchObject({ storeId: storeA, cashDrawerId: drawers[0].cashDrawerId, parentTerminalId: parent!.terminalId });
    expect(self).toMatchObject({ selfCheckoutAvailableFlag: '1', smartIdEngineAvailableFlag: '1' });
  });

  it('a basic contract gets no CAT and no self-checkout; a cap of 1 gets only the parent', async () => {
    await setUp('retail_business');
    expect(await seed()).toEqual({ cashDrawers: 1, paymentTerminals: 0, terminals: 2 });
    await t.close();
    await setUp('retail_business');
    settings({ maxSalesTerminals: 1, maxSelfCheckoutTerminals: 1 });
    expect(await seed()).toEqual({ cashDrawers: 1, paymentTerminals: 0, terminals: 1 });
  });
});
