import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { DatabaseUnavailable } from '../../server/db/pg/errors.js';
import { DatabaseUnreachable, openPostgres } from '../../server/db/pg/open.js';
import { PgSyncClient } from '../../server/db/pg/sync-client.js';
import { LinkRepo } from '../../sync/link.js';
import { postgresBinDir } from '../helpers/postgres-cluster.js';
import { startPrimaryWithStandby, type PrimaryWithStandby } from '../helpers/postgres-standby.js';
import { apiOf, countAt, queryAt, sleep, tokenOf, until, type ApiClient } from '../helpers/central-cluster.js';
import { ROOT, requestsFailed, running, runCli, serveChild, serverCopy, stopChild } from '../helpers/serve-child.js';
import { CONTRACT, freePort, makeInstance } from '../sync/helpers.js';

/**
 * A standby that takes over (issue 24), with real processes on 127.0.0.1: a PostgreSQL primary
 * with a synchronous streaming standby (test/helpers/postgres-standby.ts), central on the URL
 * listing both (`…@127.0.0.1:P1,127.0.0.1:P2/db?target_session_attrs=read-write`), the primary
 * killed (`pg_ctl stop -m immediate`) and the standby promoted (`pg_ctl promote`).
 *
 * - The client (the worker every request's statements go through) passes over the standby while it
 *   is read-only, fails meanwhile with DatabaseUnavailable (503), and lands on the promoted standby
 *   by itself; the pool (migrations, CSV export) does the same.
 * - Central, the compiled CLI, killed under during a store's drain: it answers 503 with Retry-After
 *   while no read-write server is reachable, then the drain finishes by itself after the promotion
 *   and central holds exactly the store's sales, none lost, none twice.
 */
const OUT = '.test-dist-failover-pg';
const SALES = 300;
const dbName = (url: string) => new URL(url).pathname.slice(1);

