import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import type { AppDeps } from '../../server/deps.js';
import { runCleanup } from '../../server/jobs/cleanup.js';
import { exportDirOf, removeGoneFiles } from '../../server/jobs/csv-export/downloads.js';
import { ownerHome, runnerOf, STALE_MS } from '../../server/jobs/csv-export/runner.js';
import { CHUNK_BYTES } from '../../server/jobs/csv-export/worker.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { ALL_SCOPES } from '../../server/platform/http/scopes.js';
import { onPostgres } from '../helpers/engine.js';
import { buildApp } from '../helpers/modules.js';
import { centralsOnOneDatabase, type CentralsOnOneDatabase } from '../helpers/one-database.js';
import { ensureDistBuilt } from '../ui/support/build.js';

/**
 * Issue 24: CSV exports with several central processes on one database. Two real apps, each with
 * its own connection and its own data dir (on SQLite, where central is one process, the same
 * file), run their own export runners: an export made by one downloads byte for byte through the
 * other (PostgreSQL: the file's chunks in the database), and a starting runner takes over only
 * the exports whose owner stopped beating.
 */
const CONTRACT = 'cluster-contract';
const PATH = '/transactions/details/out_file_async';
const T0 = Math.floor(Date.now() / 1000) * 1000;

interface Process {
  deps: AppDeps;
  app: FastifyInstance | null;
}

let centrals: CentralsOnOneDatabase | undefined;
let processes: Process[] = [];
let clock: FixedClock;

beforeAll(async () => {
  await ensureDistBuilt();
}, 300_000);

afterEach(async () => {
  for (const p of processes) await p.app?.close();
  await centrals?.close();
  [centrals, processes] = [undefined, []];
});

/** One central process's deps on the test's database. */
function open(): Process {
  const p = { deps: centrals!.open({ clock, checkResponses: true }), app: null };
  processes.push(p);
  return p;
}

async function start(p: Process): Promise<FastifyInstance> {
  p.app = await buildApp(p.deps);
  return p.app;
}

