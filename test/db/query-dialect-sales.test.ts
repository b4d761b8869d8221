import Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { type SqlParams } from '../../server/db/pg/placeholders.js';
import { decimalOfParts, SUM_SCALE } from '../../server/domain/closing-report.js';
import { rowsOnBoth, useDialectEngines } from '../helpers/dialect-engines.js';

/**
 * The fragments of the sales area (closings and their reports), run on a fresh SQLite and a real
 * PostgreSQL over the same small tables: the same rows on both, and exact money (no float).
 */

// As the migrations write them on SQLite, and as the translator makes them on PostgreSQL.
const SQLITE_TABLES = [
  'CREATE TABLE heads (id INTEGER PRIMARY KEY, grp TEXT NOT NULL, units INTEGER, amount TEXT, code TEXT)',
  'CREATE TABLE lines (head_id INTEGER NOT NULL, line_no INTEGER NOT NULL, price TEXT, PRIMARY KEY (head_id, line_no))',
];
const POSTGRES_TABLES = [
  'CREATE TABLE heads (id bigint PRIMARY KEY, grp text COLLATE "C" NOT NULL, units bigint, amount text COLLATE "C", code text COLLATE "C")',
  'CREATE TABLE lines (head_id bigint NOT NULL, line_no bigint NOT NULL, price text COLLATE "C", PRIMARY KEY (head_id, line_no))',
];

type Head = [id: number, grp: string, units: number | null, amount: string | null, code: string | null];

/** Canonical decimals (as the API stores them) of every sign and scale up to SUM_SCALE, and NULLs. */
const FIXED: Head[] = [
  [1, 'a', 1_000, '12.5', 'c1'],
  [2, 'a', -500, '-12.5', 'c2'],
  [3, 'a', 3_000_000_000, '0.000000001', 'c3'],
  [4, 'a', null, '-0.5', null],
  [5, 'a', 7, '100', 'c5'],
  [6, 'b', 2_000_000_000, null, 'c6'],
  [7, 'b', 2_000_000_000, '99999999999.999999999', 'c7'],
  [8, 'b', 1, '-3000000000.25', 'c8'],
  [9, 'b', 0, '0', 'c9'],
  [10, 'c', null, null, null],
];

/** Many decimals of up to SUM_SCALE places, both signs (a deterministic sequence, no Math.random). */
function many(from: number, count: number): Head[] {
  const rows: Head[] = [];
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const places = x % (SUM_SCALE + 1);
    const digits = String(x).padStart(places + 1, '0');
    const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
    const value = new Decimal(text);
    const canonical = (i % 3 === 0 && !value.isZero() ? value.neg() : value).toFixed();
    rows.push([from + i, `g${i % 4}`, x - 1_000_000_000, canonical, `k${i}`]);
  }
  return rows;
}

const ROWS: Head[] = [...FIXED, ...many(100, 2000)];
const LINES: [number, number, string | null][] = ROWS.flatMap(([id]) => (id % 3 === 0 ? [] : [[id, 1, `${id}.1`], [id, 2, null]] as [number, number, string | null][]));

