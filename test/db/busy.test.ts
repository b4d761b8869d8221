import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseBusy, Writer } from '../../server/db/write.js';
import { loggerOptions } from '../../server/platform/http/logging.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/**
 * Another process (the CLI, an sqlite3 shell, a backup) holds the write lock: a second
 * connection on the same file plays it. The server keeps answering, retries the write
 * asynchronously, and answers 503 with Retry-After when the lock outlasts its limit.
 */
describe('a write blocked by another connection', () => {
  let t: TestApp;
  let other: Database.Database;
  let lines: string[];
  beforeEach(async () => {
    lines = [];
    t = await makeTestApp({ logger: loggerOptions('info', { write: (line: string) => void lines.push(line) }) });
    t.deps.config.busyRetryMs = 1000;
    other = new Database(t.deps.db.name);
  });
  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await t.close();
  });

  it('leaves the server answering meanwhile, and answers 503 with Retry-After past the limit', async () => {
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const write = t.api('POST', '/stores', { storeName: 'Blocked' });
    await sleep(50);

    const healthStarted = Date.now();
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(Date.now() - healthStarted).toBeLessThan(500);
    // Reads go on too (WAL).
    const readStarted = Date.now();
    expect((await t.api('GET', '/stores')).statusCode).toBe(200);
    expect(Date.now() - readStarted).toBeLessThan(500);

    const res = await write;
    const elapsed = Date.now() - started;
    expect(problem(res, 503)).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the database is locked by another program (a command line tool or a backup); retry shortly',
    });
    expect(res.headers['retry-after']).toBe('1');
    expect(elapsed).toBeGreaterThanOrEqual(700);
    expect(elapsed).toBeLessThan(3000);

    other.exec('ROLLBACK');
    const stores = (await t.api('GET', '/stores')).json() as { storeName: string }[];
    expect(stores.map((s) => s.storeName)).not.toContain('Blocked');

    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; status?: number });
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, msg: 'database busy: answered 503', status: 503 }));
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('goes through once the lock is released within the limit, written once', async () => {
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.exec('COMMIT'), 300);
    const started = Date.now();
    const res = await t.api('POST', '/stores', { storeName: 'Waited' });
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const stores = (await t.api('GET', '/stores')).json() as { storeName: string }[];
    expect(stores.filter((s) => s.storeName === 'Waited')).toHaveLength(1);
  });

  it('the token endpoint (which awaits a hash) is retried too', async () => {
    const { clientId, clientSecret } = t.createClient(t.contractId);
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.exec('COMMIT'), 200);
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('Writer', () => {
  it('turns SQLITE_BUSY into DatabaseBusy, commits nothing, and counts commits', async () => {
    const t = await makeTestApp();
    const other = new Database(t.deps.db.name);
    const writer = new Writer(t.deps.db);
    const before = writer.commits;
    writer.write(() => t.deps.db.prepare('CREATE TABLE IF NOT EXISTS busy_probe (x)').run());
    expect(writer.commits).toBe(before + 1);
    other.exec('BEGIN IMMEDIATE');
    expect(() => writer.write(() => t.deps.db.prepare('INSERT INTO busy_probe VALUES (1)').run())).toThrow(DatabaseBusy);
    expect(writer.commits).toBe(before + 1);
    other.exec('COMMIT');
    writer.write(() => t.deps.db.prepare('INSERT INTO busy_probe VALUES (2)').run());
    expect(t.deps.db.prepare('SELECT x FROM busy_probe').pluck().all()).toEqual([2]);
    other.close();
    await t.close();
  });
});
