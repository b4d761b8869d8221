import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secretMatches } from '../../server/platform/auth/repo.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { DEMO_CONTRACTS, ensureDemoContracts } from '../../server/seed/contracts.js';
import { seedDemo } from '../../server/seed/demo.js';
import { makeTestApp, okOf, type TestApp } from '../helpers/app.js';

/**
 * The demo data (`seed --contract`, `serve --demo`) at head office on the run's engine: on
 * PostgreSQL seeds the same records as on SQLite (issue 23 item 4), through the same repos and
 * registration rules, once.
 */

let t: TestApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Some hundreds of statements a contract, each a round trip on PostgreSQL; a loaded machine is slow at it. */
const SEEDING_MS = 90_000;

/** What every demo contract gets, whatever its plan. */
const COMMON = {
  seeded: true,
  customerGroups: 8,
  staffs: 3,
  staffLogins: 1,
  staffRanks: 3,
  customers: 2,
  paymentMethodGroups: 1,
  paymentMethods: 4,
  productBundleGroups: 1,
  productLabels: 5,
  budgetDays: 61,
  cashDrawers: 1,
  paymentTerminals: 0,
  terminals: 2,
  transactions: 5,
};
const RETAIL = { ...COMMON, categories: 7, products: 11, menus: 0, toppingGroups: 0, tables: 0, reservations: 0, tableUses: 0, orders: 0 };
const SEEDED = {
  'demo-retail': RETAIL,
  'demo-premium': RETAIL,
  'demo-food': { ...COMMON, categories: 6, products: 10, menus: 12, toppingGroups: 3, tables: 6, reservations: 4, tableUses: 1, orders: 1 },
} as const;

/** The demo sales' totals, in the order they were rung up: exact decimal text on both engines. */
const SALES = [
  { transactionHeadDivision: '2', total: '30000', change: '0' },
  { transactionHeadDivision: '1', total: '4840', change: '160' },
  { transactionHeadDivision: '1', total: '3190', change: '0' },
  { transactionHeadDivision: '1', total: '2520', change: '0' },
  { transactionHeadDivision: '1', total: '1480', change: '0' },
];

describe('demo seeding on the engine head office runs', () => {
  for (const demo of DEMO_CONTRACTS) {
    it(`seed --contract ${demo.contractId} (${demo.plan}): the demo records, then nothing more`, async () => {
      t = await makeTestApp({ contractId: demo.contractId, plan: demo.plan, role: 'central' });
      const seeded = seedDemo(t.deps, demo.contractId, demo.plan);
      // Ids as head office (node 0) mints them.
      expect(seeded).toEqual({ contractId: demo.contractId, ...SEEDED[demo.contractId as keyof typeof SEEDED], stores: ['1000', '2000'] });
      // The demo store's code marks the contract as seeded.
      expect(seedDemo(t.deps, demo.contractId, demo.plan)).toEqual({ contractId: demo.contractId, seeded: false, stores: ['1000'], categories: 0, customerGroups: 0 });
      // Head office's masters join its change log, for the stores to pull.
      const logged = t.deps.db.prepare("SELECT entity_id FROM change_log WHERE contract_id = ? AND entity = 'store' ORDER BY seq").pluck().all(demo.contractId);
      expect(logged).toEqual(['1000', '2000']);

      // What was seeded reads back over the API as it does on SQLite.
      const ok = okOf(t.api);
      expect((await ok('GET', '/stores')).map((s: { storeCode: string }) => s.storeCode)).toEqual(['DEMO-01', demo.plan === 'food_business' ? 'DEMO-02' : 'DEMO-WH']);
      expect(await ok('GET', '/products?limit=100')).toHaveLength(SEEDED[demo.contractId as keyof typeof SEEDED].products);
      const sales = await ok(
        'GET',
        `/transactions?terminal_tran_date_time-from=${encodeURIComponent('2026-11-22T00:00:00+09:00')}&terminal_tran_date_time-to=${encodeURIComponent('2026-11-22T23:59:59+09:00')}&sort=transactionHeadId`,
      );
      expect(sales.map((s: Record<string, string>) => ({ transactionHeadDivision: s.transactionHeadDivision, total: s.total, change: s.change }))).toEqual(SALES);
    }, SEEDING_MS);
  }

  it('serve --demo: the three demo contracts with their data and a client each; a second start reuses the saved client', async () => {
    t = await makeTestApp({ role: 'central' });
    const dir = mkdtempSync(join(tmpdir(), 'pos-demo-'));
    dirs.push(dir);
    const first = ensureDemoContracts(t.deps, dir);
    expect(first.map((c) => [c.contractId, c.plan])).toEqual(DEMO_CONTRACTS.map((c) => [c.contractId, c.plan]));
    const auth = new AuthRepo(t.deps.db, t.deps.writer, t.clock);
    for (const c of first) expect(secretMatches(c.clientSecret, auth.findClient(c.clientId)!.secretHash)).toBe(true);
    const again = ensureDemoContracts(t.deps, dir);
    expect(again).toEqual(first);
    const stores = t.deps.db.prepare("SELECT contract_id, count(*) AS n FROM stores WHERE contract_id LIKE 'demo-%' GROUP BY contract_id ORDER BY contract_id").all();
    expect(stores).toEqual([
      { contract_id: 'demo-food', n: 2 },
      { contract_id: 'demo-premium', n: 2 },
      { contract_id: 'demo-retail', n: 2 },
    ]);
  }, SEEDING_MS);
});
