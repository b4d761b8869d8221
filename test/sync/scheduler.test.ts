import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { backoffDelay, fromEnv, startSyncScheduler } from '../../sync/scheduler.js';
import { CONTRACT, count, freePort, makeInstance, type Instance } from './helpers.js';

describe('back-off', () => {
  it('doubles from the base up to the cap, with jitter in the upper half', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4, 5].map((f) => backoffDelay(f, 1000, 10_000, high))).toEqual([1000, 2000, 4000, 8000, 10_000]);
    expect([1, 2, 3, 4, 5].map((f) => backoffDelay(f, 1000, 10_000, low))).toEqual([500, 1000, 2000, 4000, 5000]);
    expect(backoffDelay(60, 1000, 300_000, high)).toBe(300_000);
  });

  it('reads its tuning from the environment', () => {
    expect(fromEnv({ POS_SYNC_INTERVAL_MS: '50', POS_SYNC_BACKOFF_MAX_MS: '200', POS_SYNC_BATCH_ITEMS: '10', POS_SYNC_IDLE_MAX_MS: 'x' })).toEqual({
      intervalMs: 50,
      backoffMaxMs: 200,
      agent: { batchItems: 10 },
    });
  });
});

let central: Instance;
let store: Instance;
afterEach(async () => {
  await store?.close();
  await central?.close();
});

describe('the sync scheduler', () => {
  it('keeps retrying while central is down, and drains once it is up; stop() waits for the round', async () => {
    central = await makeInstance('central', 0);
    store = await makeInstance('store', 2);
    const port = await freePort();
    const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 2);
    new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: `http://127.0.0.1:${port}`, node: 2, secret });
    await store.ok('POST', '/categories', { categoryName: 'Made offline' });
    const stop = startSyncScheduler(store.deps, Fastify({ logger: false }).log, { intervalMs: 20, busyMs: 5, idleMaxMs: 100, backoffMaxMs: 80 });
    try {
      const wait = async (check: () => boolean) => {
        for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
        return check();
      };
      expect(await wait(() => (store.deps.db.prepare('SELECT last_error FROM sync_links').pluck().get() as string | null) !== null)).toBe(true);
      await central.up(port);
      expect(await wait(() => count(store.deps, 'SELECT count(*) FROM outbox') === 0)).toBe(true);
      expect(count(central.deps, "SELECT count(*) FROM categories WHERE category_name = 'Made offline'")).toBe(1);
    } finally {
      await stop();
    }
  });
});
