import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { LinkRepo } from '../../sync/link.js';
import { startOwnPostgres, type OwnPgCluster } from '../helpers/postgres.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';
import { apiOf, countAt, queryAt, REQUEST_TIMEOUT_MS, tokenOf, until, type ApiClient } from '../helpers/central-cluster.js';
import { compileCopy, ROOT, requestsFailed, running, runCli, serveChild, stopChild, type Served } from '../helpers/serve-child.js';
import { CONTRACT, freePort, makeInstance } from './helpers.js';

/**
 * Head office on PostgreSQL through faults (issue 23 item 5), always on PostgreSQL whatever
 * POS_TEST_ENGINE says, with real processes on 127.0.0.1: central is the compiled CLI
 * (`serve --role central --database URL`) on a private cluster this file stops and starts
 * (`pg_ctl stop -m immediate`), a store is the compiled CLI on its SQLite data dir, linked to it.
 *
 * - While PostgreSQL is gone central answers 503 with Retry-After (problem+json), never a 500 and
 *   never a request left hanging; once PostgreSQL is back it answers again by itself; a write cut
 *   by the stop is in the database whole or not at all.
 * - Central SIGKILLed in the middle of a store's push, and PostgreSQL stopped and started while a
 *   store drains its outbox: the store retries by itself and every sale is at central exactly once.
 */
const OUT = '.test-dist-faults-pg';
const SALES = 200;

