import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSales } from '../../server/seed/sales.js';
import { makeFixture, type Fixture } from './transactions-fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(() => f.t.close());

describe('seedSales', () => {
  it('registers five demo transactions on the main store\'s register', async () => {
    const ctx = { contractId: f.t.contractId, plan: 'retail_business' as const, storeIds: [f.store, f.store] as [string, string], categoryIds: { GOODS: f.category } };
    expect(seedSales(f.t.deps, ctx)).toEqual({ transactions: 5 });
    const res = await f.api('GET', '/transactions?transaction_date_time-from=2026-11-22T00:00:00%2B09:00&transaction_date_time-to=2026-11-23T00:00:00%2B09:00');
    const list = res.json() as Record<string, string>[];
    expect(list.map((t) => [t.transactionHeadDivision, t.terminalId, t.sumDivision, t.total, t.cashTotal, t.change])).toEqual([
      ['2', f.terminal, '0', '30000', '30000', '0'],
      ['1', f.terminal, '0', '4840', '4840', '160'], // 2 × 1980 + 880, 5000 received
      ['1', f.terminal, '0', '3190', '3190', '0'], // 3200 − 300 = 2900 + tax 290 (2700 × 10 % + 200 × 10 %)
      ['1', f.terminal, '0', '2520', '2520', '0'], // 4500 − 1980
      ['1', f.terminal, '0', '1480', '1480', '0'], // 3 × 495 = 1485 rounded down to the ten
    ]);
  });
});