/** The contract, an API client's token, a store, a terminal and two sales, made through `app`. */
async function seed(p: Process, app: FastifyInstance): Promise<string> {
  new ContractRepo(p.deps.db, p.deps.writer, clock).create({ contractId: CONTRACT, name: 'Cluster', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
  new AuthRepo(p.deps.db, p.deps.writer, clock).createClient({ clientId: 'c1', contractId: CONTRACT, secret: 's'.repeat(32), scopes: ALL_SCOPES });
  const token = (
    await app.inject({
      method: 'POST',
      url: `/app/${CONTRACT}/token`,
      headers: { authorization: `Basic ${Buffer.from(`c1:${'s'.repeat(32)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    })
  ).json().access_token as string;
  const create = async (path: string, body: object) => {
    const res = await app.inject({ method: 'POST', url: `/${CONTRACT}/pos${path}`, headers: { authorization: `Bearer ${token}` }, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json();
    return Array.isArray(json) ? json[0] : json;
  };
  const storeId = (await create('/stores', { storeName: 'Main' })).storeId as string;
  const terminalId = (await create('/terminals', { storeId, terminalName: 'R1' })).terminalId as string;
  for (const [n, name] of [
    [1, 'Tee "Basic", white'],
    [2, 'お茶\n500ml'],
  ] as const) {
    clock.advance(60_000);
    await create('/transactions', {
      transactionHeadDivision: '1',
      storeId,
      terminalId,
      terminalTranDateTime: clock.now().toISOString(),
      details: [{ transactionDetailId: String(n), transactionDetailDivision: '1', productName: name, salesPrice: '1200', quantity: String(n), taxDivision: '0' }],
    });
  }
  return token;
}

const exportBody = () => ({ transactionDateTimeFrom: new Date(T0).toISOString(), transactionDateTimeTo: new Date(clock.now().getTime() + 60_000).toISOString() });

async function requestExport(app: FastifyInstance, token: string, code: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/${CONTRACT}/pos${PATH}`, headers: { authorization: `Bearer ${token}`, 'request-code': code }, payload: exportBody() });
  expect(res.statusCode, res.body).toBe(200);
}

/** Waits (bounded) until the export is no longer queued or running; its row then. */
async function settled(p: Process, code: string, tries = 400): Promise<Record<string, any>> {
  const row = p.deps.db.prepare('SELECT * FROM transaction_exports WHERE contract_id = ? AND request_code = ?');
  for (let i = 0; i < tries; i++) {
    const r = row.get(CONTRACT, code) as Record<string, any>;
    if (r.status === 'succeeded' || r.status === 'failed') return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the export ${code} did not finish: ${JSON.stringify(row.get(CONTRACT, code))}`);
}

describe('CSV exports on several central processes', () => {
  it.skipIf(!onPostgres)('an export made by one process downloads byte for byte through another; the clean-up removes it from both', async () => {
    centrals = await centralsOnOneDatabase('pos-cluster-');
    clock = new FixedClock(new Date(T0));
    const [a, b] = [open(), open()];
    const [appA, appB] = [await start(a), await start(b)];
    const token = await seed(a, appA);
    await requestExport(appA, token, 'E-1');
    const row = await settled(a, 'E-1');
    expect(row).toMatchObject({ status: 'succeeded', rows_written: 2, owner: runnerOf(a.deps)!.owner, heartbeat_at: null });

    // The progress read through B gives the signed URL; B has no file of its own.
    const progress = await appB.inject({ method: 'GET', url: `/${CONTRACT}/pos${PATH}/E-1`, headers: { authorization: `Bearer ${token}` } });
    expect(progress.statusCode, progress.body).toBe(200);
    const url = new URL(progress.json().fileUrl as string);
    expect(existsSync(join(exportDirOf(b.deps.db), row.file_name))).toBe(false);
    const made = readFileSync(join(exportDirOf(a.deps.db), row.file_name));
    expect(made.length).toBe(row.file_bytes);

    const viaB = await appB.inject({ method: 'GET', url: url.pathname + url.search });
    expect(viaB.statusCode, viaB.body).toBe(200);
    expect(viaB.headers).toMatchObject({ 'content-type': 'application/gzip', 'content-length': String(made.length) });
    expect(viaB.rawPayload.equals(made)).toBe(true);
    expect(gunzipSync(viaB.rawPayload).toString('utf8')).toContain('お茶\n500ml');
    // And through A, from its own file, the same bytes.
    const viaA = await appA.inject({ method: 'GET', url: url.pathname + url.search });
    expect(viaA.rawPayload.equals(made)).toBe(true);

    // An hour later B's clean-up deletes the file's chunks with the row's file; A then drops its copy.
    clock.advance(3600_000 + 1000);
    expect(runCleanup(b.deps, clock.now()).exportFiles).toBe(1);
    expect(b.deps.db.prepare('SELECT COUNT(*) FROM transaction_export_chunks').pluck().get()).toBe(0);
    removeGoneFiles(a.deps.db);
    expect(readdirSync(exportDirOf(a.deps.db))).toEqual([]);
  });

  it.skipIf(!onPostgres)('a file of several chunks comes back whole, in order', async () => {
    centrals = await centralsOnOneDatabase('pos-cluster-');
    clock = new FixedClock(new Date(T0));
    const [a, b] = [open(), open()];
    const [appA, appB] = [await start(a), await start(b)];
    const token = await seed(a, appA);
    await requestExport(appA, token, 'E-2');
    const row = await settled(a, 'E-2');
    // The worker stored one chunk; replace it by the same bytes in three chunks, as a file of over 2 MiB is stored.
    const made = readFileSync(join(exportDirOf(a.deps.db), row.file_name));
    const cut = [0, Math.floor(made.length / 3), Math.floor((2 * made.length) / 3), made.length];
    a.deps.writer.write(() => {
      a.deps.db.prepare('DELETE FROM transaction_export_chunks WHERE export_id = ?').run(row.export_id);
      for (let seq = 0; seq < 3; seq++) {
        a.deps.db
          .prepare('INSERT INTO transaction_export_chunks (export_id, owner, seq, data) VALUES (?, ?, ?, ?)')
          .run(row.export_id, row.owner, seq, made.subarray(cut[seq], cut[seq + 1]).toString('base64'));
      }
    });
    expect(made.length).toBeLessThan(CHUNK_BYTES);
    const progress = await appB.inject({ method: 'GET', url: `/${CONTRACT}/pos${PATH}/E-2`, headers: { authorization: `Bearer ${token}` } });
    const url = new URL(progress.json().fileUrl as string);
    const viaB = await appB.inject({ method: 'GET', url: url.pathname + url.search });
    expect(viaB.rawPayload.equals(made)).toBe(true);
    // Without chunks (and without a file of its own) B answers 404.
    a.deps.writer.write(() => a.deps.db.prepare('DELETE FROM transaction_export_chunks WHERE export_id = ?').run(row.export_id));
    expect((await appB.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(404);
  });

  it('a starting process takes over an export whose owner stopped beating or was its own data dir’s earlier run, never one whose owner is alive', async () => {
    centrals = await centralsOnOneDatabase('pos-cluster-');
    clock = new FixedClock(new Date(T0));
    const a = open();
    const appA = await start(a);
    const token = await seed(a, appA);
    await requestExport(appA, token, 'LIVE');
    await requestExport(appA, token, 'STALE');
    await requestExport(appA, token, 'HOME');
    await settled(a, 'LIVE');
    await settled(a, 'STALE');
    await settled(a, 'HOME');
    // A stops; as if two other processes were mid-way, one beating now, one that died a minute ago,
    // and an earlier run of B's own data dir crashed a moment ago.
    await appA.close();
    a.app = null;
    const now = clock.now().getTime();
    const mid = a.deps.db.prepare(
      "UPDATE transaction_exports SET status = 'running', owner = ?, heartbeat_at = ?, attempts = 1, rows_written = 1, file_name = NULL, finished_at = NULL, expires_at = NULL WHERE request_code = ?",
    );
    a.deps.writer.write(() => {
      mid.run('other-host:1:live', now, 'LIVE');
      mid.run('other-host:2:dead', now - STALE_MS - 1, 'STALE');
    });
    const b = open();
    mid.run(`${ownerHome(b.deps.db)}1:crashed`, now, 'HOME');

    await start(b);
    const runner = runnerOf(b.deps)!;
    await runner.recovered;
    const stale = await settled(b, 'STALE');
    expect(stale).toMatchObject({ status: 'succeeded', rows_written: 2, attempts: 2, owner: runner.owner });
    expect(await settled(b, 'HOME')).toMatchObject({ status: 'succeeded', attempts: 2, owner: runner.owner });
    const live = b.deps.db.prepare("SELECT status, owner, heartbeat_at, attempts FROM transaction_exports WHERE request_code = 'LIVE'");
    expect(live.get()).toEqual({ status: 'running', owner: 'other-host:1:live', heartbeat_at: now, attempts: 1 });

    // Its owner stops beating: once the heartbeat is stale, B's next look takes it over too.
    clock.advance(STALE_MS + 1);
    expect(await settled(b, 'LIVE')).toMatchObject({ status: 'succeeded', attempts: 2, owner: runner.owner });
  });

  it.skipIf(!onPostgres)('its owner beats while it runs; an owner whose export was taken over stops and records nothing; a stopping owner clears its beat', async () => {
    centrals = await centralsOnOneDatabase('pos-cluster-');
    clock = new FixedClock(new Date(T0));
    const a = open();
    const appA = await start(a);
    const token = await seed(a, appA);
    const runner = runnerOf(a.deps)!;
    runner.heartbeatMs = 100;
    const finished: string[] = [];
    runner.on('finished', (f: { requestCode: string }) => finished.push(f.requestCode));
    const row = a.deps.db.prepare('SELECT status, owner, heartbeat_at FROM transaction_exports WHERE contract_id = ? AND request_code = ?');
    const until = async (what: string, done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      if (!done()) throw new Error(`gave up waiting: ${what}`);
    };
    // The worker's reading waits behind a lock another session holds, so the export stays running.
    const locker = new pg.Client({ connectionString: centrals!.database.postgresUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE transaction_details IN ACCESS EXCLUSIVE MODE');
      await requestExport(appA, token, 'H-1');
      await until('H-1 running', () => (row.get(CONTRACT, 'H-1') as { status: string }).status === 'running');
      const id = a.deps.db.prepare("SELECT export_id FROM transaction_exports WHERE request_code = 'H-1'").pluck().get() as string;
      clock.advance(1000);
      await until('a beat', () => (row.get(CONTRACT, 'H-1') as { heartbeat_at: number }).heartbeat_at === clock.now().getTime());
      expect(row.get(CONTRACT, 'H-1')).toEqual({ status: 'running', owner: runner.owner, heartbeat_at: clock.now().getTime() });
      // Another process takes it over (as if A had stalled): A's next beat finds it lost and stops its worker.
      a.deps.writer.write(() => a.deps.db.prepare("UPDATE transaction_exports SET owner = 'other-host:9:x', heartbeat_at = ? WHERE request_code = 'H-1'").run(clock.now().getTime()));
      await until('the worker stopped', () => runner.live(id) === undefined);
      await locker.query('COMMIT');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(row.get(CONTRACT, 'H-1')).toEqual({ status: 'running', owner: 'other-host:9:x', heartbeat_at: clock.now().getTime() });
      expect(a.deps.db.prepare('SELECT COUNT(*) FROM transaction_export_chunks').pluck().get()).toBe(0);

      // Stopping while it runs an export: the export stays running, its beat cleared, for the next runner at once.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE transaction_details IN ACCESS EXCLUSIVE MODE');
      await requestExport(appA, token, 'H-2');
      await until('H-2 running', () => (row.get(CONTRACT, 'H-2') as { status: string }).status === 'running');
      await appA.close();
      a.app = null;
      expect(row.get(CONTRACT, 'H-2')).toEqual({ status: 'running', owner: runner.owner, heartbeat_at: null });
      expect(finished).toEqual([]);
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
    }
  });
});
