import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncAgent, SyncUnavailable } from '../../sync/agent.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { syncStatus, type StoreSyncStatus } from '../../sync/status.js';
import { CONTRACT, count, freePort, makeInstance, saleTotals, type Instance } from './helpers.js';

/** Issue 11: a store and a central, two real servers on 127.0.0.1 on two SQLite files. */

const SALE_TIME = '2026-11-22T10:00:00+09:00';
/** A day of sales over three registers while central is down. */
const SALES = 1000;
let central: Instance;
let store: Instance;
let port: number;
let agent: SyncAgent;
let shop: string;

const sale = async (terminalId: string, n: number) =>
  (
    await store.ok('POST', '/transactions', {
      transactionHeadDivision: '1',
      storeId: shop,
      terminalId,
      terminalTranDateTime: SALE_TIME,
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: `Item ${n}`, salesPrice: String(100 + n), quantity: '1', taxDivision: '2' }],
    })
  ).transactionHeadId as string;

const totals = (i: Instance) => saleTotals(i.deps);

beforeEach(async () => {
  central = await makeInstance('central', 0);
  store = await makeInstance('store', 7);
  port = await freePort();
  await central.up(port);
  const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 7, 'Shop 7');
  shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
  await central.ok('POST', '/categories', { categoryName: 'Goods' });
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: `http://127.0.0.1:${port}`, node: 7, secret });
  agent = new SyncAgent(store.deps, { timeoutMs: 3000 });
});
afterEach(async () => {
  await store.close();
  await central.close();
});

describe('sync between a store and central', () => {
  it('a new store pulls every master on its first link', async () => {
    await agent.drain(CONTRACT);
    expect(count(store.deps, 'SELECT count(*) FROM stores WHERE contract_id = ? AND store_id = ?', CONTRACT, shop)).toBe(1);
    expect((await store.ok('GET', `/stores/${shop}`)).storeName).toBe('Main');
    expect(count(store.deps, 'SELECT count(*) FROM categories WHERE contract_id = ?', CONTRACT)).toBe(1);
    // Pulled masters do not go back into the store's outbox.
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
  });

  it('a day of sales, settlements and a closing made while central is down reach it exactly once, with equal sums', async () => {
    await agent.drain(CONTRACT);
    const r1 = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
    const r2 = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R2' }))[0].terminalId;
    const r3 = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R3' }))[0].terminalId;
    await central.down();

    const ids: string[] = [];
    const registers = [r1, r2, r3];
    for (let n = 0; n < SALES; n++) ids.push(await sale(registers[n % 3]!, n));
    // The evening: both registers settle and the day is closed, all while central is down.
    store.clock.set('2026-11-22T14:00:00Z');
    await store.ok('POST', '/adjustments', { storeId: shop, terminalId: r1 });
    await store.ok('POST', '/adjustments', { storeId: shop, terminalId: r2 });
    await store.ok('POST', '/adjustments', { storeId: shop, terminalId: r3 });
    await store.ok('POST', '/daily_summaries', { sumDate: '2026-11-22', storeId: shop, cashInfo: { preparationCash: '0', saving: '0' } });
    await expect(agent.push(CONTRACT)).rejects.toBeInstanceOf(SyncUnavailable);
    const offline = syncStatus(store.deps, CONTRACT) as StoreSyncStatus;
    expect(offline).toMatchObject({ linked: true, online: false });
    const queued = offline.outboxDepth;
    expect(queued).toBeGreaterThan(SALES + 3 + 3);
    expect(offline.lastError).toMatch(/ECONNREFUSED/);

    await central.up(port);
    const drained = await new SyncAgent(store.deps, { batchItems: 200 }).drain(CONTRACT);
    expect(drained.pushed).toBe(queued);
    expect(totals(central)).toEqual(totals(store));
    expect(totals(central).n).toBe(SALES);
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details WHERE contract_id = ?', CONTRACT)).toBe(SALES);
    expect((await central.ok('GET', `/transactions/${ids[5]}`)).transactionHeadId).toBe(ids[5]);
    expect(count(central.deps, 'SELECT count(*) FROM terminals WHERE contract_id = ?', CONTRACT)).toBe(3);
    // Settlements, the closing with its link rows and report, and the sales' closing marks arrive too.
    const same = (sql: string) => expect(central.deps.db.prepare(sql).all(CONTRACT)).toEqual(store.deps.db.prepare(sql).all(CONTRACT));
    same('SELECT adjustment_id, terminal_id, settled_count, settled_cash_total FROM adjustments WHERE contract_id = ? ORDER BY 1');
    same('SELECT daily_summary_id, sum_date, transaction_count, report FROM daily_summaries WHERE contract_id = ? ORDER BY 1');
    same('SELECT daily_summary_id, transaction_head_id FROM daily_summary_transactions WHERE contract_id = ? ORDER BY 1, 2');
    same('SELECT transaction_head_id, sum_date, sum_division FROM transactions WHERE contract_id = ? ORDER BY 1');
    expect(count(central.deps, 'SELECT count(*) FROM daily_summary_transactions WHERE contract_id = ?', CONTRACT)).toBe(SALES);
    expect((await central.ok('GET', `/daily_summaries/${shop}/2026-11-22`)).dailySummaryId).toBeDefined();
    const online = syncStatus(store.deps, CONTRACT) as StoreSyncStatus;
    expect(online).toMatchObject({ online: true, outboxDepth: 0, outboxOldestAgeMs: null, deadLetters: 0, lastError: null });
    // The store's clock was moved 13 h on (the evening): central's wall time shows the skew, over 5 minutes a warning.
    expect(online).toMatchObject({ clockSkewMs: -13 * 3600_000, clockSkewWarning: true });
    expect(online.lastPushAt).not.toBeNull();
  }, 120_000);
  it('while the outbox holds more than a batch, a round pulls only when the last pull is older than pullWhilePushingMs', async () => {
    await agent.drain(CONTRACT);
    const terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
    for (let n = 0; n < 12; n++) await sale(terminal, n);
    const batched = new SyncAgent(store.deps, { timeoutMs: 3000, batchItems: 5, pullWhilePushingMs: 2000 });
    const pulledAt = () => new LinkRepo(store.deps).get(CONTRACT)!.lastPullAt;
    // This agent never pulled: its first round pulls.
    store.clock.advance(1000);
    expect(await batched.syncOnce(CONTRACT)).toMatchObject({ pushed: 5, more: true });
    const first = pulledAt();
    // 1 s later, more to push: no pull.
    store.clock.advance(1000);
    expect(await batched.syncOnce(CONTRACT)).toMatchObject({ pushed: 5, more: true });
    expect(pulledAt()).toBe(first);
    // 2 s after the last pull: it pulls again though the push has more.
    store.clock.advance(1000);
    await batched.syncOnce(CONTRACT);
    expect(pulledAt()).toBe(first! + 2000);
    // The round that empties the outbox always pulls.
    store.clock.advance(100);
    const last = await batched.drain(CONTRACT);
    expect(last.rounds).toBeGreaterThan(0);
    expect(pulledAt()).toBe(first! + 2100);
    expect(count(store.deps, 'SELECT count(*) FROM outbox')).toBe(0);
  });
});
