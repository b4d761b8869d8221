import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Adjustment } from '../../server/sales/closing/settlement-schema.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';
import { closingState, makeStore, makeTerminal, ok, sale, settle, startAt } from '../jobs/closing-fixtures.js';

const AT_10_00 = '2026-11-22T10:00:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/adjustments';
const NO_CASH = { preparationCash: null, saving: null };

let t: TestApp;
let store: string;
let t1: string;
let t2: string;
beforeEach(async () => {
  t = await makeTestApp();
  store = await makeStore(t);
  t1 = await makeTerminal(t, store, 'R1');
  t2 = await makeTerminal(t, store, 'R2');
});
afterEach(() => t.close());

const detail = async (body: Record<string, unknown>) => problem(await t.api('POST', '/adjustments', body), 400).detail;

describe('POST /adjustments', () => {
  it('settles the terminal\'s unprocessed transactions of the store and answers the settlement', async () => {
    const a = await sale(t, { storeId: store, terminalId: t1, at: '2026-11-22T09:00:00+09:00', amount: '1200' });
    const b = await sale(t, { storeId: store, terminalId: t1, at: '2026-11-22T09:30:00+09:00', amount: '800', creditTotal: '300' });
    const other = await sale(t, { storeId: store, terminalId: t2, at: '2026-11-22T09:40:00+09:00', amount: '5000' });

    const res = await t.api('POST', '/adjustments', { storeId: store, terminalId: t1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      adjustmentId: '1001',
      storeId: store,
      terminalId: t1,
      adjustmentDateTime: AT_10_00,
      settledTransactionCount: '2',
      settledCashTotal: '1700', // 1200 + (800 − 300 by card)
      cashInfo: null,
      realCashBalance: null,
      depositedBankMoney: '0',
      status: 'unclosed',
      sumDate: null,
      insDateTime: AT_10_00,
    });
    expect(await closingState(t, a)).toEqual({ sumDivision: '1', sumDate: null });
    expect(await closingState(t, b)).toEqual({ sumDivision: '1', sumDate: null });
    expect(await closingState(t, other)).toEqual({ sumDivision: '0', sumDate: null });
    expect((await ok(t, 'GET', `/transactions/${a}`)).adjustmentDateTime).toBe(AT_10_00);
  });

  it('may settle a terminal again: only what came after the last settlement, with the given time', async () => {
    await sale(t, { storeId: store, terminalId: t1, at: '2026-11-22T09:00:00+09:00', amount: '1000' });
    expect((await settle(t, { storeId: store, terminalId: t1 })).settledTransactionCount).toBe('1');
    const later = await sale(t, { storeId: store, terminalId: t1, at: '2026-11-22T12:00:00+09:00', amount: '300' });
    t = await startAt(t, '2026-11-22T14:00:00+09:00');
    const second = await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-22T04:00:00Z', depositedBankMoney: '10000.5' });
    expect(second).toMatchObject({
      settledTransactionCount: '1',
      settledCashTotal: '300',
      adjustmentDateTime: '2026-11-22T13:00:00+09:00',
      depositedBankMoney: '10000.5',
    });
    expect((await ok(t, 'GET', `/transactions/${later}`)).adjustmentDateTime).toBe('2026-11-22T13:00:00+09:00');
    // nothing left to settle still records the settlement
    expect(await settle(t, { storeId: store, terminalId: t1 })).toMatchObject({ settledTransactionCount: '0', settledCashTotal: '0' });
  });

  it('records the drawer count when cash is input at settlement (auto-input off: preparation cash and saving required)', async () => {
    const cashStore = await makeStore(t, { cashInputAtSettlement: '1' });
    const term = await makeTerminal(t, cashStore);
    const cashInfo = { preparationCash: '10000', saving: '0', tenThousandYen: '2', fiveHundredYen: '3', oneYen: '07' };
    const settled = await settle(t, { storeId: cashStore, terminalId: term, cashInfo });
    expect(settled.cashInfo).toEqual({
      preparationCash: '10000',
      saving: '0',
      tenThousandYen: '2',
      fiveThousandYen: '0',
      twoThousandYen: '0',
      oneThousandYen: '0',
      fiveHundredYen: '3',
      oneHundredYen: '0',
      fiftyYen: '0',
      tenYen: '0',
      fiveYen: '0',
      oneYen: '7',
    });
    expect(settled.realCashBalance).toBe('21507');
    // every settlement of such a store counts the drawer
    expect(await detail({ storeId: cashStore, terminalId: term })).toBe(`[cashInfo] is required: store ${cashStore} inputs cash at terminal settlement`);
    expect(await detail({ storeId: cashStore, terminalId: term, cashInfo: null })).toBe(`[cashInfo] is required: store ${cashStore} inputs cash at terminal settlement`);
  });

  it('with bank deposit auto-input on the count comes without preparation cash and saving', async () => {
    const autoStore = await makeStore(t, { cashInputAtSettlement: '1', bankDepositAutoInput: '1', bankDepositAutoInputAmount: '30000' });
    const term = await makeTerminal(t, autoStore);
    const settled = await settle(t, { storeId: autoStore, terminalId: term, cashInfo: { fiveThousandYen: '7' } });
    expect(settled.cashInfo).toMatchObject({ ...NO_CASH, fiveThousandYen: '7', tenThousandYen: '0' });
    expect(settled.realCashBalance).toBe('35000');
    expect(await detail({ storeId: autoStore, terminalId: term, cashInfo: { preparationCash: '1' } })).toBe(
      '[cashInfo.preparationCash] must not be sent: the store\'s bank deposit auto-input is on, so the server sets it',
    );
    expect(await detail({ storeId: autoStore, terminalId: term, cashInfo: { saving: '1' } })).toBe(
      '[cashInfo.saving] must not be sent: the store\'s bank deposit auto-input is on, so the server sets it',
    );
  });

  it('refuses what cannot be settled, naming the field, and changes nothing', async () => {
    const otherStore = await makeStore(t, {}, 'Other');
    const foreign = await makeTerminal(t, otherStore);
    const cashStore = await makeStore(t, { cashInputAtSettlement: '1' });
    const cashTerm = await makeTerminal(t, cashStore);
    expect(await detail({ storeId: '999', terminalId: t1 })).toBe('[storeId] store 999 does not exist');
    expect(await detail({ storeId: store, terminalId: '999' })).toBe('[terminalId] terminal 999 does not exist');
    expect(await detail({ storeId: store, terminalId: foreign })).toBe(`[terminalId] terminal ${foreign} belongs to store ${otherStore}, not to store ${store}`);
    expect(await detail({ storeId: store, terminalId: t1, cashInfo: { tenYen: '1' } })).toBe(
      '[cashInfo] must not be sent: the store\'s cash input at settlement is off, so cash is counted at closing',
    );
    expect(await detail({ storeId: cashStore, terminalId: cashTerm, cashInfo: { saving: '0' } })).toBe(
      '[cashInfo.preparationCash] is required: the store\'s bank deposit auto-input is off',
    );
    expect(await detail({ storeId: cashStore, terminalId: cashTerm, cashInfo: { preparationCash: '0' } })).toBe(
      '[cashInfo.saving] is required: the store\'s bank deposit auto-input is off',
    );
    expect(await detail({ terminalId: t1 })).toBe('[storeId] is required');
    expect(await detail({ storeId: store })).toBe('[terminalId] is required');
    expect(await detail({ storeId: store, terminalId: t1, depositedBankMoney: '-1' })).toBe(
      '[depositedBankMoney] must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals',
    );
    expect(await detail({ storeId: store, terminalId: t1, depositedBankMoney: 100 })).toBe('[depositedBankMoney] Invalid input: expected string, received number');
    expect(await detail({ storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-22 10:00' })).toBe(
      '[adjustmentDateTime] must be a date-time like 2026-11-22T10:00:00+09:00',
    );
    expect(await detail({ storeId: cashStore, terminalId: cashTerm, cashInfo: { preparationCash: '0', saving: '0', tenYen: '-1' } })).toBe(
      '[cashInfo.tenYen] must be 1 to 6 digits',
    );
    // counts are at most 6 digits: the largest drawer still stores exactly
    expect(await detail({ storeId: cashStore, terminalId: cashTerm, cashInfo: { preparationCash: '0', saving: '0', tenThousandYen: '1000000' } })).toBe(
      '[cashInfo.tenThousandYen] must be 1 to 6 digits',
    );
    expect(await detail({ storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-22T10:00:01+09:00' })).toBe(
      '[adjustmentDateTime] must not be in the future',
    );
    expect(await detail({ storeId: cashStore, terminalId: cashTerm, cashInfo: { preparationCash: '0', saving: '0', euro: '1' } })).toBe(
      '[cashInfo.euro] is not a known field',
    );
    expect(await detail({ storeId: store, terminalId: t1, sumDate: '2026-11-22' })).toBe('[sumDate] is not a known field');
    // a date the store has closed takes no more settlements, until that closing is released
    await ok(t, 'POST', '/daily_summaries', { sumDate: '2026-11-21', storeId: store, cashInfo: { preparationCash: '0', saving: '0' } });
    expect(await detail({ storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-21T23:59:59+09:00' })).toBe(
      `[adjustmentDateTime] store ${store} is already closed for 2026-11-21; release that closing first`,
    );
    expect((await t.api('GET', '/adjustments')).json()).toEqual([]);
    await ok(t, 'POST', `/daily_summaries/${store}/2026-11-21/release`);
    expect((await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-21T23:59:59+09:00' })).status).toBe('unclosed');
  });

  it('settles a suspended store\'s terminal (bookkeeping, not trading) and reports every change', async () => {
    const changes: Change[] = [];
    const sold = await sale(t, { storeId: store, terminalId: t2, at: '2026-11-22T09:00:00+09:00', amount: '100' });
    await ok(t, 'PATCH', `/stores/${store}`, { pauseFlag: '1' });
    t.deps.writer.onChange((c) => changes.push(c));
    const settled = await settle(t, { storeId: store, terminalId: t2 });
    expect(changes).toEqual([
      { contractId: t.contractId, entity: 'transaction', id: sold, op: 'update' },
      { contractId: t.contractId, entity: 'adjustment', id: settled.adjustmentId, op: 'insert' },
    ]);
  });

  it('is open to every plan and needs pos.transactions:write', async () => {
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'enterprise');
    expect((await t.api('POST', '/adjustments', { storeId: store, terminalId: t1 })).statusCode).toBe(200);
    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect(problem(await t.api('POST', '/adjustments', { storeId: store, terminalId: t1 }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:write',
    );
    const writer = await t.tokenFor({ scopes: ['pos.transactions:write'] });
    expect(problem(await t.api('GET', '/adjustments', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:read');
  });
});

describe('GET /adjustments', () => {
  it('filters by store, terminal, time range and closing date; pages with Link', async () => {
    const other = await makeStore(t, {}, 'Other');
    const t3 = await makeTerminal(t, other);
    const at = (hour: number) => `2026-11-22T${String(hour).padStart(2, '0')}:00:00+09:00`;
    t = await startAt(t, at(12));
    await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: at(8) });
    await settle(t, { storeId: store, terminalId: t2, adjustmentDateTime: at(9) });
    await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: at(11) });
    await settle(t, { storeId: other, terminalId: t3, adjustmentDateTime: at(7) });

    const hours = async (query: string) => ((await ok(t, 'GET', `/adjustments${query}`)) as Adjustment[]).map((a) => a.adjustmentDateTime.slice(11, 13));
    expect(await hours('')).toEqual(['08', '09', '11', '07']);
    expect(await hours(`?store_id=${store}&sort=adjustmentDateTime:desc`)).toEqual(['11', '09', '08']);
    expect(await hours(`?terminal_id=${t1}`)).toEqual(['08', '11']);
    expect(await hours(`?adjustment_date_time-from=${encodeURIComponent(at(8))}&adjustment_date_time-to=${encodeURIComponent(at(9))}`)).toEqual(['08', '09']);
    expect(await hours('?sum_date=2026-11-22')).toEqual([]);

    const first = await t.api('GET', `/adjustments?store_id=${store}&limit=2`);
    expect(first.headers.link).toBe(`<${LINK_BASE}?store_id=${store}&limit=2&page=2>; rel="next"`);
    const second = await t.api('GET', `/adjustments?store_id=${store}&limit=2&page=2`);
    expect((second.json() as Adjustment[]).length).toBe(1);
    expect(second.headers.link).toBe(`<${LINK_BASE}?store_id=${store}&limit=2&page=1>; rel="prev"`);
  });

  it('filters by the platform\'s adjustment_date (in the contract\'s zone) and exact adjustment_date_time; the underscore range still works', async () => {
    t = await startAt(t, '2026-11-23T12:00:00+09:00');
    await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-22T00:00:00+09:00' });
    await settle(t, { storeId: store, terminalId: t2, adjustmentDateTime: '2026-11-22T23:59:59+09:00' });
    await settle(t, { storeId: store, terminalId: t1, adjustmentDateTime: '2026-11-23T00:00:00+09:00' });
    const times = async (query: string) => ((await ok(t, 'GET', `/adjustments${query}`)) as Adjustment[]).map((a) => a.adjustmentDateTime);
    expect(await times(`?store_id=${store}&adjustment_date=2026-11-22`)).toEqual(['2026-11-22T00:00:00+09:00', '2026-11-22T23:59:59+09:00']);
    expect(await times(`?store_id=${store}&adjustment_date_time=2026-11-22T14:59:59Z`)).toEqual(['2026-11-22T23:59:59+09:00']);
    expect(await times(`?store_id=${store}&adjustment_date_time_from=2026-11-22T23:00:00%2B09:00&adjustment_date_time_to=2026-11-23T00:00:00%2B09:00`)).toEqual([
      '2026-11-22T23:59:59+09:00',
      '2026-11-23T00:00:00+09:00',
    ]);
  });

  it('refuses what the platform refuses: combined date filters, a range over 31 days', async () => {
    const refusedWith = async (query: string) => problem(await t.api('GET', `/adjustments?store_id=${store}&${query}`), 400).detail;
    expect(await refusedWith('adjustment_date=2026-11-22&adjustment_date_time=2026-11-22T10:00:00%2B09:00')).toBe(
      '[adjustment_date] cannot be combined with adjustment_date_time or adjustment_date_time-from/-to',
    );
    expect(await refusedWith('adjustment_date=2026-11-22&adjustment_date_time-to=2026-11-22T10:00:00%2B09:00')).toBe(
      '[adjustment_date] cannot be combined with adjustment_date_time or adjustment_date_time-from/-to',
    );
    expect(await refusedWith('adjustment_date_time=2026-11-22T10:00:00%2B09:00&adjustment_date_time-from=2026-11-22T00:00:00%2B09:00')).toBe(
      '[adjustment_date_time] cannot be combined with adjustment_date_time-from/-to',
    );
    expect(await refusedWith('adjustment_date_time-from=2026-10-22T00:00:00%2B09:00&adjustment_date_time-to=2026-11-22T00:00:01%2B09:00')).toBe(
      '[adjustment_date_time-to] the range from adjustment_date_time-from may span at most 31 days',
    );
    expect(await refusedWith('adjustment_date=2026-02-30')).toBe('[adjustment_date] must be a calendar date YYYY-MM-DD from 1900');
  });

  it('refuses a reversed range and unknown parameters', async () => {
    const q = '?adjustment_date_time-from=2026-11-22T10:00:00%2B09:00&adjustment_date_time-to=2026-11-22T09:00:00%2B09:00';
    expect(problem(await t.api('GET', `/adjustments${q}`), 400).detail).toBe('[adjustment_date_time-to] must not be before adjustment_date_time-from');
    expect(problem(await t.api('GET', '/adjustments?from=2026-11-22'), 400).detail).toBe('[from] is not a known field');
  });
});

describe('GET /adjustments/{adjustment_id}', () => {
  it('answers one settlement; 404 when absent, 400 for a malformed id', async () => {
    const settled = await settle(t, { storeId: store, terminalId: t1 });
    expect(await ok(t, 'GET', `/adjustments/${settled.adjustmentId}`)).toEqual(settled);
    expect(problem(await t.api('GET', '/adjustments/999'), 404).detail).toBe('[adjustment_id] adjustment 999 does not exist');
    expect(problem(await t.api('GET', '/adjustments/x'), 400).detail).toBe('[adjustment_id] must be 1 to 9 digits');
  });
});
