import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

/**
 * The dialect fragments that make work happen once across central processes (issue 24):
 * claimRowsOf (webhook deliveries and events, sync/webhooks/deliveries.ts) and tryLockOf (the
 * scheduled jobs' slot, server/jobs/job-runs.ts). On PostgreSQL, two real connections act as two
 * processes with their transactions open at once: they claim different rows, neither waits, and
 * the job's lock is held by one at a time. On SQLite, whose write transaction is already the
 * claim, the same statements answer the same rows.
 */

const DDL = [
  'CREATE TABLE work (id INTEGER PRIMARY KEY, due INTEGER NOT NULL, sub_id INTEGER)',
  'CREATE TABLE subs (sub_id INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  "INSERT INTO subs (sub_id, name) VALUES (1, 'one')",
  'INSERT INTO work (id, due, sub_id) VALUES (1, 1, 1), (2, 1, NULL), (3, 1, 1), (4, 1, NULL), (5, 0, 1)',
];
/** The claim's shape as the deliveries' one: a LEFT JOIN (its nullable side cannot be locked), ordered, limited. */
const pick = (dialect: typeof sqliteDialect, limit: number) =>
  `SELECT w.id, s.name FROM work w LEFT JOIN subs s ON s.sub_id = w.sub_id WHERE w.due = 1 ORDER BY w.id LIMIT ${limit} ${dialect.claimRowsOf('w')}`;

describe('claim fragments on two PostgreSQL connections at once, and on SQLite', () => {
  let cluster: PgCluster;
  let a: pg.Client;
  let b: pg.Client;
  let sqlite: Database.Database;

  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await a.connect();
    await b.connect();
    for (const statement of DDL) await a.query(statement.replace('INTEGER PRIMARY KEY', 'bigint PRIMARY KEY').replaceAll('INTEGER', 'bigint'));
    sqlite = new Database(':memory:');
    for (const statement of DDL) sqlite.exec(statement);
  }, 120_000);
  afterAll(async () => {
    await a?.end();
    await b?.end();
    sqlite?.close();
    await cluster?.stop();
  });

  const ids = (result: pg.QueryResult) => result.rows.map((r: { id: string | number }) => Number(r.id));

  it('claimRowsOf: two open transactions pick different rows without waiting; a claim rolled back is picked again', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    expect(ids(await a.query(pick(postgresDialect, 2)))).toEqual([1, 2]);
    // The second connection passes over the rows the first holds (it would wait here without SKIP LOCKED).
    expect(ids(await b.query(pick(postgresDialect, 2)))).toEqual([3, 4]);
    expect(ids(await b.query(pick(postgresDialect, 10)))).toEqual([3, 4]);
    // The first marks what it took and commits; the second lets go of its rows (a process that died).
    await a.query('UPDATE work SET due = 0 WHERE id IN (1, 2)');
    await a.query('COMMIT');
    await b.query('ROLLBACK');
    expect(ids(await a.query(pick(postgresDialect, 10)))).toEqual([3, 4]);
  });

  it('claimRowsOf on SQLite: nothing added, the same rows', () => {
    expect(sqliteDialect.claimRowsOf('w')).toBe('');
    expect(sqlite.prepare(pick(sqliteDialect, 2)).all()).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: null },
    ]);
    expect(postgresDialect.claimRowsOf('w')).toBe('FOR UPDATE OF w SKIP LOCKED');
  });

  it('tryLockOf: one transaction at a time holds a name, the other is told at once; the lock ends with the transaction', async () => {
    const locked = async (client: pg.Client, name: string) => (await client.query(postgresDialect.tryLockOf(name))).rows[0].locked as number;
    await a.query('BEGIN');
    await b.query('BEGIN');
    expect(await locked(a, 'job_cleanup')).toBe(1);
    expect(await locked(b, 'job_cleanup')).toBe(0);
    // Another name is another lock; the holder asking again still holds it.
    expect(await locked(b, 'job_other')).toBe(1);
    expect(await locked(a, 'job_cleanup')).toBe(1);
    await a.query('ROLLBACK');
    expect(await locked(b, 'job_cleanup')).toBe(1);
    expect(await locked(a, 'job_cleanup')).toBe(0);
    await b.query('COMMIT');
    expect(await locked(a, 'job_cleanup')).toBe(1);
    expect(sqlite.prepare(sqliteDialect.tryLockOf('job_cleanup')).all()).toEqual([{ locked: 1 }]);
  });

  it('refuse a name that is not a plain SQL name, alike', () => {
    for (const dialect of [sqliteDialect, postgresDialect]) {
      expect(() => dialect.claimRowsOf('w; DROP TABLE work')).toThrow(RangeError);
      expect(() => dialect.tryLockOf("x') OR ('1")).toThrow(RangeError);
    }
  });
});
