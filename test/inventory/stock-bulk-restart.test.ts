import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../helpers/modules.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { bulkAddJobsOf } from '../../server/inventory/stock/bulk.js';
import { makeFixture, type Fixture } from '../sales/transactions-fixtures.js';
import { clientToken, compileCopy, ROOT, serveDemo } from '../helpers/serve-child.js';
import { okOf } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { postgresUrlOf } from '../../server/db/engine.js';

/**
 * Issue 14 item 2: every acknowledged POST /stock/add/bulk survives a stop. The request is stored
 * before its answer; a stop before its apply leaves it stored, and the app applies it, once, when
 * it starts again on the same database.
 */

let f: Fixture;
let product: string;
let other: string;
/** The app serving the fixture's database now: the fixture's own, then each restart's. */
let live: { app: FastifyInstance; deps: AppDeps };

beforeEach(async () => {
  f = await makeFixture('retail_business');
  product = (await f.create('/products', { categoryId: f.category, productCode: 'P1', productName: 'Tea', price: '300' })).productId;
  other = (await f.create('/products', { categoryId: f.category, productCode: 'P2', productName: 'Cake', price: '500' })).productId;
  live = { app: f.t.app, deps: f.t.deps };
});
afterEach(async () => {
  await stop();
  // Closes the fixture's own app and database again (a no-op), then removes its database and data dir.
  await f.t.close();
});

/** Closes the live app and its database, as the server does when it stops (again: a no-op). */
async function stop(): Promise<void> {
  await live.app.close();
  live.deps.db.close();
}

/** Stops, then builds the app again on the same database file and makes it ready (as `serve` does). */
async function restart(): Promise<void> {
  await stop();
  // The same database: the data dir's file, or on PostgreSQL the fixture's database.
  const postgresUrl = postgresUrlOf(f.t.deps.db);
  const deps = openDeps({ file: f.t.deps.db.name, ...(postgresUrl ? { postgresUrl } : {}), clock: f.t.clock, checkResponses: true });
  const app = await buildApp(deps);
  live = { app, deps };
  await app.ready();
}

