import Database from 'better-sqlite3';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { translateMigrations } from '../../server/db/dialect/postgres-ddl.js';
import { numberPlaceholders } from '../../server/db/pg/placeholders.js';
import { useDialectEngines } from '../helpers/dialect-engines.js';

/**
 * The dialect fragments of central's set-based push (sync/entities.ts RecordStore.writeMany), run
 * on a fresh SQLite and a real PostgreSQL: a multi-row insert (SQLite's VALUES, PostgreSQL's one
 * array a column) stores the same rows on both, awkward texts and numbers included; the parent
 * table's statistics and the checks' plans are PostgreSQL's only (null on SQLite).
 */

// SQLite's DDL; PostgreSQL gets the migration translator's version of it.
const DDL = `
CREATE TABLE heads (contract_id TEXT NOT NULL, head_id INTEGER NOT NULL, total TEXT NOT NULL, note TEXT, rate REAL, n INTEGER, PRIMARY KEY (contract_id, head_id));
CREATE TABLE lines (contract_id TEXT NOT NULL, head_id INTEGER NOT NULL, line_id INTEGER NOT NULL, price TEXT, PRIMARY KEY (contract_id, head_id, line_id), FOREIGN KEY (contract_id, head_id) REFERENCES heads (contract_id, head_id));
`;
const COLUMNS = ['contract_id', 'head_id', 'total', 'note', 'rate', 'n'];
// The types as the dialect's tableColumns names them, which is what the record store passes.
const TYPES = ['TEXT', 'INTEGER', 'TEXT', 'TEXT', 'REAL', 'INTEGER'];
const UPSERT = ' ON CONFLICT (contract_id, head_id) DO UPDATE SET total = excluded.total, note = excluded.note, rate = excluded.rate, n = excluded.n';

// Texts an array literal must carry as they are: quotes, backslashes, braces, commas, the word
// NULL, blanks around, an empty text, a line break, non-ASCII; exact decimal money stays text.
const ROWS: unknown[][] = [
  ['c1', 1, '1280', 'plain', 0.5, 3],
  ['c1', 2, '-12.345', 'a "quoted", {braced} \\ back', -1.5, null],
  ['c1', 3, '0.1', 'NULL', 1e-7, -4],
  ['c1', 4, '99999999999999999999.999', '', 2.25, 9007199254740991],
  ['c2', 900001004, '7', '  blanks  ', null, 0],
  ['c2', 900002004, '3.50', 'line\nbreak, é, 日本', 123456.75, null],
  ['c2', 5, '0', null, null, 1],
];

/** The insert of `rows` as `dialect` builds it, with its values bound as its layout says. */
function insertOf(dialect: Dialect, rows: unknown[][], tail = ''): { sql: string; values: unknown[] } {
  const { sql, layout } = dialect.insertRows('heads', COLUMNS, TYPES, rows.length, tail);
  return { sql, values: layout === 'columns' ? COLUMNS.map((_, k) => rows.map((row) => row[k])) : rows.flat() };
}

