import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { type SqlParams } from '../../server/db/pg/placeholders.js';
import { type PgCluster } from '../helpers/postgres.js';
import { openDialectEngines, rowsOnBoth, type DialectEngines } from '../helpers/dialect-engines.js';

/**
 * Each run-time fragment of the query dialect, run on a fresh SQLite and a real PostgreSQL over
 * the same small table: the same rows on both (the repos will be written once with these).
 */

// SQLite's columns as the migrations write them; PostgreSQL's as the migration translator makes them.
const SQLITE_TABLES = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT, n INTEGER, m INTEGER, doc TEXT)',
  'CREATE TABLE hlc (id INTEGER PRIMARY KEY CHECK (id = 1), last TEXT NOT NULL)',
  'CREATE TABLE installation (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), installation_id TEXT NOT NULL, created_at INTEGER NOT NULL)',
  'CREATE VIEW items_view AS SELECT id FROM items',
];
const POSTGRES_TABLES = [
  'CREATE TABLE items (id bigint PRIMARY KEY, code text COLLATE "C", n bigint, m bigint, doc text COLLATE "C")',
  'CREATE TABLE hlc (id bigint PRIMARY KEY CHECK (id = 1), last text COLLATE "C" NOT NULL)',
  'CREATE TABLE installation (singleton bigint PRIMARY KEY CHECK (singleton = 1), installation_id text COLLATE "C" NOT NULL, created_at bigint NOT NULL)',
  'CREATE VIEW items_view AS SELECT id FROM items',
];

const ROWS = 1200;
type Item = [id: number, code: string | null, n: number | null, m: number | null, doc: string | null];
const DOCS = ['[{"menuId":"5","q":2},{"menuId":7,"q":3,"a":{"b":"deep"}}]', '[{"menuId":5,"q":1}]', '[]', '[{"menuId":"7"},{"menuId":null,"q":null}]', null];
function item(id: number): Item {
  const code = id % 11 === 0 ? null : id === 15 ? '15' : id === 16 ? 'Zé "q", \\n' : id === 17 ? 'b' : id === 18 ? 'B' : `c${id}`;
  const n = id % 7 === 0 ? null : id * 3;
  const m = id % 5 === 0 ? null : 2000 - id;
  return [id, code, n, m, DOCS[id % DOCS.length]!];
}