describe('a standby that takes over', () => {
  let pair: PrimaryWithStandby | undefined;
  afterEach(async () => {
    await pair?.destroy();
    pair = undefined;
  }, 60_000);

  it('the client and the pool pass over the standby while it is read-only, fail as unavailable meanwhile, and land on it once promoted', async () => {
    pair = await startPrimaryWithStandby();
    expect(await pair.replication()).toEqual([{ application_name: 'standby1', state: 'streaming', sync_state: 'sync' }]);
    const name = dbName(await pair.primary.createDatabase());
    const url = pair.url(name);
    // The standby listed first: a read-write connection passes over it to the primary.
    const standbyFirst = `postgres://postgres@127.0.0.1:${pair.standby.port},127.0.0.1:${pair.primary.port}/${name}?target_session_attrs=read-write`;

    const client = new PgSyncClient({ connectionString: standbyFirst, connectTimeoutMs: 2000, reconnectPauseMs: 200 });
    try {
      client.query('CREATE TABLE sales (id integer PRIMARY KEY, total text NOT NULL)');
      client.transaction(() => {
        for (let id = 1; id <= 3; id++) client.query('INSERT INTO sales VALUES (?, ?)', [id, `${id}00.00`]);
      });
      expect(client.query("SELECT inet_server_port() AS port, current_setting('transaction_read_only') AS ro").rows).toEqual([{ port: pair.primary.port, ro: 'off' }]);
      // Synchronous: the committed rows are on the standby already (flushed; read once replayed).
      await pair.replayed();
      expect((await queryAt(pair.standby.url(name), 'SELECT count(*)::int AS n FROM sales'))[0].n).toBe(3);

      const pool = createPool(parseDatabaseUrl(url), { max: 1, connectTimeoutMs: 2000 });
      try {
        expect((await pool.query('SELECT inet_server_port() AS port')).rows[0].port).toBe(pair.primary.port);
      } finally {
        await pool.end();
      }

      await pair.primary.kill();
      // The connection is gone, and the only server left is read-only: unavailable, never a query error.
      const failures: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        try {
          client.query('SELECT count(*) FROM sales');
        } catch (error) {
          failures.push(error);
        }
        await sleep(250);
      }
      expect(failures).toHaveLength(3);
      for (const failure of failures) expect(failure).toBeInstanceOf(DatabaseUnavailable);
      expect(failures.map((f) => (f as Error).message).join('\n')).toMatch(new RegExp(`127\\.0\\.0\\.1:${pair.standby.port} is read-only \\(a standby\\)`));
      const opening = await openPostgres(url, { connectTimeoutMs: 2000 }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(opening).toBeInstanceOf(DatabaseUnreachable);
      expect(opening!.message).toBe(
        `cannot use PostgreSQL at postgres://postgres@127.0.0.1:${pair.primary.port},127.0.0.1:${pair.standby.port}/${name}?target_session_attrs=read-write: ` +
          `no read-write server among the 2 hosts: 127.0.0.1:${pair.primary.port} connection refused (is PostgreSQL running and listening there?); 127.0.0.1:${pair.standby.port} is read-only (a standby)`,
      );

      await pair.standby.promote();
      // The same client, unchanged: its next connect finds the new primary.
      expect(await until(() => {
        try {
          client.query('SELECT 1');
          return true;
        } catch (error) {
          if (!(error instanceof DatabaseUnavailable)) throw error;
          return false;
        }
      }, 30_000, 100)).toBe(true);
      client.query('INSERT INTO sales VALUES (?, ?)', [4, '400.00']);
      expect(client.query("SELECT inet_server_port() AS port, current_setting('transaction_read_only') AS ro").rows).toEqual([{ port: pair.standby.port, ro: 'off' }]);
      expect(client.query('SELECT id, total FROM sales ORDER BY id').rows).toEqual([
        { id: 1, total: '100.00' },
        { id: 2, total: '200.00' },
        { id: 3, total: '300.00' },
        { id: 4, total: '400.00' },
      ]);
      const opened = await openPostgres(url, { connectTimeoutMs: 2000 });
      try {
        expect((await opened.pool.query('SELECT inet_server_port() AS port')).rows[0].port).toBe(pair.standby.port);
      } finally {
        await opened.pool.end();
      }
    } finally {
      client.close();
    }
  }, 120_000);

  it('a commit the synchronous standby did not confirm is never reported as done: unavailable, outcome unknown', async () => {
    pair = await startPrimaryWithStandby();
    const name = dbName(await pair.primary.createDatabase());
    const client = new PgSyncClient({ connectionString: pair.url(name), connectTimeoutMs: 2000, statementTimeoutMs: 2000 });
    const outcome = (fn: () => void) => {
      try {
        fn();
        return 'done';
      } catch (error) {
        expect(error).toBeInstanceOf(DatabaseUnavailable);
        return { commitUnknown: (error as DatabaseUnavailable).commitUnknown, message: (error as Error).message };
      }
    };
    /**
     * Another process cancels the COMMIT waiting for the standby (wait_event SyncRep), as an
     * operator's pg_cancel_backend would: this thread is blocked in the call meanwhile.
     */
    const cancelWaitingCommit = () => {
      const psql = join(postgresBinDir(), 'psql');
      const sql = "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep'";
      const script = `for i in $(seq 100); do n=$("${psql}" -h 127.0.0.1 -p ${pair!.primary.port} -U postgres -d postgres -tAc "${sql}"); [ "$n" -gt 0 ] && exit 0; sleep 0.05; done; exit 1`;
      return spawn('sh', ['-c', script], { stdio: 'ignore' });
    };
    try {
      client.query('CREATE TABLE sales (id integer PRIMARY KEY)');
      client.transaction(() => client.query('INSERT INTO sales VALUES (1)'));
      await pair.standby.kill();

      // Cancelled, the wait ends in a warning and COMMIT "succeeds": committed on the primary alone.
      let canceller = cancelWaitingCommit();
      expect(outcome(() => client.transaction(() => client.query('INSERT INTO sales VALUES (2)')))).toEqual({
        commitUnknown: true,
        message: expect.stringMatching(/the commit was not confirmed: canceling wait for synchronous replication/),
      });
      await new Promise((r) => canceller.on('exit', r));
      // A statement outside a transaction commits by itself: the same.
      canceller = cancelWaitingCommit();
      expect(outcome(() => client.query('INSERT INTO sales VALUES (3)'))).toEqual({ commitUnknown: true, message: expect.stringMatching(/not confirmed/) });
      await new Promise((r) => canceller.on('exit', r));
      // A COMMIT sent with statements before it (pipelined: here a savepoint's RELEASE): the same.
      canceller = cancelWaitingCommit();
      const withSavepoint = () =>
        client.transaction(() => {
          client.query('INSERT INTO sales VALUES (5)');
          client.transaction(() => client.query('INSERT INTO sales VALUES (6)'));
        });
      expect(outcome(withSavepoint)).toEqual({ commitUnknown: true, message: expect.stringMatching(/not confirmed/) });
      await new Promise((r) => canceller.on('exit', r));
      // Left waiting, the COMMIT outlasts the client's timer (statement_timeout does not cover it).
      expect(outcome(() => client.transaction(() => client.query('INSERT INTO sales VALUES (4)')))).toEqual({ commitUnknown: true, message: expect.stringMatching(/timeout/) });
      // Reads do not wait for the standby; the last sale is still waiting for it, unseen.
      expect(client.query('SELECT id FROM sales ORDER BY id').rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 5 }, { id: 6 }]);
    } finally {
      client.close();
    }
  }, 120_000);

  describe('central and a draining store', () => {
    let main: string;
    const children: ChildProcess[] = [];
    const dirs: string[] = [];
    beforeAll(() => {
      main = serverCopy(OUT);
    }, 240_000);
    afterAll(() => {
      for (const child of children) if (running(child)) child.kill('SIGKILL');
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      rmSync(join(ROOT, OUT), { recursive: true, force: true });
    });

    /** A one-shot command of the compiled CLI at head office; its JSON line. */
    const cli = (args: string[], dataDir: string, database: string) => runCli(main, [...args, '--data-dir', dataDir, '--database', database]);
    const serve = (args: string[], env: Record<string, string> = {}) => serveChild(main, args, { env, children });
    const sale = (storeId: string, terminalId: string, i: number) => ({
      transactionHeadDivision: '1',
      storeId,
      terminalId,
      terminalTranDateTime: '2026-11-27T01:00:00Z',
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: `Item ${i}`, salesPrice: String(100 + i), quantity: '1', taxDivision: '2' }],
    });

    it('the primary killed mid-drain: central answers 503 with Retry-After until the standby is promoted, reconnects by itself, and holds every sale of the store exactly once', async () => {
      pair = await startPrimaryWithStandby();
      const name = dbName(await pair.primary.createDatabase());
      const both = pair.url(name);
      const onNewPrimary = pair.standby.url(name);
      const onOldPrimary = pair.primary.url(name);

      // Head office set up through the URL listing both servers (the first command migrates).
      const hqDir = mkdtempSync(join(tmpdir(), 'pos-failover-hq-'));
      dirs.push(hqDir);
      await cli(['contract', 'create', '--id', CONTRACT, '--plan', 'retail_business'], hqDir, both);
      const node = (await cli(['node', 'add', '--contract', CONTRACT, '--node', '8'], hqDir, both)) as { secret: string };
      const hqClient = (await cli(['client', 'create', '--contract', CONTRACT], hqDir, both)) as ApiClient;
      const port = await freePort();
      const serveCentral = () =>
        serve(['--role', 'central', '--port', String(port), '--data-dir', hqDir, '--database', both, '--rate-reads', '0', '--rate-writes', '0', '--rate-sync', '0']);
      let central = await serveCentral();
      expect(central.ready.database).toBe(`postgres://postgres@127.0.0.1:${pair.primary.port},127.0.0.1:${pair.standby.port}/${name}?target_session_attrs=read-write`);
      let hqApi = apiOf(central.url, CONTRACT, await tokenOf(central.url, CONTRACT, hqClient));
      const storeId = ((await (await hqApi('POST', '/stores', { storeName: 'Main' })).json()) as { storeId: string }).storeId;

      // A store linked to central as node 8, synced, then SALES sales queued while central is stopped.
      const store = await makeInstance('store', 8);
      dirs.push(store.dir);
      new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url, node: 8, secret: node.secret });
      const storeClient = { clientId: randomBytes(8).toString('hex'), clientSecret: randomBytes(16).toString('hex') };
      new AuthRepo(store.deps.db, store.deps.writer, store.clock).createClient({ clientId: storeClient.clientId, contractId: CONTRACT, secret: storeClient.clientSecret, scopes: ALL_SCOPES });
      store.deps.db.close();
      const storeDb = new Database(join(store.dir, 'pos.sqlite'), { readonly: true });
      try {
        const outbox = () => storeDb.prepare('SELECT count(*) FROM outbox').pluck().get() as number;
        const lastError = () => storeDb.prepare('SELECT last_error FROM sync_links').pluck().get() as string | null;
        const shop = await serve(['--port', '0', '--data-dir', store.dir], { POS_SYNC_BATCH_ITEMS: '10', POS_SYNC_INTERVAL_MS: '50', POS_SYNC_BACKOFF_MAX_MS: '300' });
        const said = () => `store: ${lastError()}\nstore output: ${shop.output().slice(-3000)}\ncentral output: ${central.output().slice(-3000)}`;
        const shopApi = apiOf(shop.url, CONTRACT, await tokenOf(shop.url, CONTRACT, storeClient));
        expect(await until(async () => (await shopApi('GET', `/stores/${storeId}`)).status === 200), said()).toBe(true);
        const terminalId = ((await (await shopApi('POST', '/terminals', { storeId, terminalName: 'R1' })).json()) as { terminalId: string }[])[0]!.terminalId;
        expect(await until(() => outbox() === 0), said()).toBe(true);
        expect(await stopChild(central.child, 'SIGTERM')).toBe(0);
        for (let i = 0; i < SALES; i++) expect((await shopApi('POST', '/transactions', sale(storeId, terminalId, i))).status).toBe(200);
        expect(outbox()).toBe(SALES);

        // Central back: the store drains; the primary dies as soon as part of the outbox is in.
        central = await serveCentral();
        hqApi = apiOf(central.url, CONTRACT, await tokenOf(central.url, CONTRACT, hqClient));
        expect(await until(async () => (await countAt(onOldPrimary, 'SELECT count(*) AS n FROM transactions')) > 0, 60_000, 5), said()).toBe(true);
        await pair.primary.kill();
        expect(outbox()).toBeGreaterThan(0);

        // No read-write server: 503 with Retry-After, to head office and to the store alike.
        const res = await hqApi('GET', '/stores');
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await res.json()).toMatchObject({ status: 503, detail: 'the database is unavailable; retry shortly' });
        expect(await until(() => /503/.test(lastError() ?? ''), 30_000), said()).toBe(true);
        expect(outbox()).toBeGreaterThan(0);
        expect((await hqApi('GET', '/stores')).status).toBe(503);

        // The standby promoted: nothing restarts; central finds it and the drain finishes by itself.
        await pair.standby.promote();
        expect(await until(() => outbox() === 0, 120_000), said()).toBe(true);
        expect((await hqApi('GET', '/stores')).status).toBe(200);

        // Exactly the store's sales, by id and total: none lost, none twice.
        expect(await countAt(onNewPrimary, 'SELECT count(*) AS n FROM transactions')).toBe(SALES);
        expect(await countAt(onNewPrimary, 'SELECT count(DISTINCT transaction_head_id) AS n FROM transactions')).toBe(SALES);
        expect(await countAt(onNewPrimary, 'SELECT count(*) AS n FROM transaction_details')).toBe(SALES);
        expect(await countAt(onNewPrimary, 'SELECT count(*) AS n FROM dead_letters')).toBe(0);
        const storeSales = (storeDb.prepare('SELECT transaction_head_id AS id, total FROM transactions ORDER BY transaction_head_id').all() as { id: number; total: string }[]).map((r) => `${r.id}:${r.total}`);
        expect(storeSales).toHaveLength(SALES);
        const centralSales = (await queryAt(onNewPrimary, 'SELECT transaction_head_id AS id, total FROM transactions ORDER BY transaction_head_id')).map((r) => `${r.id}:${r.total}`);
        expect(centralSales).toEqual(storeSales);
        expect(requestsFailed(central), said()).toEqual([]);
        expect(await stopChild(central.child, 'SIGTERM')).toBe(0);
        expect(await stopChild(shop.child, 'SIGTERM')).toBe(0);
      } finally {
        storeDb.close();
      }
    }, 300_000);
  });
});