const api = (method: string, path: string, body?: unknown) =>
  live.app.inject({
    method: method as 'GET',
    url: `/${f.t.contractId}/pos${path}`,
    headers: { authorization: `Bearer ${f.t.token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
const ok = okOf((method, path, body) => api(method, path, body));
const bulk = (stock: { productId: string; storeId: string; stockAmount: string; stockHistory?: { memo: string } }[]) =>
  ok('POST', '/stock/add/bulk', { stock, callbackUrl: 'https://receiver.example/stock' }) as Promise<{ requestId: number; callbackUrl: string }>;
const amount = async (productId: string) =>
  ((await ok('GET', `/stock?product_id=${productId}&store_id=${f.store}`)) as { stockAmount: string }[])[0]?.stockAmount;
const changes = async (productId: string) =>
  ((await ok('GET', `/stock/changes/${productId}/${f.store}`)) as { stockDivision: string; amount: string; stockAmount: string }[]).map((c) => [
    c.stockDivision,
    c.amount,
    c.stockAmount,
  ]);
const count = (sql: string) => live.deps.db.prepare(sql).pluck().get() as number;
/** The completion notices raised, oldest first (ids are minted in order). */
const notices = () =>
  (live.deps.db.prepare("SELECT body FROM webhook_events WHERE event = 'pos:stock' ORDER BY CAST(event_id AS BIGINT)").pluck().all() as string[]).map(
    (b) => JSON.parse(b) as { requestId: number; status: string; ids: { id: string }[]; errors: string[] },
  );
const stored = () => count('SELECT count(*) FROM stock_bulk_jobs');
/** Waits until no accepted request is left to apply. */
async function settle(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (stored() === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the stored bulk adds were never applied');
}
/** Two turns of the event loop: a step the jobs had scheduled (setImmediate) would have run. */
const turn = () => new Promise((r) => setImmediate(() => setImmediate(r)));

describe('POST /stock/add/bulk across a stop', () => {
  it('a request answered, then stopped before its apply, is applied once when the app starts again', async () => {
    // The app stops applying between the answer and the apply (what a stop or crash there leaves).
    bulkAddJobsOf(f.t.deps)!.close();
    const accepted = await bulk([
      { productId: product, storeId: f.store, stockAmount: '3', stockHistory: { memo: 'after restart' } },
      { productId: other, storeId: f.store, stockAmount: '-2' },
    ]);
    expect(accepted).toEqual({ requestId: expect.any(Number), callbackUrl: 'https://receiver.example/stock' });
    await turn();
    expect(stored()).toBe(1);
    expect(notices()).toEqual([]);
    expect(await amount(product)).toBeUndefined();

    await restart();
    await settle();
    expect([await amount(product), await amount(other)]).toEqual(['3', '-2']);
    expect(await changes(product)).toEqual([['15', '3', '3']]);
    const [notice, ...more] = notices();
    expect(more).toEqual([]);
    expect(notice).toEqual({
      contractId: f.t.contractId,
      event: 'pos:stock',
      action: 'bulk-update',
      requestId: accepted.requestId,
      status: 'success',
      ids: [
        { id: expect.any(String), productId: product, storeId: f.store },
        { id: expect.any(String), productId: other, storeId: f.store },
      ],
      errors: [],
    });
    // The movements made at start reach the sync outbox like any other.
    expect(count("SELECT count(*) FROM outbox WHERE entity = 'stock_movement'")).toBe(2);

    // Started once more, nothing is left to apply, and a new request is applied after it alone.
    await restart();
    const next = await bulk([{ productId: product, storeId: f.store, stockAmount: '1' }]);
    await settle();
    expect(await changes(product)).toEqual([
      ['15', '3', '3'],
      ['15', '1', '4'],
    ]);
    expect(notices().map((n) => n.requestId)).toEqual([accepted.requestId, next.requestId]);
  });

  it('a request applied before the stop is not applied again after the restart', async () => {
    const first = await bulk([{ productId: product, storeId: f.store, stockAmount: '5' }]);
    await settle();
    expect(notices().map((n) => [n.requestId, n.status])).toEqual([[first.requestId, 'success']]);

    await restart();
    // The restarted app applies its queue in order: by the time a new request is applied, anything left before it was too.
    const second = await bulk([{ productId: product, storeId: f.store, stockAmount: '2' }]);
    await settle();
    expect(await changes(product)).toEqual([
      ['15', '5', '5'],
      ['15', '2', '7'],
    ]);
    expect(notices().map((n) => [n.requestId, n.status])).toEqual([
      [first.requestId, 'success'],
      [second.requestId, 'success'],
    ]);
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('requests left stored are applied in request order, a refused one with its failed notice', async () => {
    bulkAddJobsOf(f.t.deps)!.close();
    const a = await bulk([{ productId: product, storeId: f.store, stockAmount: '5' }]);
    const b = await bulk([{ productId: product, storeId: f.store, stockAmount: '-2' }]);
    const refused = await bulk([{ productId: '999', storeId: f.store, stockAmount: '1' }]);
    const c = await bulk([{ productId: product, storeId: f.store, stockAmount: '10' }]);
    expect(stored()).toBe(4);

    await restart();
    await settle();
    expect(await changes(product)).toEqual([
      ['15', '5', '5'],
      ['15', '-2', '3'],
      ['15', '10', '13'],
    ]);
    expect(notices().map((n) => [n.requestId, n.status, n.errors])).toEqual([
      [a.requestId, 'success', []],
      [b.requestId, 'success', []],
      [refused.requestId, 'failed', ['[stock[0].productId] product 999 does not exist']],
      [c.requestId, 'success', []],
    ]);
  });

  it('a stop (app.close) leaves the jobs not yet applied stored, and applies nothing after it', async () => {
    const jobs = bulkAddJobsOf(f.t.deps)!;
    jobs.close();
    await bulk([{ productId: product, storeId: f.store, stockAmount: '4' }]);
    // A second close (the app's own) changes nothing; a start after it applies nothing either.
    await f.t.app.close();
    jobs.start();
    await turn();
    expect(stored()).toBe(1);
    expect(notices()).toEqual([]);
    f.t.deps.db.close();

    await restart();
    await settle();
    expect(await amount(product)).toBe('4');
    expect(notices()).toHaveLength(1);
  });
});

// The server as a user runs it: compiled, in its own process, SIGKILLed right after answering.
// Where the kill lands cannot be chosen from outside: usually every request but the last is
// applied and the last one's apply (100 entries) is cut off. So the test asserts what must hold
// wherever it lands: at the kill each answered request is applied or stored, and after the
// restart each is applied exactly once. The tests above stop at a chosen point.
const OUT = '.test-dist-stock-bulk';
let main: string;
const REQUESTS = 30;
const ENTRIES = 100;

// A store's process on its SQLite file: the PostgreSQL run would repeat it unchanged.
describe.skipIf(onPostgres)('a serving process killed right after answering bulk adds', () => {
  let dataDir: string;
  beforeAll(() => {
    main = compileCopy(OUT);
    dataDir = mkdtempSync(join(tmpdir(), 'pos-stock-bulk-'));
  }, 180000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
  });

  it('applies every answered request exactly once: those applied before the kill, and the stored rest on restart', async () => {
    const first = await serveDemo(main, dataDir);
    const bearer = await clientToken(first.retail, ['pos.stock:read', 'pos.stock:write', 'pos.products:read', 'pos.stores:read']);
    const get = async (path: string) =>
      (await (await fetch(`${first.retail.baseUrl}${path}`, { headers: { authorization: `Bearer ${bearer}` } })).json()) as Record<string, string>[];
    const productId = (await get('/products?limit=1'))[0]!.productId!;
    const storeId = (await get('/stores?limit=1'))[0]!.storeId!;
    const body = JSON.stringify({
      stock: Array.from({ length: ENTRIES }, () => ({ productId, storeId, stockAmount: '1' })),
      callbackUrl: 'http://127.0.0.1:9/stock-done',
    });
    // Sent at once: the server answers them as they come and applies them one per turn after.
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, async () => {
        const res = await fetch(`${first.retail.baseUrl}/stock/add/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body,
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { requestId: number }).requestId;
      }),
    );
    first.child.removeAllListeners('exit');
    const killed = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await killed;

    const file = join(dataDir, 'pos.sqlite');
    const requestIdsOf = (db: Database.Database) =>
      (db.prepare("SELECT body FROM webhook_events WHERE event = 'pos:stock'").pluck().all() as string[]).map((b) => (JSON.parse(b) as { requestId: number }).requestId);
    // At the kill, every answered request is either applied (its notice raised) or stored: none is lost.
    const atKill = new Database(file);
    const pending = atKill.prepare('SELECT request_id FROM stock_bulk_jobs').pluck().all() as number[];
    const applied = requestIdsOf(atKill);
    atKill.close();
    expect([...pending, ...applied].sort()).toEqual([...answers].sort());

    const second = await serveDemo(main, dataDir);
    const db = new Database(file, { readonly: true });
    try {
      for (let i = 0; i < 600 && (db.prepare('SELECT count(*) FROM stock_bulk_jobs').pluck().get() as number) > 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(db.prepare('SELECT count(*) FROM stock_bulk_jobs').pluck().get()).toBe(0);
      const ids = requestIdsOf(db);
      expect([...ids].sort()).toEqual([...answers].sort());
      const moved = db
        .prepare("SELECT count(*) AS n, coalesce(sum(CAST(delta AS INTEGER)), 0) AS total FROM stock_movements WHERE stock_division = '15'")
        .get() as { n: number; total: number };
      expect(moved).toEqual({ n: REQUESTS * ENTRIES, total: REQUESTS * ENTRIES });
    } finally {
      db.close();
      second.child.removeAllListeners('exit');
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  }, 120000);
});