describe('the sync drain dialect fragments on SQLite and PostgreSQL', () => {
  let pool: pg.Pool;
  let sqlite: Database.Database;

  useDialectEngines(async (engines) => {
    ({ pool, sqlite } = engines);
    sqlite.exec(DDL);
    for (const statement of translateMigrations([{ version: 1, name: 'drain_dialect', sql: DDL }])[0]!.statements) await pool.query(statement);
  });

  const insertBoth = async (rows: unknown[][], tail = '') => {
    const onSqlite = insertOf(sqliteDialect, rows, tail);
    const changes = sqlite.prepare(onSqlite.sql).run(onSqlite.values).changes;
    const onPostgres = insertOf(postgresDialect, rows, tail);
    const query = numberPlaceholders(onPostgres.sql, onPostgres.values);
    return { sqlite: changes, postgres: (await pool.query(query.text, query.values)).rowCount };
  };
  const headsOnBoth = async () => {
    const sql = 'SELECT contract_id, head_id, total, note, rate, n FROM heads ORDER BY contract_id, head_id';
    return { sqlite: sqlite.prepare(sql).all(), postgres: (await pool.query(sql)).rows };
  };

  it('insertRows: the same rows stored on both, texts and numbers as given; SQLite binds a value a cell, PostgreSQL an array a column', async () => {
    expect(sqliteDialect.insertRows('heads', COLUMNS, TYPES, 2, '')).toEqual({
      sql: 'INSERT INTO heads (contract_id, head_id, total, note, rate, n) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
      layout: 'rows',
    });
    const onPostgres = postgresDialect.insertRows('heads', COLUMNS, TYPES, 2, '');
    expect(onPostgres.layout).toBe('columns');
    // One text for any number of rows.
    expect(postgresDialect.insertRows('heads', COLUMNS, TYPES, 500, '').sql).toBe(onPostgres.sql);
    expect(onPostgres.sql.match(/\?/g)).toHaveLength(COLUMNS.length);

    expect(await insertBoth(ROWS)).toEqual({ sqlite: ROWS.length, postgres: ROWS.length });
    const { sqlite: onSqlite, postgres } = await headsOnBoth();
    expect(postgres).toEqual(onSqlite);
    expect(onSqlite.map((r) => (r as { note: unknown }).note)).toEqual(
      [...ROWS].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])).map((r) => r[3]),
    );
  });

  it('insertRows with an upsert tail: rows already there are replaced, new ones added, alike', async () => {
    const again: unknown[][] = [
      ['c1', 1, '1300', 'changed', 0.25, 4],
      ['c2', 5, '0', 'now noted', null, null],
      ['c3', 1, '5', null, null, null],
    ];
    expect(await insertBoth(again, UPSERT)).toEqual({ sqlite: 3, postgres: 3 });
    const { sqlite: onSqlite, postgres } = await headsOnBoth();
    expect(postgres).toEqual(onSqlite);
    expect(onSqlite).toHaveLength(ROWS.length + 1);
    expect(onSqlite[0]).toEqual({ contract_id: 'c1', head_id: 1, total: '1300', note: 'changed', rate: 0.25, n: 4 });
  });

  it('insertRows refuses a whole statement alike: a value that does not fit its column, a missing parent', async () => {
    const bad: unknown[][] = [['c9', 'not a number', '1', null, null, null]];
    const onSqlite = insertOf(sqliteDialect, bad);
    // SQLite's INTEGER column keeps a text that is no number; the key (INTEGER PRIMARY KEY part) too,
    // so only PostgreSQL refuses: the record store's caller falls back to one record at a time there.
    sqlite.prepare(onSqlite.sql).run(onSqlite.values);
    const onPostgres = insertOf(postgresDialect, bad);
    const query = numberPlaceholders(onPostgres.sql, onPostgres.values);
    await expect(pool.query(query.text, query.values)).rejects.toThrow(/invalid input syntax for type bigint/);
    sqlite.prepare("DELETE FROM heads WHERE contract_id = 'c9'").run();

    const orphan = { sql: (d: Dialect) => d.insertRows('lines', ['contract_id', 'head_id', 'line_id', 'price'], ['TEXT', 'INTEGER', 'INTEGER', 'TEXT'], 2, '') };
    const lines = [['c1', 1, 1, '10'], ['c1', 404, 1, '20']];
    sqlite.pragma('foreign_keys = ON');
    expect(() => sqlite.prepare(orphan.sql(sqliteDialect).sql).run(lines.flat())).toThrow(/FOREIGN KEY constraint failed/);
    const pgLines = numberPlaceholders(orphan.sql(postgresDialect).sql, [0, 1, 2, 3].map((k) => lines.map((l) => l[k])));
    await expect(pool.query(pgLines.text, pgLines.values)).rejects.toMatchObject({ code: '23503' });
    expect(sqlite.prepare('SELECT count(*) AS n FROM lines').get()).toEqual({ n: 0 });
    expect((await pool.query('SELECT count(*)::int AS n FROM lines')).rows).toEqual([{ n: 0 }]);
  });

  it('insertRows takes only plain names and column types', () => {
    expect(() => postgresDialect.insertRows('heads; DROP TABLE heads', COLUMNS, TYPES, 1, '')).toThrow(RangeError);
    expect(() => postgresDialect.insertRows('heads', COLUMNS, [...TYPES.slice(1), 'TEXT); DROP TABLE heads; --'], 1, '')).toThrow(RangeError);
    expect(() => postgresDialect.insertRows('heads', COLUMNS, TYPES.slice(1), 1, '')).toThrow(RangeError);
    expect(postgresDialect.insertRows('heads', ['total'], ['NUMERIC(12,3)'], 1, '').sql).toContain('CAST(? AS NUMERIC(12,3)[])');
  });

  it('tableStatistics: PostgreSQL answers a row until the table is analysed with rows in it; SQLite has none to gather', async () => {
    expect(sqliteDialect.tableStatistics('heads')).toBeNull();
    const statistics = postgresDialect.tableStatistics('heads')!;
    expect((await pool.query(statistics.missing)).rows).toEqual([{ missing: 1 }]);
    // Analysed in a transaction that rolls back: none gathered.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(statistics.analyze);
      expect((await client.query(statistics.missing)).rows).toEqual([]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await pool.query(statistics.missing)).rows).toEqual([{ missing: 1 }]);
    await pool.query(statistics.analyze);
    expect((await pool.query(statistics.missing)).rows).toEqual([]);
    // An empty table analysed has no statistics of its columns.
    const empty = postgresDialect.tableStatistics('lines')!;
    await pool.query(empty.analyze);
    expect((await pool.query(empty.missing)).rows).toEqual([{ missing: 1 }]);
    // A table that does not exist is not missing any.
    expect((await pool.query(postgresDialect.tableStatistics('no_such_table')!.missing)).rows).toEqual([]);
  });

  it("reusedCheckPlans: null on SQLite; on PostgreSQL planning goes to auto until the end statement, which sets back the connection's own (test/db/pg-plan-cache.test.ts: over the client)", async () => {
    expect(sqliteDialect.reusedCheckPlans()).toBeNull();
    const client = await pool.connect();
    try {
      const mode = async () => (await client.query('SHOW plan_cache_mode')).rows[0].plan_cache_mode as string;
      const plans = postgresDialect.reusedCheckPlans()!;
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(plans.reuse);
      expect(await mode()).toBe('auto');
      await client.query(plans.end);
      expect(await mode()).toBe('auto'); // this connection's own
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