describe('the run-time query dialect on SQLite and PostgreSQL', () => {
  let engines: DialectEngines;
  let cluster: PgCluster;
  let pool: pg.Pool;
  let sqlite: Database.Database;

  beforeAll(async () => {
    engines = await openDialectEngines();
    ({ cluster, pool, sqlite } = engines);
    for (const sql of SQLITE_TABLES) sqlite.exec(sql);
    for (const sql of POSTGRES_TABLES) await pool.query(sql);
    const items = Array.from({ length: ROWS }, (_, i) => item(i + 1));
    const insert = sqlite.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?)');
    sqlite.transaction(() => items.forEach((row) => insert.run(row)))();
    await pool.query(
      'INSERT INTO items SELECT * FROM json_to_recordset($1::json) AS r(id bigint, code text, n bigint, m bigint, doc text)',
      [JSON.stringify(items.map(([id, code, n, m, doc]) => ({ id, code, n, m, doc })))],
    );
  }, 120_000);
  afterAll(() => engines?.close());

  /** The statement `build` makes with each dialect, run on its engine: both engines' rows. */
  const onBoth = (build: (d: Dialect) => string, params: SqlParams = []) => rowsOnBoth({ sqlite, pool }, build, params);

  async function sameRows(build: (d: Dialect) => string, params: SqlParams = []): Promise<unknown[]> {
    const rows = await onBoth(build, params);
    expect(rows.postgres).toEqual(rows.sqlite);
    return rows.sqlite;
  }

  describe('SQLite fragments are the ones the repos write today', () => {
    it('writes each fragment as before', () => {
      expect(sqliteDialect.inJsonList('integer')).toBe('IN (SELECT value FROM json_each(?))');
      expect(sqliteDialect.inJsonList('integer', '@ids')).toBe('IN (SELECT value FROM json_each(@ids))');
      expect(sqliteDialect.jsonEach('i.toppings', 't')).toBe('json_each(i.toppings) t');
      expect(sqliteDialect.jsonField('t.value', '$.menuId', 'text')).toBe("json_extract(t.value, '$.menuId')");
      expect(sqliteDialect.jsonArray('CAST(t.a AS TEXT)', 'd.b')).toBe('json_array(CAST(t.a AS TEXT), d.b)');
      expect(`SET last = ${sqliteDialect.greatestOf('last', 'excluded.last')}`).toBe('SET last = max(last, excluded.last)');
      expect(sqliteDialect.insertOrIgnore('sync_installation', ['singleton', 'installation_id', 'created_at'], ['1', '?', '?'])).toBe(
        'INSERT OR IGNORE INTO sync_installation (singleton, installation_id, created_at) VALUES (1, ?, ?)',
      );
      expect(sqliteDialect.tableExists('schema_migrations')).toBe("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
    });
  });

  describe('inJsonList', () => {
    const byIds = (d: Dialect) => `SELECT id, code FROM items WHERE id ${d.inJsonList('integer')} ORDER BY id`;

    it('finds nothing for an empty list', async () => {
      expect(await sameRows(byIds, ['[]'])).toEqual([]);
    });

    it('finds the one id of a list of one', async () => {
      expect(await sameRows(byIds, ['[3]'])).toEqual([{ id: 3, code: 'c3' }]);
    });

    it('finds 1,000 ids given as numbers, and as digit strings (the sync ids)', async () => {
      const ids = Array.from({ length: 1000 }, (_, i) => i * 2 + 1); // 1..1999, 600 of them exist
      const rows = await sameRows(byIds, [JSON.stringify(ids)]);
      expect(rows).toHaveLength(600);
      expect(await sameRows(byIds, [JSON.stringify(ids.map(String))])).toEqual(rows);
    });

    it('matches nothing for what is not an integer, as SQLite compares it, instead of failing', async () => {
      const list = JSON.stringify(['x', 12.5, null, '99999999999999999999', '7', ' ', '', 8, {}, [9]]);
      expect(await sameRows(byIds, [list])).toEqual([
        { id: 7, code: 'c7' },
        { id: 8, code: 'c8' },
      ]);
    });

    it('compares a text column with the string elements only (not the number 15 with the text 15), and never with NULL', async () => {
      const byCodes = (d: Dialect) => `SELECT id FROM items WHERE code ${d.inJsonList('text')} ORDER BY id`;
      expect(await sameRows(byCodes, [JSON.stringify(['c1', 'c2', 'nope', 15, null, 'Zé "q", \\n', 'B'])])).toEqual([
        { id: 1 },
        { id: 2 },
        { id: 16 },
        { id: 18 },
      ]);
      expect(await sameRows(byCodes, ['[]'])).toEqual([]);
      expect(await sameRows(byCodes, ['[null]'])).toEqual([]);
      expect(await sameRows(byCodes, ['["15"]'])).toEqual([{ id: 15 }]);
    });

    it('takes a named parameter', async () => {
      const named = (d: Dialect) => `SELECT id FROM items WHERE id ${d.inJsonList('integer', '@ids')} AND n > @floor ORDER BY id`;
      expect(await sameRows(named, { ids: '[4, 7, 9]', floor: 0 })).toEqual([{ id: 4 }, { id: 9 }]);
    });
  });

  describe('jsonEach and jsonField', () => {
    const matching = (type: 'text' | 'integer') => (d: Dialect) =>
      `SELECT DISTINCT i.id FROM items i, ${d.jsonEach('i.doc', 't')} WHERE i.id <= 10 AND ${d.jsonField('t.value', '$.menuId', type)} = @key ORDER BY i.id`;

    it('finds the rows whose array holds the field as that string, never as a number (the menu-in-use check)', async () => {
      expect(await sameRows(matching('text'), { key: '5' })).toEqual([{ id: 5 }, { id: 10 }]);
      expect(await sameRows(matching('text'), { key: '7' })).toEqual([{ id: 3 }, { id: 8 }]);
    });

    it('finds the rows whose array holds the field as that number, never as a string', async () => {
      expect(await sameRows(matching('integer'), { key: 5 })).toEqual([{ id: 1 }, { id: 6 }]);
      expect(await sameRows(matching('integer'), { key: 7 })).toEqual([{ id: 5 }, { id: 10 }]);
    });

    it('reads a string field as text, a number field as an integer, and null or missing as NULL', async () => {
      const fields = (d: Dialect) =>
        `SELECT i.id, ${d.jsonField('t.value', '$.q', 'integer')} AS q, ${d.jsonField('t.value', '$.a.b', 'text')} AS deep
           FROM items i, ${d.jsonEach('i.doc', 't')} WHERE i.id <= 5 ORDER BY i.id, q`;
      expect(await sameRows(fields)).toEqual([
        { id: 1, q: 1, deep: null },
        { id: 3, q: null, deep: null },
        { id: 3, q: null, deep: null },
        { id: 5, q: 2, deep: null },
        { id: 5, q: 3, deep: 'deep' },
      ]);
    });

    it('reads a path with an array index on a text column; no rows for an empty array or NULL', async () => {
      const second = (d: Dialect) => `SELECT id, ${d.jsonField('doc', '$[1].a.b', 'text')} AS b FROM items WHERE id <= 5 ORDER BY id`;
      expect(await sameRows(second)).toEqual([
        { id: 1, b: null },
        { id: 2, b: null },
        { id: 3, b: null },
        { id: 4, b: null },
        { id: 5, b: 'deep' },
      ]);
      const count = (d: Dialect) => `SELECT i.id, count(*) AS c FROM items i, ${d.jsonEach('i.doc', 't')} WHERE i.id <= 10 GROUP BY i.id ORDER BY i.id`;
      expect(await sameRows(count)).toEqual([
        { id: 1, c: 1 },
        { id: 3, c: 2 },
        { id: 5, c: 2 },
        { id: 6, c: 1 },
        { id: 8, c: 2 },
        { id: 10, c: 2 },
      ]);
    });

    it('refuses a path it cannot write on both engines, and a repeated positional parameter', () => {
      for (const d of [sqliteDialect, postgresDialect]) {
        expect(() => d.jsonField('x', '$', 'text')).toThrow('a JSON path names at least one step: "$"');
        expect(() => d.jsonField('x', "$.a'; DROP", 'text')).toThrow(`unsupported JSON path "$.a'; DROP" at 3`);
      }
      expect(() => postgresDialect.jsonField('?', '$.a', 'text')).toThrow(RangeError);
      expect(() => postgresDialect.greatestOf('?', 'b')).toThrow(RangeError);
    });
  });

  describe('jsonArray', () => {
    it('makes the same JSON row of text, numbers and NULLs', async () => {
      const rows = (d: Dialect) => `SELECT ${d.jsonArray('CAST(id AS TEXT)', 'code', 'n', 'm')} AS j FROM items WHERE id BETWEEN 10 AND 16 ORDER BY id`;
      const both = await onBoth(rows);
      const parsed = (list: unknown[]) => list.map((r) => JSON.parse((r as { j: string }).j) as unknown);
      expect(parsed(both.postgres)).toEqual(parsed(both.sqlite));
      expect(parsed(both.sqlite)).toEqual([
        ['10', 'c10', 30, null],
        ['11', null, 33, 1989],
        ['12', 'c12', 36, 1988],
        ['13', 'c13', 39, 1987],
        ['14', 'c14', null, 1986],
        ['15', '15', 45, null],
        ['16', 'Zé "q", \\n', 48, 1984],
      ]);
    });
  });

  describe('greatestOf', () => {
    it('is the larger value, and NULL when either is NULL (SQLite scalar max)', async () => {
      const larger = (d: Dialect) => `SELECT id, ${d.greatestOf('n', 'm')} AS g FROM items WHERE id BETWEEN 33 AND 36 OR id BETWEEN 600 AND 601 ORDER BY id`;
      expect(await sameRows(larger)).toEqual([
        { id: 33, g: 1967 },
        { id: 34, g: 1966 },
        { id: 35, g: null },
        { id: 36, g: 1964 },
        { id: 600, g: null },
        { id: 601, g: 1803 },
      ]);
    });

    it('compares text by its bytes', async () => {
      const text = (d: Dialect) => `SELECT ${d.greatestOf('a.code', 'b.code')} AS g FROM items a, items b WHERE a.id = 17 AND b.id = 18`;
      expect(await sameRows(text)).toEqual([{ g: 'b' }]);
    });

    it('keeps the later HLC in the clock upsert whichever order the values come in', async () => {
      // The existing row's column is named with its table: PostgreSQL finds a bare `last` ambiguous
      // beside excluded.last (SQLite takes either spelling).
      const save = (d: Dialect) => `INSERT INTO hlc (id, last) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last = ${d.greatestOf('hlc.last', 'excluded.last')}`;
      await sameRows(save, ['0001732000000000-0002-001']);
      await sameRows(save, ['0001731999999999-0009-001']);
      expect(await sameRows(() => 'SELECT id, last FROM hlc')).toEqual([{ id: 1, last: '0001732000000000-0002-001' }]);
      await sameRows(save, ['0001732000000000-0003-001']);
      expect(await sameRows(() => 'SELECT id, last FROM hlc')).toEqual([{ id: 1, last: '0001732000000000-0003-001' }]);
    });
  });

  describe('insertOrIgnore', () => {
    it('inserts once and leaves the first row when the key is taken', async () => {
      const insert = (d: Dialect) => d.insertOrIgnore('installation', ['singleton', 'installation_id', 'created_at'], ['1', '?', '?']);
      await sameRows(insert, ['inst_first', 100]);
      await sameRows(insert, ['inst_second', 200]);
      expect(await sameRows(() => 'SELECT singleton, installation_id, created_at FROM installation')).toEqual([
        { singleton: 1, installation_id: 'inst_first', created_at: 100 },
      ]);
    });

    it('binds a ? per column by default', async () => {
      const insert = (d: Dialect) => d.insertOrIgnore('items', ['id', 'code']);
      await sameRows(insert, [5000, 'new']);
      await sameRows(insert, [5000, 'again']);
      await sameRows(insert, [1, 'taken']);
      expect(await sameRows(() => 'SELECT id, code FROM items WHERE id IN (1, 5000) ORDER BY id')).toEqual([
        { id: 1, code: 'c1' },
        { id: 5000, code: 'new' },
      ]);
    });
  });

  describe('tableExists', () => {
    it('answers one row for a table, none for a missing name or a view', async () => {
      expect(await sameRows((d) => d.tableExists('items'))).toHaveLength(1);
      expect(await sameRows((d) => d.tableExists('missing'))).toEqual([]);
      expect(await sameRows((d) => d.tableExists('items_view'))).toEqual([]);
      expect(() => sqliteDialect.tableExists("x' OR '1")).toThrow('not a plain SQL name');
    });
  });
});