describe('central on PostgreSQL through faults', () => {
  let cluster: OwnPgCluster;
  let main: string;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    cluster = await startOwnPostgres();
    main = compileCopy(OUT);
  }, 240_000);
  afterAll(async () => {
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
    await cluster?.stop();
  }, 60_000);

  /** PostgreSQL stopped by a test: started again before the next one, also when that test failed. */
  let stopped = false;
  const stopPostgres = async () => {
    stopped = true;
    await cluster.kill();
  };
  const startPostgres = async () => {
    await cluster.start();
    stopped = false;
  };
  beforeEach(async () => {
    if (stopped) await startPostgres();
  }, 120_000);

  const tempDir = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), name));
    dirs.push(dir);
    return dir;
  };

  /** A one-shot command of the compiled CLI at head office; its JSON line. */
  const cli = (args: string[], dataDir: string, database: string) => runCli(main, [...args, '--data-dir', dataDir, '--database', database]);
  const serve = (args: string[], env: Record<string, string> = {}) => serveChild(main, args, { env, children });
  const serveCentral = (dataDir: string, database: string, port: number) =>
    serve(['--role', 'central', '--port', String(port), '--data-dir', dataDir, '--database', database, '--rate-reads', '0', '--rate-writes', '0', '--rate-sync', '0']);
  const serveStore = (dataDir: string) =>
    serve(['--port', '0', '--data-dir', dataDir], { POS_SYNC_BATCH_ITEMS: '10', POS_SYNC_INTERVAL_MS: '50', POS_SYNC_BACKOFF_MAX_MS: '300' });
  const sale = (storeId: string, terminalId: string, i: number, lines = 1) => ({
    transactionHeadDivision: '1',
    storeId,
    terminalId,
    terminalTranDateTime: '2026-11-27T01:00:00Z',
    details: Array.from({ length: lines }, (_, d) => ({
      transactionDetailId: String(d + 1), transactionDetailDivision: '1', productName: `Item ${i}`, salesPrice: String(100 + i), quantity: '1', taxDivision: '2',
    })),
  });

  /** Central's database and data dir, a contract with node 8 registered and an API client. */
  async function headOffice() {
    const database = await createMigratedDatabase(cluster);
    const dataDir = tempDir('pos-faults-hq-');
    await cli(['contract', 'create', '--id', CONTRACT, '--plan', 'retail_business'], dataDir, database);
    const node = (await cli(['node', 'add', '--contract', CONTRACT, '--node', '8'], dataDir, database)) as { secret: string };
    const client = (await cli(['client', 'create', '--contract', CONTRACT], dataDir, database)) as ApiClient;
    return { database, dataDir, secret: node.secret, client, port: await freePort() };
  }

  /** A store data dir linked to central as node 8, with an API client; read-only handle for the test. */
  async function storeLinkedTo(centralUrl: string, secret: string) {
    const store = await makeInstance('store', 8);
    dirs.push(store.dir);
    new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl, node: 8, secret });
    const client = { clientId: randomBytes(8).toString('hex'), clientSecret: randomBytes(16).toString('hex') };
    new AuthRepo(store.deps.db, store.deps.writer, store.clock).createClient({ clientId: client.clientId, contractId: CONTRACT, secret: client.clientSecret, scopes: ALL_SCOPES });
    store.deps.db.close();
    const db = new Database(join(store.dir, 'pos.sqlite'), { readonly: true });
    return { dir: store.dir, client, db, outbox: () => db.prepare('SELECT count(*) FROM outbox').pluck().get() as number };
  }

  /**
   * Central served, the store served and synced (it has central's store master and a register of
   * its own at central), then central stopped while the store takes SALES sales into its outbox;
   * central is served again by `restart`.
   */
  async function storeWithQueuedSales() {
    const hq = await headOffice();
    let central = await serveCentral(hq.dataDir, hq.database, hq.port);
    const hqApi = apiOf(central.url, CONTRACT, await tokenOf(central.url, CONTRACT, hq.client));
    const storeId = ((await (await hqApi('POST', '/stores', { storeName: 'Main' })).json()) as { storeId: string }).storeId;

    const store = await storeLinkedTo(central.url, hq.secret);
    const served = await serveStore(store.dir);
    const shopApi = apiOf(served.url, CONTRACT, await tokenOf(served.url, CONTRACT, store.client));
    expect(await until(async () => (await shopApi('GET', `/stores/${storeId}`)).status === 200)).toBe(true);
    const terminalId = ((await (await shopApi('POST', '/terminals', { storeId, terminalName: 'R1' })).json()) as { terminalId: string }[])[0]!.terminalId;
    expect(await until(() => store.outbox() === 0)).toBe(true);

    expect(await stopChild(central.child, 'SIGTERM')).toBe(0);
    for (let i = 0; i < SALES; i++) expect((await shopApi('POST', '/transactions', sale(storeId, terminalId, i))).status).toBe(200);
    expect(store.outbox()).toBe(SALES);
    return {
      hq,
      store,
      served,
      storeId,
      central: () => central,
      async restart() {
        central = await serveCentral(hq.dataDir, hq.database, hq.port);
        return central;
      },
      /** What the store and central said last, for a failure's message. */
      said: () => `store: ${store.db.prepare('SELECT last_error FROM sync_links').pluck().get()}\nstore output: ${served.output().slice(-3000)}\ncentral output: ${central.output().slice(-3000)}`,
      /** The store's sales, by id and total. */
      storeSales: () =>
        (store.db.prepare('SELECT transaction_head_id AS id, total FROM transactions ORDER BY transaction_head_id').all() as { id: number; total: string }[]).map((r) => `${r.id}:${r.total}`),
      /** Central's, read from PostgreSQL. */
      centralSales: async () =>
        (await queryAt(hq.database, 'SELECT transaction_head_id AS id, total FROM transactions ORDER BY transaction_head_id')).map((r) => `${r.id}:${r.total}`),
    };
  }

  /**
   * The store's outbox drains through `central`; then every sale of the store is at central exactly
   * once, with its line, no dead letter, no request failed, and both processes stop cleanly.
   */
  async function drainedExactlyOnce(net: Awaited<ReturnType<typeof storeWithQueuedSales>>, central: Served) {
    expect(await until(() => net.store.outbox() === 0, 120_000), net.said()).toBe(true);
    const { database } = net.hq;
    expect(await countAt(database, 'SELECT count(*) AS n FROM transactions')).toBe(SALES);
    expect(await countAt(database, 'SELECT count(*) AS n FROM transaction_details')).toBe(SALES);
    expect(await countAt(database, 'SELECT count(DISTINCT transaction_head_id) AS n FROM transaction_details')).toBe(SALES);
    expect(await countAt(database, 'SELECT count(*) AS n FROM dead_letters')).toBe(0);
    const store = net.storeSales();
    expect(store).toHaveLength(SALES);
    expect(await net.centralSales()).toEqual(store);
    expect(requestsFailed(central)).toEqual([]);
    expect(await stopChild(central.child, 'SIGTERM')).toBe(0);
    expect(await stopChild(net.served.child, 'SIGTERM')).toBe(0);
  }

  it('while PostgreSQL is stopped central answers 503 with Retry-After, never a 500 or a hang, and answers again by itself once it is back; a write cut by the stop is whole or absent', async () => {
    const hq = await headOffice();
    const central = await serveCentral(hq.dataDir, hq.database, hq.port);
    const api = apiOf(central.url, CONTRACT, await tokenOf(central.url, CONTRACT, hq.client));
    const { storeId } = (await (await api('POST', '/stores', { storeName: 'Main' })).json()) as { storeId: string };
    const terminalId = ((await (await api('POST', '/terminals', { storeId, terminalName: 'R1' })).json()) as { terminalId: string }[])[0]!.terminalId;

    // Sales of three lines each are written one after the other while PostgreSQL is stopped under them.
    const answers: { status: number; id?: string }[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing && i < 5000; i++) {
        const res = await api('POST', '/transactions', sale(storeId, terminalId, i, 3));
        const body = (await res.json()) as { transactionHeadId?: string };
        answers.push({ status: res.status, ...(body.transactionHeadId ? { id: body.transactionHeadId } : {}) });
      }
    })();
    expect(await until(() => answers.length >= 20)).toBe(true);
    await stopPostgres();
    expect(await until(() => answers.filter((a) => a.status === 503).length >= 3)).toBe(true);
    writing = false;
    await writer;
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200, 503]));

    // Reads, writes, the token endpoint and the sync endpoints: 503, Retry-After, problem+json.
    const probes = [
      () => api('GET', '/stores'),
      () => api('POST', '/stores', { storeName: 'During the outage' }),
      () => api('GET', '/terminals'),
      () =>
        fetch(`${central.url}/app/${CONTRACT}/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${hq.client.clientId}:${hq.client.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        }),
      () => fetch(`${central.url}/sync/${CONTRACT}/pull?cursor=0`, { headers: { authorization: `Basic ${Buffer.from(`8:${hq.secret}`).toString('base64')}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    ];
    for (const probe of probes) {
      const res = await probe();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable', detail: 'the database is unavailable; retry shortly' });
    }

    // PostgreSQL is back: the same process answers again, with nothing but 503 until it does.
    await startPostgres();
    const meanwhile: number[] = [];
    expect(
      await until(async () => {
        const status = (await api('GET', '/stores')).status;
        meanwhile.push(status);
        return status === 200;
      }, 60_000, 200),
    ).toBe(true);
    expect(new Set(meanwhile.slice(0, -1))).toEqual(new Set(meanwhile.length > 1 ? [503] : []));
    expect((await api('POST', '/stores', { storeName: 'After the outage' })).status).toBe(200);

    // Every sale answered 200 is there; every sale there has its three lines; none during the outage.
    const rows = await queryAt(hq.database, 'SELECT h.transaction_head_id AS id, count(d.transaction_detail_id) AS lines FROM transactions h LEFT JOIN transaction_details d ON d.contract_id = h.contract_id AND d.transaction_head_id = h.transaction_head_id GROUP BY h.transaction_head_id');
    const ids = new Set(rows.map((r) => String(r.id)));
    for (const a of answers.filter((x) => x.status === 200)) expect(ids.has(a.id!)).toBe(true);
    expect(rows.filter((r) => Number(r.lines) !== 3)).toEqual([]);
    expect(rows.length).toBeLessThanOrEqual(answers.length);
    expect((await queryAt(hq.database, 'SELECT store_name FROM stores ORDER BY store_id')).map((r) => r.store_name)).toEqual(['Main', 'After the outage']);
    expect(requestsFailed(central)).toEqual([]);
    expect(await stopChild(central.child, 'SIGTERM')).toBe(0);
  }, 240_000);

  it('central SIGKILLed in the middle of a store’s push, and served again: the store’s sync finishes and every sale is at central exactly once', async () => {
    const net = await storeWithQueuedSales();
    // Central comes back and is killed as soon as it has taken part of the outbox.
    await net.restart();
    expect(await until(async () => (await countAt(net.hq.database, 'SELECT count(*) AS n FROM transactions')) > 0, 60_000, 5), net.said()).toBe(true);
    await stopChild(net.central().child, 'SIGKILL');
    const atKill = await countAt(net.hq.database, 'SELECT count(*) AS n FROM transactions');
    expect(atKill).toBeLessThan(SALES);
    expect(net.store.outbox()).toBeGreaterThan(0);

    const central = await net.restart();
    await drainedExactlyOnce(net, central);
  }, 300_000);

  it('PostgreSQL stopped and started while a store drains its outbox: central answers 503 with Retry-After meanwhile, the store retries by itself, every sale is at central exactly once', async () => {
    const net = await storeWithQueuedSales();
    const central = await net.restart();
    const api = apiOf(central.url, CONTRACT, await tokenOf(central.url, CONTRACT, net.hq.client));
    expect(await until(async () => (await countAt(net.hq.database, 'SELECT count(*) AS n FROM transactions')) > 0, 60_000, 5), net.said()).toBe(true);
    await stopPostgres();
    expect(net.store.outbox()).toBeGreaterThan(0);

    const res = await api('GET', '/stores');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    // The store is told so too, and keeps its sales until central can take them.
    const lastError = () => net.store.db.prepare('SELECT last_error FROM sync_links').pluck().get() as string | null;
    expect(await until(() => /503/.test(lastError() ?? ''), 30_000)).toBe(true);
    expect(net.store.outbox()).toBeGreaterThan(0);

    await startPostgres();
    await drainedExactlyOnce(net, central);
  }, 300_000);
});