describe('the sales dialect fragments on SQLite and PostgreSQL', () => {
  let pool: pg.Pool;
  let sqlite: Database.Database;

  async function insertBoth(table: string, columns: string, pgTypes: string, rows: unknown[][]): Promise<void> {
    const insert = sqlite.prepare(`INSERT INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
    sqlite.transaction(() => rows.forEach((row) => insert.run(row)))();
    const names = columns.split(', ');
    await pool.query(`INSERT INTO ${table} SELECT * FROM json_to_recordset($1::json) AS r(${pgTypes})`, [
      JSON.stringify(rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])))),
    ]);
  }

  useDialectEngines(async (engines) => {
    ({ pool, sqlite } = engines);
    for (const sql of SQLITE_TABLES) sqlite.exec(sql);
    for (const sql of POSTGRES_TABLES) await pool.query(sql);
    await insertBoth('heads', 'id, grp, units, amount, code', 'id bigint, grp text, units bigint, amount text, code text', ROWS);
    await insertBoth('lines', 'head_id, line_no, price', 'head_id bigint, line_no bigint, price text', LINES);
  });

  async function sameRows(build: (d: Dialect) => string, params: SqlParams = []): Promise<Record<string, unknown>[]> {
    const rows = await rowsOnBoth({ sqlite, pool }, build, params);
    expect(rows.postgres).toEqual(rows.sqlite);
    return rows.sqlite as Record<string, unknown>[];
  }

  describe('SQLite fragments are the ones the closing repo wrote', () => {
    it('writes each fragment as before', () => {
      expect(sqliteDialect.sumOfIntegers('t.total')).toBe('SUM(t.total)');
      const sum = sqliteDialect.decimalSum('t.amount', 9);
      expect(sum.whole).toBe('SUM(CAST(t.amount AS INTEGER))');
      expect(sum.fraction).toBe(
        "SUM(CASE WHEN instr(t.amount, '.') > 0 THEN (CASE WHEN substr(t.amount, 1, 1) = '-' THEN -1 ELSE 1 END) * " +
          "CAST(substr(substr(t.amount, instr(t.amount, '.') + 1) || '000000000', 1, 9) AS INTEGER) ELSE 0 END)",
      );
      expect(sum.finer).toBe("SUM(CASE WHEN instr(t.amount, '.') > 0 THEN length(t.amount) - instr(t.amount, '.') ELSE 0 END > 9)");
      expect(sqliteDialect.bareOfMax('o.payment_method_code', 'o.transaction_head_id')).toBe('o.payment_method_code');
      expect(sqliteDialect.joinInOrder()).toBe('CROSS JOIN');
    });

    it('refuses a scale the 64-bit sums cannot hold, and a repeated ? on PostgreSQL', () => {
      expect(() => sqliteDialect.decimalSum('amount', 19)).toThrow(RangeError);
      expect(() => postgresDialect.decimalSum('amount', 0)).toThrow(RangeError);
      expect(() => postgresDialect.decimalSum('?', 9)).toThrow(RangeError);
    });
  });

  describe('sumOfIntegers', () => {
    it('sums to a number on both, past 32 bits, and is NULL over no rows', async () => {
      const rows = await sameRows((d) => `SELECT grp, ${d.sumOfIntegers('units')} AS s, COALESCE(${d.sumOfIntegers('units')}, 0) AS z FROM heads WHERE id < 100 GROUP BY grp ORDER BY grp`);
      expect(rows).toEqual([
        { grp: 'a', s: 3_000_000_507, z: 3_000_000_507 },
        { grp: 'b', s: 4_000_000_001, z: 4_000_000_001 },
        { grp: 'c', s: null, z: 0 },
      ]);
      expect(await sameRows((d) => `SELECT ${d.sumOfIntegers('units')} AS s FROM heads WHERE id < 0`)).toEqual([{ s: null }]);
    });

    it('sums an expression (the cash effect form)', async () => {
      await sameRows((d) => `SELECT COALESCE(${d.sumOfIntegers("CASE WHEN code = 'c2' THEN 0 ELSE -(units) END")}, 0) AS cash FROM heads`);
    });
  });

  describe('decimalSum', () => {
    /**
     * The engines may split a sum into different parts (SQLite sums each value's integer and
     * fraction parts, PostgreSQL splits the numeric sum): what must be the same on both is the
     * sum decimalOfParts makes of them, and the other columns.
     */
    async function sameSums(build: (d: Dialect) => string): Promise<Record<string, unknown>[]> {
      const rows = await rowsOnBoth({ sqlite, pool }, build, []);
      const summed = (list: unknown[]) =>
        (list as Record<string, unknown>[]).map(({ w, f, ...rest }) => ({ ...rest, w, f, sum: decimalOfParts(w as number | null, f as number | null) }));
      const without = (list: Record<string, unknown>[]) => list.map(({ w: _w, f: _f, ...rest }) => rest);
      expect(without(summed(rows.postgres))).toEqual(without(summed(rows.sqlite)));
      return summed(rows.sqlite);
    }
    const sums = (d: Dialect, where = '') => {
      const s = d.decimalSum('amount', SUM_SCALE);
      return `SELECT grp, ${s.whole} AS w, ${s.fraction} AS f, ${s.finer} AS finer, COUNT(*) AS n FROM heads ${where} GROUP BY grp ORDER BY grp`;
    };
    const exact = (rows: Head[], grp: string) => rows.filter((r) => r.at(1) === grp && r[3] !== null).reduce((acc, r) => acc.plus(r[3]!), new Decimal(0)).toFixed();

    it('gives the same parts on both, which decimalOfParts puts together as the exact sum', async () => {
      const rows = await sameSums((d) => sums(d, 'WHERE id < 100'));
      expect(rows.map((r) => [r.grp, r.sum, r.finer])).toEqual([
        ['a', '99.500000001', 0],
        ['b', '96999999999.749999999', 0],
        ['c', '0', 0],
      ]);
      for (const r of rows) expect(decimalOfParts(r.w as number | null, r.f as number | null)).toBe(exact(FIXED, r.grp as string));
    });

    it('sums 2,000 decimals of every scale up to SUM_SCALE exactly', async () => {
      const rows = await sameSums((d) => sums(d, 'WHERE id >= 100'));
      expect(rows.map((r) => r.grp)).toEqual(['g0', 'g1', 'g2', 'g3']);
      for (const r of rows) {
        expect(r.finer).toBe(0);
        expect(decimalOfParts(r.w as number | null, r.f as number | null)).toBe(exact(ROWS, r.grp as string));
      }
    });

    it('says alike whether a group has a value finer than the scale (its fraction is cut)', async () => {
      const finer = (d: Dialect) => {
        const s = d.decimalSum("CASE WHEN id = 1 THEN '3.14159265358979' WHEN id = 2 THEN '-0.0000000001' WHEN id = 6 THEN '1.5000000000' ELSE amount END", SUM_SCALE);
        // a: two finer values; b: one, with trailing zeros (ten decimals in the text); c: none.
        return `SELECT grp, ${s.finer} AS finer FROM heads WHERE id < 100 GROUP BY grp ORDER BY grp`;
      };
      // Only whether it is above 0 must agree: with a finer value the sum is not used (the report
      // reads the records). SQLite counts the values, PostgreSQL reads the sum's scale.
      const rows = await rowsOnBoth({ sqlite, pool }, finer, []);
      const above0 = (list: unknown[]) => (list as { grp: string; finer: number }[]).map((r) => [r.grp, r.finer > 0]);
      expect(above0(rows.sqlite)).toEqual([['a', true], ['b', true], ['c', false]]);
      expect(above0(rows.postgres)).toEqual(above0(rows.sqlite));
    });

    it('sums the columns of a grouped join (the report lines form)', async () => {
      await sameSums((d) => {
        const s = d.decimalSum('l.price', SUM_SCALE);
        return `SELECT h.grp, l.line_no, ${s.whole} AS w, ${s.fraction} AS f, ${s.finer} + ${d.decimalSum('h.amount', SUM_SCALE).finer} AS finer
          FROM heads h ${d.joinInOrder()} lines l ON l.head_id = h.id GROUP BY 1, 2 ORDER BY 1, 2`;
      });
    });
  });

  describe('bareOfMax', () => {
    it('takes the value of the row holding the group\'s MAX', async () => {
      const rows = await sameRows(
        (d) => `SELECT grp, MAX(id) AS latest, ${d.bareOfMax('code', 'id')} AS code, COUNT(*) AS n FROM heads WHERE id < 100 GROUP BY grp ORDER BY grp`,
      );
      expect(rows).toEqual([
        { grp: 'a', latest: 5, code: 'c5', n: 5 },
        { grp: 'b', latest: 9, code: 'c9', n: 4 },
        { grp: 'c', latest: 10, code: null, n: 1 },
      ]);
    });
  });

  describe('joinInOrder', () => {
    it('joins with an ON on both, as an inner join', async () => {
      const rows = await sameRows((d) => `SELECT h.id, l.line_no, l.price FROM heads h ${d.joinInOrder()} lines l ON l.head_id = h.id WHERE h.id < 10 ORDER BY 1, 2`);
      expect(rows.map((r) => r.id)).toEqual([1, 1, 2, 2, 4, 4, 5, 5, 7, 7, 8, 8]);
    });
  });
});
