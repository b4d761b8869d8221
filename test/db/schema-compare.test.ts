import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';
import { migratePostgres } from '../../server/db/pg/migrate.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';
import { postgresShape, schemaDifferences, sqliteShape } from '../helpers/schema-shape.js';

/**
 * The differences made on purpose: the change log's commit order comes from PostgreSQL's
 * transaction ids (migration 0043), which SQLite has no use for (its one writer commits in seq order).
 */
const ENGINE_DEFAULTS = [
  'change_log.txid: default "0" on SQLite, "pg_current_xact_id()" on PostgreSQL',
  'change_log.txid_floor: default "0" on SQLite, "pg_snapshot_xmin(pg_current_snapshot())" on PostgreSQL',
];

describe('the schema on SQLite and on PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  async function withPostgres<T>(use: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const pool = new pg.Pool({ connectionString: await cluster.createDatabase() });
    try {
      return await use(pool);
    } finally {
      await pool.end();
    }
  }

  it('is the same after every migration: tables, columns, keys, foreign keys, indexes, triggers', async () => {
    const sqlite = openDatabase(':memory:');
    migrate(sqlite);
    const expected = sqliteShape(sqlite);
    sqlite.close();
    const actual = await withPostgres(async (pool) => {
      await migratePostgres(pool);
      return postgresShape(pool);
    });
    expect(schemaDifferences(expected, actual)).toEqual(ENGINE_DEFAULTS);
    // The comparison saw the schema, not two empty lists.
    expect(Object.keys(actual.relations).length).toBeGreaterThan(100);
    expect(Object.values(actual.relations).filter((r) => r.foreignKeys.length > 0).length).toBeGreaterThan(20);
    expect(actual.triggers).toEqual(expected.triggers);
    expect(expected.triggers.length).toBeGreaterThan(0);
  }, 120_000);

  it('lists each difference it finds', async () => {
    const sqlite = openDatabase(':memory:');
    sqlite.exec(`CREATE TABLE p (k TEXT PRIMARY KEY);
      CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL DEFAULT '0' REFERENCES p ON DELETE CASCADE, c TEXT, d TEXT, UNIQUE (c));
      CREATE INDEX t_b ON t (b) WHERE b <> '0';
      CREATE TABLE only_here (x TEXT);
      CREATE TRIGGER t_check BEFORE INSERT ON t BEGIN SELECT 1; END;`);
    const expected = sqliteShape(sqlite);
    sqlite.close();
    const actual = await withPostgres(async (pool) => {
      await pool.query(`CREATE TABLE p (k text PRIMARY KEY);
        CREATE TABLE t (a bigint PRIMARY KEY, b text DEFAULT '1' REFERENCES p (k), c numeric, e text, UNIQUE (e));
        CREATE INDEX t_b ON t (b)`);
      return postgresShape(pool);
    });
    expect(schemaDifferences(expected, actual)).toEqual([
      'table only_here: only on SQLite',
      't: columns in another order or set: SQLite a,b,c,d / PostgreSQL a,b,c,e',
      't.b: notNull true on SQLite, false on PostgreSQL',
      't.b: default "0" on SQLite, "1" on PostgreSQL',
      't.c: type "text" on SQLite, "numeric" on PostgreSQL',
      't: unique keys ["c"] on SQLite, ["e"] on PostgreSQL',
      't: foreign keys ["b -> p(k) on delete cascade"] on SQLite, ["b -> p(k) on delete no action"] on PostgreSQL',
      'index t_b: {"table":"t","unique":false,"columns":["b"],"partial":true} on SQLite, {"table":"t","unique":false,"columns":["b"],"partial":false} on PostgreSQL',
      'trigger t_check: no PostgreSQL counterpart',
    ]);
  });
});
