import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { translateMigrations } from '../../server/db/dialect/postgres-ddl.js';
import { ENTITIES } from '../../server/db/entities.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { type SqlParams } from '../../server/db/pg/placeholders.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { type PgCluster } from '../helpers/postgres.js';
import { openDialectEngines, rowsOnBoth, type DialectEngines } from '../helpers/dialect-engines.js';
import { createMigratedDatabase } from '../helpers/postgres-template.js';

/**
 * The dialect fragments sync uses (tableColumns: the record store's column lists and key types),
 * run on a fresh SQLite and a real PostgreSQL: the same rows on both, over small tables made by
 * the migration translator and over every synced table of the real migrations.
 */

// SQLite's DDL; PostgreSQL gets the migration translator's version of it.
const DDL = `
CREATE TABLE things (contract_id TEXT NOT NULL, thing_id INTEGER NOT NULL, code TEXT, price TEXT NOT NULL DEFAULT '0', weight REAL, n INTEGER, PRIMARY KEY (contract_id, thing_id));
CREATE TABLE ranked (contract_id TEXT NOT NULL, b_date TEXT NOT NULL, a_id INTEGER NOT NULL, note TEXT, PRIMARY KEY (contract_id, a_id, b_date));
CREATE TABLE keyless (x INTEGER, y TEXT);
`;

type Column = { name: string; type: string; pk: number };
const shape = (rows: unknown[]): Column[] => (rows as Column[]).map(({ name, type, pk }) => ({ name, type, pk }));

