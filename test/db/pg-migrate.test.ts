import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, NewerDatabaseError } from '../../server/db/migrate.js';
import { openDatabase, type Sqlite } from '../../server/db/open.js';
import { loadPostgresMigrations, migratePostgres, postgresSchemaVersion } from '../../server/db/pg/migrate.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

let cluster: PgCluster;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await cluster?.stop();
});

async function freshPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await cluster.createDatabase(), types: sqliteLikeTypes, max: 4 });
  pools.push(pool);
  return pool;
}

const tables = async (pool: pg.Pool) =>
  (await pool.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((r) => r.tablename);

describe('migrating a PostgreSQL database', () => {
  it('makes text columns compare and sort by bytes as SQLite does, whatever the database locale', async () => {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    const name = `english_${process.pid}`;
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`);
    } finally {
      await admin.end();
    }
    const pool = new pg.Pool({ connectionString: cluster.url(name), types: sqliteLikeTypes, max: 1 });
    pools.push(pool);
    await migratePostgres(pool);
    const collations = await pool.query(
      "SELECT table_name || '.' || column_name AS col, collation_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type = 'text' AND table_name NOT IN ('schema_migrations', 'store_reads') AND collation_name IS DISTINCT FROM 'C'",
    );
    expect(collations.rows).toEqual([{ col: 'terminals.uuid', collation_name: 'nocase' }]);

    const sqlite = openDatabase(':memory:');
    migrate(sqlite);
    const names = ['b', 'B', 'a', '_z', 'Z', 'é', 'e'];
    const insert = (i: number) =>
      `INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c${i}', '${names[i]}', 'standard', 1, 1)`;
    for (let i = 0; i < names.length; i++) {
      sqlite.exec(insert(i));
      await pool.query(insert(i));
    }
    const order = 'SELECT name FROM contracts ORDER BY name';
    const onSqlite = sqlite.prepare(order).pluck().all();
    sqlite.close();
    expect(onSqlite).toEqual(['B', 'Z', '_z', 'a', 'b', 'e', 'é']);
    expect((await pool.query(order)).rows.map((r) => r.name)).toEqual(onSqlite);
  });

  it('applies every migration once and records each as SQLite does', async () => {
    const pool = await freshPool();
    const all = loadMigrations();
    expect(await migratePostgres(pool, undefined, new Date('2026-11-27T00:00:00Z'))).toEqual(all.map((m) => m.version));
    const { rows } = await pool.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(all.map((m) => ({ version: m.version, name: m.name, applied_at: '2026-11-27T00:00:00.000Z' })));
    expect(await postgresSchemaVersion(pool)).toBe(all.at(-1)!.version);
    expect(await migratePostgres(pool)).toEqual([]);
  });

  it('refuses a PostgreSQL part whose name matches no migration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-pg-parts-'));
    try {
      writeFileSync(join(dir, '0001_first.sql'), 'CREATE TABLE a (x INTEGER);');
      writeFileSync(join(dir, '0001_frist.pg.sql'), 'CREATE INDEX a_x ON a (x);');
      expect(() => loadPostgresMigrations(`${dir}/`)).toThrow('0001_frist.pg.sql is the PostgreSQL part of no migration: name it NNNN_name.pg.sql after its NNNN_name.sql');
      renameSync(join(dir, '0001_frist.pg.sql'), join(dir, '0001_first.pg.sql'));
      expect(loadPostgresMigrations(`${dir}/`)).toEqual([{ version: 1, name: 'first', statements: ['CREATE TABLE a (x bigint)', 'CREATE INDEX a_x ON a (x)'] }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('applies the pending migrations in one transaction: a failing one leaves nothing behind', async () => {
    const pool = await freshPool();
    const [first] = loadPostgresMigrations();
    const broken = { version: 2, name: 'broken', statements: ['CREATE TABLE half_done (x bigint)', 'SELECT no_such_function()'] };
    await expect(migratePostgres(pool, [first!, broken])).rejects.toThrow(
      /^migration 0002_broken failed on PostgreSQL at "SELECT no_such_function\(\)": function no_such_function\(\) does not exist$/,
    );
    expect(await tables(pool)).toEqual([]);
    expect(await postgresSchemaVersion(pool)).toBe(0);
  });

  it('refuses a database a newer build migrated, and leaves it untouched', async () => {
    const pool = await freshPool();
    await migratePostgres(pool);
    await pool.query("INSERT INTO schema_migrations VALUES (9999, 'future', 'x')");
    const error = await migratePostgres(pool).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toBe(
      `the database is at migration 9999, newer than this build knows (${loadMigrations().at(-1)!.version}); refusing to open it: install the newer pos-backoffice version that wrote it`,
    );
    expect(await postgresSchemaVersion(pool)).toBe(9999);
  });

  it('migrates once when several central processes start together', async () => {
    const url = await cluster.createDatabase();
    const starters = [0, 1, 2].map(() => new pg.Pool({ connectionString: url, max: 1 }));
    pools.push(...starters);
    const applied = await Promise.all(starters.map((p) => migratePostgres(p)));
    expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
    expect(applied.flat()).toEqual(loadMigrations().map((m) => m.version));
  });
});

/**
 * The same SQL on both engines, step by step: each step's rows, or its error message, must be the
 * same. It exercises what the .pg.sql parts and the 0001 definitions stand in for.
 */
describe('what the PostgreSQL parts replace behaves as on SQLite', () => {
  let sqlite: Sqlite;
  let pool: pg.Pool;
  beforeAll(async () => {
    sqlite = openDatabase(':memory:');
    migrate(sqlite);
    pool = await freshPool();
    await migratePostgres(pool);
  });
  afterAll(() => sqlite?.close());

  /** Rows (or 'done') when both engines accept the statement; the error messages when both refuse. */
  async function both(sql: string): Promise<unknown> {
    const onSqlite = (() => {
      try {
        const statement = sqlite.prepare(sql);
        return statement.reader ? statement.all() : (statement.run(), 'done');
      } catch (e) {
        return { error: (e as Error).message };
      }
    })();
    const onPostgres = await pool.query(sql).then(
      (r) => (r.command === 'SELECT' ? r.rows : 'done'),
      (e: Error) => ({ error: e.message }),
    );
    const refused = (r: unknown) => typeof r === 'object' && r !== null && 'error' in r;
    if (refused(onSqlite) || refused(onPostgres)) {
      expect({ sqlite: refused(onSqlite), postgres: refused(onPostgres) }, `${sql}\n${JSON.stringify({ onSqlite, onPostgres })}`).toEqual({ sqlite: true, postgres: true });
      return { sqlite: onSqlite, postgres: onPostgres };
    }
    expect(onPostgres, sql).toEqual(onSqlite);
    return onSqlite;
  }

  it('a new contract starts with the tax rates and the administrator role (contracts_seed_issue26)', async () => {
    await both("INSERT INTO contracts (contract_id, name, plan, created_at, updated_at) VALUES ('c1', 'Shop', 'standard', 1000, 1000)");
    expect(await both("SELECT role_id, role_name, ins_at FROM roles WHERE contract_id = 'c1'")).toEqual([{ role_id: 1, role_name: '管理者', ins_at: 1000 }]);
    await both("SELECT apply_start_date, tax_rate, ins_at FROM consumption_tax_rates WHERE contract_id = 'c1' ORDER BY apply_start_date");
    await both("SELECT reduce_tax_id, term_start, rate FROM reduce_tax_rates WHERE contract_id = 'c1' ORDER BY reduce_tax_id, term_start");
  });

  it('a store is a normal store or a warehouse (stores_division_insert, _update)', async () => {
    await both("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES ('c1', 1, 'Main', '1', 1, 1)");
    const refusal = { error: 'stores.division must be 1 (normal store) or 2 (warehouse)' };
    expect(await both("INSERT INTO stores (contract_id, store_id, store_name, division, ins_at, upd_at) VALUES ('c1', 2, 'Odd', '0', 1, 1)")).toEqual({
      sqlite: refusal,
      postgres: refusal,
    });
    expect(await both("UPDATE stores SET division = '3' WHERE store_id = 1")).toEqual({ sqlite: refusal, postgres: refusal });
    await both('SELECT store_id, division FROM stores');
  });

  it("an order's delivery lines are on order while it is open, and its status follows its storages", async () => {
    const order = (id: number, status: string) =>
      `INSERT INTO purchase_orders (contract_id, storage_info_id, division_unit, ordered_date, rounding_division, status, ins_at, upd_at) VALUES ('c1', ${id}, '0', '2026-11-01', '0', '${status}', 1, 1)`;
    const line = (id: number, orderId: number) =>
      `INSERT INTO purchase_order_delivery_products (contract_id, storage_info_delivery_product_id, storage_info_product_id, storage_info_id, product_id, store_id, quantity) VALUES ('c1', ${id}, ${id}, ${orderId}, 7, 1, 3)`;
    const storage = (id: number, orderId: number, status: string) =>
      `INSERT INTO storages (contract_id, storage_id, storage_info_id, storage_store_id, storage_expected_date_from, storage_expected_date_to, rounding_division, status, ins_at, upd_at) VALUES ('c1', ${id}, ${orderId}, 1, '2026-11-02', '2026-11-03', '0', '${status}', 5, 5)`;
    const state = "SELECT o.storage_info_id, o.status, o.upd_at, d.on_order FROM purchase_orders o JOIN purchase_order_delivery_products d USING (contract_id, storage_info_id) ORDER BY o.storage_info_id, d.storage_info_delivery_product_id";
    for (const sql of [order(1, '2'), line(11, 1), line(12, 1), order(2, '5'), line(21, 2)]) await both(sql);
    await both("UPDATE purchase_orders SET status = '4' WHERE storage_info_id = 2");
    await both("UPDATE purchase_orders SET status = '5' WHERE storage_info_id = 2");
    await both(state);
    await both(storage(100, 1, '1'));
    expect(await both(state)).toContainEqual({ storage_info_id: 1, status: '3', upd_at: 5, on_order: 0 });
    await both(storage(101, 1, '0'));
    await both("UPDATE storages SET status = '2', upd_at = 6 WHERE storage_id = 100");
    await both(state);
    await both("UPDATE storages SET status = '2', upd_at = 7 WHERE storage_id = 101");
    expect(await both(state)).toContainEqual({ storage_info_id: 1, status: '4', upd_at: 7, on_order: 0 });
    await both("UPDATE storages SET status = '0', upd_at = 8");
    await both(state);
  });

  it('JSON columns take JSON only (json_valid), and terminal UUIDs are unique whatever their case (NOCASE)', async () => {
    const tableUse = (id: number, json: string) =>
      `INSERT INTO table_uses (contract_id, table_use_id, store_id, ins_at, upd_at, customer_group_ids) VALUES ('c1', ${id}, 1, 1, 1, '${json}')`;
    expect(await both(tableUse(1, '[1,'))).toMatchObject({ postgres: { error: expect.stringContaining('check constraint') } });
    expect(await both(tableUse(2, '[1, 2]'))).toBe('done');
    expect(await both('SELECT table_use_id, customer_group_ids FROM table_uses')).toEqual([{ table_use_id: 2, customer_group_ids: '[1, 2]' }]);
    await both("INSERT INTO terminals (contract_id, terminal_id, store_id, terminal_name, uuid, ins_at, upd_at) VALUES ('c1', 1, 1, 'A', 'ab-CD', 1, 1)");
    expect(await both("INSERT INTO terminals (contract_id, terminal_id, store_id, terminal_name, uuid, ins_at, upd_at) VALUES ('c1', 2, 1, 'B', 'AB-cd', 1, 1)")).toMatchObject({
      postgres: { error: expect.stringContaining('terminals_uuid') },
    });
    expect(await both("SELECT terminal_id FROM terminals WHERE uuid = 'AB-CD'")).toEqual([{ terminal_id: 1 }]);
  });

  it('the download signing key is 64 random hex digits, made once', async () => {
    const { rows } = await pool.query('SELECT singleton, signing_key FROM transaction_export_key');
    expect(rows).toHaveLength(1);
    expect(rows[0].signing_key).toMatch(/^[0-9a-f]{64}$/);
  });
});
