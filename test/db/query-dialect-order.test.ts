import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { numberPlaceholders } from '../../server/db/pg/placeholders.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';

/**
 * The dialect fragments of several central processes on one database (issue 24: forUpdate,
 * changeLogAfter, hlcSlots) on the real migrated schema of both engines; on PostgreSQL with
 * several connections at once (a transaction left open on one while another commits and reads).
 */

const INSERT = `INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at)
  VALUES ('c', 'category', @id, 'update', '000000000000001-000000-000', 0, NULL, 0) RETURNING seq`;
const after = (d: Dialect) => {
  const { where, order } = d.changeLogAfter('@cursor', '@running');
  return `SELECT seq FROM change_log WHERE contract_id = 'c' AND ${where} ORDER BY ${order} LIMIT @limit`;
};

describe('the dialect of several central processes on SQLite and PostgreSQL', () => {
  let cluster: PgCluster;
  let url: string;
  let pool: pg.Pool;
  let sqlite: Database.Database;
  const clients: pg.Client[] = [];

  const connect = async (to = url) => {
    const client = new pg.Client({ ...parseDatabaseUrl(to), types: sqliteLikeTypes });
    await client.connect();
    clients.push(client);
    return client;
  };
  const query = async (on: pg.Pool | pg.Client, sql: string, params: Record<string, unknown> = {}) => {
    const q = numberPlaceholders(sql, params);
    return (await on.query(q.text, q.values)).rows;
  };
  /** The transactions running in other databases, read just before the pull as central does. */
  const running = async (on: pg.Pool | pg.Client) => (await on.query(postgresDialect.changeLogAfter('@cursor', '@running').running!)).rows[0].running as string;
  const seqsAfter = async (on: pg.Pool | pg.Client, cursor: number, limit = 100) =>
    (await query(on, after(postgresDialect), { cursor, limit, running: await running(on) })).map((r) => r.seq as number);
  const sqliteSeqsAfter = (cursor: number, limit = 100) => (sqlite.prepare(after(sqliteDialect)).all({ cursor, limit, running: null }) as { seq: number }[]).map((r) => r.seq);
  const append = async (on: pg.Pool | pg.Client, id: string) => (await query(on, INSERT, { id }))[0]!.seq as number;

  beforeAll(async () => {
    cluster = await startPostgres();
    url = await createMigratedDatabase(cluster);
    pool = createPool(parseDatabaseUrl(url), { max: 2, types: sqliteLikeTypes });
    sqlite = new Database(':memory:');
    migrate(sqlite, undefined, new Date('2026-11-27T00:00:00Z'));
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    sqlite?.close();
    await pool?.end();
    await cluster?.stop();
  });

  describe('changeLogAfter', () => {
    it('pages in seq order when each change commits before the next, on both; the cursor is the seq given last', async () => {
      await pool.query('DELETE FROM change_log');
      sqlite.exec('DELETE FROM change_log');
      const pgSeqs: number[] = [];
      const liteSeqs: number[] = [];
      for (let i = 0; i < 7; i++) {
        pgSeqs.push(await append(pool, String(i)));
        liteSeqs.push((sqlite.prepare(INSERT).get({ id: String(i) }) as { seq: number }).seq);
      }
      expect(await seqsAfter(pool, 0)).toEqual(pgSeqs);
      expect(sqliteSeqsAfter(0)).toEqual(liteSeqs);
      expect(await seqsAfter(pool, pgSeqs[2]!, 3)).toEqual(pgSeqs.slice(3, 6));
      expect(sqliteSeqsAfter(liteSeqs[2]!, 3)).toEqual(liteSeqs.slice(3, 6));
      // SQLite keeps its columns at 0: its one writer commits in seq order.
      expect(sqlite.prepare('SELECT DISTINCT txid, txid_floor FROM change_log').all()).toEqual([{ txid: 0, txid_floor: 0 }]);
    });

    it('PostgreSQL: nothing after a transaction still open, then its change first, as committed', async () => {
      await pool.query('DELETE FROM change_log');
      const before = await append(pool, 'before');
      const [open, other] = [await connect(), await connect()];
      await open.query('BEGIN');
      const late = await append(open, 'late');
      const early = await append(other, 'early');
      expect(early).toBeGreaterThan(late);
      expect(await seqsAfter(pool, before)).toEqual([]);
      expect(await seqsAfter(pool, 0)).toEqual([before]);
      await open.query('COMMIT');
      expect(await seqsAfter(pool, before)).toEqual([late, early]);
      expect(await seqsAfter(pool, late)).toEqual([early]);
      expect(await seqsAfter(pool, early)).toEqual([]);
    });

    it('PostgreSQL: a transaction open in another database of the server does not hold the pull back', async () => {
      await pool.query('DELETE FROM change_log');
      const elsewhere = await connect(await cluster.createDatabase());
      await elsewhere.query('BEGIN');
      await elsewhere.query('CREATE TABLE busy (x int)');
      const seq = await append(pool, 'here');
      expect(await running(pool)).toMatch(/^\{\d+/);
      expect(await seqsAfter(pool, 0)).toEqual([seq]);
      await elsewhere.query('ROLLBACK');
    });

    it('PostgreSQL: a cursor whose row is gone goes on from the floor of the row before it, passing over nothing', async () => {
      await pool.query('DELETE FROM change_log');
      const seqs: number[] = [];
      for (let i = 0; i < 5; i++) seqs.push(await append(pool, String(i)));
      // Rows from before migration 0043 (txid 1) come first, in seq order.
      const legacy = await append(pool, 'legacy');
      await pool.query('UPDATE change_log SET txid = 1, txid_floor = 1 WHERE seq = $1', [legacy]);
      expect(await seqsAfter(pool, 0)).toEqual([legacy, ...seqs]);
      await pool.query('DELETE FROM change_log WHERE seq = $1', [seqs[2]]);
      const resumed = await seqsAfter(pool, seqs[2]!);
      expect(resumed.filter((s) => s > seqs[2]!)).toEqual(seqs.slice(3));
      expect(resumed.every((s) => s !== legacy)).toBe(true);
    });

    it('PostgreSQL: a store far behind reads its page in index order, not every row after its cursor', async () => {
      await pool.query('DELETE FROM change_log');
      await pool.query(`INSERT INTO change_log (contract_id, entity, entity_id, op, hlc, origin_node, row, created_at)
        SELECT 'c', 'category', i::text, 'update', 'h', 0, NULL, 0 FROM generate_series(1, 20000) i`);
      await pool.query('ANALYZE change_log');
      const q = numberPlaceholders(`EXPLAIN ${after(postgresDialect)}`, { cursor: 0, limit: 501, running: '{}' });
      const plan = (await pool.query(q.text, q.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan using change_log_commit_order/);
      expect(plan).not.toMatch(/Sort/);
    });
  });

  describe('forUpdate', () => {
    it('SQLite: nothing (its write transaction keeps other writers out); PostgreSQL: another connection cannot take the row until the first ends', async () => {
      sqlite.exec("INSERT INTO id_sequences (name, last) VALUES ('lock_me', 1)");
      expect(sqlite.prepare(`SELECT last FROM id_sequences WHERE name = 'lock_me' ${sqliteDialect.forUpdate()}`).get()).toEqual({ last: 1 });
      await pool.query("INSERT INTO id_sequences (name, last) VALUES ('lock_me', 1)");
      const [first, second] = [await connect(), await connect()];
      await first.query('BEGIN');
      expect((await first.query(`SELECT last FROM id_sequences WHERE name = 'lock_me' ${postgresDialect.forUpdate()}`)).rows).toEqual([{ last: 1 }]);
      await second.query('BEGIN');
      await expect(second.query(`SELECT last FROM id_sequences WHERE name = 'lock_me' ${postgresDialect.forUpdate()} NOWAIT`)).rejects.toMatchObject({ code: '55P03' });
      await second.query('ROLLBACK');
      await first.query("UPDATE id_sequences SET last = 2 WHERE name = 'lock_me'");
      await first.query('COMMIT');
      expect((await second.query(`SELECT last FROM id_sequences WHERE name = 'lock_me' ${postgresDialect.forUpdate()}`)).rows).toEqual([{ last: 2 }]);
    });
  });

  describe('hlcSlots', () => {
    it('SQLite: one slot; PostgreSQL: each session its own slot, the same one asked again, freed when the session ends', async () => {
      expect(sqliteDialect.hlcSlots().count).toBe(1);
      expect(sqlite.prepare(sqliteDialect.hlcSlots().claim).get()).toEqual({ slot: 0, session: 0 });
      const { count, claim, session } = postgresDialect.hlcSlots();
      expect(count).toBe(100);
      const [a, b] = [await connect(), await connect()];
      const [ca, cb] = [(await a.query(claim)).rows[0], (await b.query(claim)).rows[0]];
      expect(ca.slot).not.toBe(cb.slot);
      expect((await a.query(claim)).rows[0]).toEqual(ca);
      expect((await a.query(`SELECT ${session} AS session`)).rows[0].session).toBe(ca.session);
      await a.end();
      const c = await connect();
      expect((await c.query(claim)).rows[0].slot).toBe(ca.slot);
      // One row a slot: ids 1 to 100.
      await pool.query("INSERT INTO sync_hlc (id, last) VALUES (1, 'x'), (100, 'x')");
      await expect(pool.query("INSERT INTO sync_hlc (id, last) VALUES (101, 'x')")).rejects.toMatchObject({ code: '23514' });
    });
  });
});