describe('the sync dialect fragments on SQLite and PostgreSQL', () => {
  let engines: DialectEngines;
  let cluster: PgCluster;
  let pool: pg.Pool;
  let sqlite: Database.Database;
  let migratedPool: pg.Pool;
  let migratedSqlite: Database.Database;

  beforeAll(async () => {
    engines = await openDialectEngines();
    ({ cluster, pool, sqlite } = engines);
    sqlite.exec(DDL);
    for (const statement of translateMigrations([{ version: 1, name: 'sync_dialect', sql: DDL }])[0]!.statements) await pool.query(statement);
    migratedSqlite = new Database(':memory:');
    migrate(migratedSqlite, undefined, new Date('2026-11-27T00:00:00Z'));
    migratedPool = createPool(parseDatabaseUrl(await createMigratedDatabase(cluster)), { max: 1, types: sqliteLikeTypes });
  }, 120_000);
  afterAll(async () => {
    migratedSqlite?.close();
    await migratedPool?.end();
    await engines?.close();
  });

  async function bothRows(build: (d: Dialect) => string, params: SqlParams = [], on = { sqlite: () => sqlite, pool: () => pool }) {
    return rowsOnBoth({ sqlite: on.sqlite(), pool: on.pool() }, build, params);
  }

  describe('tableColumns', () => {
    it('writes the SQLite text the record store always had', () => {
      expect(sqliteDialect.tableColumns('transactions')).toBe('PRAGMA table_info(transactions)');
      expect(() => postgresDialect.tableColumns("x'; DROP TABLE things; --")).toThrow(RangeError);
    });

    it('answers each column in table order with its type as SQLite declares it and its place in the primary key', async () => {
      const rows = await bothRows((d) => d.tableColumns('things'));
      expect(shape(rows.postgres)).toEqual(shape(rows.sqlite));
      expect(shape(rows.sqlite)).toEqual([
        { name: 'contract_id', type: 'TEXT', pk: 1 },
        { name: 'thing_id', type: 'INTEGER', pk: 2 },
        { name: 'code', type: 'TEXT', pk: 0 },
        { name: 'price', type: 'TEXT', pk: 0 },
        { name: 'weight', type: 'REAL', pk: 0 },
        { name: 'n', type: 'INTEGER', pk: 0 },
      ]);
    });

    it('gives a composite key in key order, not column order; a table without a key has none', async () => {
      const ranked = await bothRows((d) => d.tableColumns('ranked'));
      expect(shape(ranked.postgres)).toEqual(shape(ranked.sqlite));
      expect(shape(ranked.sqlite).map((c) => [c.name, c.pk])).toEqual([['contract_id', 1], ['b_date', 3], ['a_id', 2], ['note', 0]]);
      const keyless = await bothRows((d) => d.tableColumns('keyless'));
      expect(shape(keyless.postgres)).toEqual(shape(keyless.sqlite));
      expect(shape(keyless.sqlite).map((c) => c.pk)).toEqual([0, 0]);
    });

    it('answers no row for a table that does not exist', async () => {
      const rows = await bothRows((d) => d.tableColumns('no_such_table'));
      expect(rows).toEqual({ sqlite: [], postgres: [] });
    });

    it('answers the same columns, types and keys for every synced table and child table of the real migrations', async () => {
      const on = { sqlite: () => migratedSqlite, pool: () => migratedPool };
      const tables = [...new Set(ENTITIES.flatMap((def) => [def.table, ...(def.children ?? []).map((c) => c.table)]))];
      expect(tables.length).toBeGreaterThan(40);
      for (const table of tables) {
        const rows = await bothRows((d) => d.tableColumns(table), [], on);
        expect(shape(rows.sqlite).length, table).toBeGreaterThan(0);
        expect(shape(rows.postgres), table).toEqual(shape(rows.sqlite));
      }
    });

    it('gives the single keys their type: the five text keys are text on both, so a list of ids compares as text there', async () => {
      const on = { sqlite: () => migratedSqlite, pool: () => migratedPool };
      const textKeys: string[] = [];
      for (const def of ENTITIES.filter((d) => d.keys.length === 1)) {
        const rows = shape((await bothRows((d) => d.tableColumns(def.table), [], on)).postgres);
        if (rows.find((c) => c.name === def.keys[0])!.type === 'TEXT') textKeys.push(def.name);
      }
      expect(textKeys.sort()).toEqual(['consumption_tax_rate', 'loss_division', 'staff_rank', 'webhook_event', 'webhook_subscription']);
    });
  });

  describe("the record store's list read (inJsonList by the key's type)", () => {
    beforeAll(async () => {
      const rows: [string, number, string | null][] = [
        ['c', 1, 'a'],
        ['c', 15, '15'],
        ['c', 1005, 'x'],
        ['d', 1005, 'other contract'],
      ];
      const insert = sqlite.prepare("INSERT INTO things (contract_id, thing_id, code) VALUES (?, ?, ?)");
      for (const row of rows) insert.run(row);
      for (const row of rows) await pool.query('INSERT INTO things (contract_id, thing_id, code) VALUES ($1, $2, $3)', row);
      const ranked = sqlite.prepare('INSERT INTO ranked (contract_id, b_date, a_id) VALUES (?, ?, ?)');
      for (const [date, id] of [['2026-11-01', 1], ['2026-12-01', 2]] as const) {
        ranked.run('c', date, id);
        await pool.query('INSERT INTO ranked (contract_id, b_date, a_id) VALUES ($1, $2, $3)', ['c', date, id]);
      }
    });

    it('finds integer keys from the ids as strings, as the push reads them', async () => {
      const rows = await bothRows((d) => `SELECT thing_id, code FROM things WHERE contract_id = ? AND thing_id ${d.inJsonList('integer')} ORDER BY thing_id`, [
        'c',
        JSON.stringify(['1005', '15', '2', 'nope']),
      ]);
      expect(rows.postgres).toEqual(rows.sqlite);
      expect(rows.sqlite).toEqual([
        { thing_id: 15, code: '15' },
        { thing_id: 1005, code: 'x' },
      ]);
    });

    it('finds text keys (a date, an event id) from the ids as strings', async () => {
      const rows = await bothRows((d) => `SELECT a_id FROM ranked WHERE contract_id = ? AND b_date ${d.inJsonList('text')} ORDER BY a_id`, [
        'c',
        JSON.stringify(['2026-12-01', '2027-01-01']),
      ]);
      expect(rows.postgres).toEqual(rows.sqlite);
      expect(rows.sqlite).toEqual([{ a_id: 2 }]);
    });
  });
});
