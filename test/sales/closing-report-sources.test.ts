import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DailySummaryWithReport } from '../../server/sales/closing/closing-schema.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { at, DAY, makeStore, makeTerminal, NO_CASH, ok, settle, startAt } from '../jobs/closing-fixtures.js';

/**
 * A closing reads its report's headers and lines from the transactions it is about to close (the
 * closable ones, just before its UPDATE), and a closing read later from the list it recorded
 * (daily_summary_transactions). Both must give the same report: exactly the transactions closed.
 */

let base: TestApp;
let t: TestApp;
let store: string;
let other: string;
let r1: string;
let r2: string;
let r3: string;
beforeEach(async () => {
  base = await makeTestApp();
  t = await startAt(base, at('23:00:00', '2026-11-23'));
  store = await makeStore(t);
  other = await makeStore(t, {}, 'Other store');
  r1 = await makeTerminal(t, store, 'R1');
  r2 = await makeTerminal(t, store, 'R2');
  r3 = await makeTerminal(t, other, 'R3');
});
afterEach(() => base.close());

const summary = async (storeId = store, date = DAY): Promise<DailySummaryWithReport> => ok(t, 'GET', `/daily_summaries/${storeId}/${date}`);

async function sell(storeId: string, terminalId: string, when: string, salesPrice: string): Promise<string> {
  return (
    await ok(t, 'POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId,
      terminalId,
      terminalTranDateTime: when,
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Item', salesPrice, quantity: '1', taxDivision: '0', taxRate: '10' }],
    })
  ).transactionHeadId;
}

/** The stored report, and the report the recorded list gives when the stored one is gone. */
async function storedAndRecorded(date = DAY): Promise<[DailySummaryWithReport['report'], DailySummaryWithReport['report']]> {
  const stored = (await summary(store, date)).report;
  t.deps.db.prepare('UPDATE daily_summaries SET report = NULL WHERE contract_id = ? AND store_id = ? AND sum_date = ?').run(t.contractId, Number(store), date);
  return [stored, (await summary(store, date)).report];
}

describe('the report of a closing being made and of a closing read later', () => {
  it('counts only what the closing closes: not the next day, another store, an unsettled sale or a day closed before', async () => {
    await sell(store, r1, at('09:00:00', '2026-11-21'), '700');
    await settle(t, { storeId: store, terminalId: r1 });
    await ok(t, 'POST', '/daily_summaries', { sumDate: '2026-11-21', storeId: store, cashInfo: NO_CASH });

    await sell(store, r1, at('09:00:00'), '1100');
    await sell(store, r2, at('10:00:00'), '550');
    await sell(store, r1, at('01:00:00', '2026-11-23'), '3000');
    await sell(other, r3, at('11:00:00'), '2200');
    await settle(t, { storeId: store, terminalId: r1 });
    await settle(t, { storeId: store, terminalId: r2 });
    await settle(t, { storeId: other, terminalId: r3 });
    await sell(store, r2, at('12:00:00'), '9900');

    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const [stored, recorded] = await storedAndRecorded();
    expect(stored.store.counts).toMatchObject({ transactions: '2', sales: '2' });
    expect(stored.store.sales).toMatchObject({ grossSales: '1650', total: '1650' });
    expect(stored.terminals.map((r) => r.terminalId)).toEqual([r1, r2]);
    expect(recorded).toEqual(stored);
  });

  it('sums a decimal finer than the grouped SQL sums keep exactly while closing, as when read later', async () => {
    await sell(store, r1, at('09:00:00'), '1100');
    await sell(store, r2, at('09:10:00'), '550');
    await settle(t, { storeId: store, terminalId: r1 });
    await settle(t, { storeId: store, terminalId: r2 });
    // written by something other than this server's registration (which keeps at most 8 decimals)
    t.deps.db.prepare("UPDATE transaction_details SET unit_non_discount_sum = '1100.0000000000001' WHERE contract_id = ? AND unit_non_discount_sum = '1100'").run(t.contractId);

    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const [stored, recorded] = await storedAndRecorded();
    expect(stored.store.sales).toMatchObject({ grossSales: '1650.0000000000001', total: '1650' });
    expect(recorded).toEqual(stored);
  });

  it('a released and closed again day reports the same transactions again', async () => {
    await sell(store, r1, at('09:00:00'), '1100');
    await settle(t, { storeId: store, terminalId: r1 });
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const first = (await summary()).report;
    await ok(t, 'POST', `/daily_summaries/${store}/${DAY}/release`);
    await ok(t, 'POST', '/daily_summaries', { sumDate: DAY, storeId: store, cashInfo: NO_CASH });
    const [stored, recorded] = await storedAndRecorded();
    expect(stored).toEqual(first);
    expect(recorded).toEqual(stored);
  });
});
