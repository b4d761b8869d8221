import Database from 'better-sqlite3';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/dialect/query.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { type SqlParams } from '../../server/db/pg/placeholders.js';
import { rowsOnBoth, useDialectEngines } from '../helpers/dialect-engines.js';

/**
 * The dialect fragments the inventory repos use (likeEscaped: the supplier name filter), run on a
 * fresh SQLite and a real PostgreSQL over the same small table: the same rows on both.
 */

const NAMES = ['Tea House', 'tea house', 'TEA', 'Steam', 'Café', 'CAFÉ', 'café', '100% Juice', '100 Juice', 'a_b', 'axb', 'back\\slash', 'Zoë', 'ZOË', null];

describe('the inventory dialect fragments on SQLite and PostgreSQL', () => {
  let pool: pg.Pool;
  let sqlite: Database.Database;

  useDialectEngines(async (engines) => {
    ({ pool, sqlite } = engines);
    sqlite.exec('CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT) STRICT');
    // As the migration translator makes a text column.
    await pool.query('CREATE TABLE suppliers (id bigint PRIMARY KEY, name text COLLATE "C")');
    const insert = sqlite.prepare('INSERT INTO suppliers VALUES (?, ?)');
    NAMES.forEach((name, i) => insert.run(i + 1, name));
    for (const [i, name] of NAMES.entries()) await pool.query('INSERT INTO suppliers VALUES ($1, $2)', [i + 1, name]);
  });

  async function sameRows(build: (d: Dialect) => string, params: SqlParams = []): Promise<unknown[]> {
    const rows = await rowsOnBoth({ sqlite, pool }, build, params);
    expect(rows.postgres).toEqual(rows.sqlite);
    return rows.sqlite;
  }

  /** The supplier repo's pattern: the client's text between %, its own \, % and _ escaped. */
  const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  const names = (rows: unknown[]) => rows.map((r) => (r as { name: string }).name);
  const byName = (d: Dialect) => `SELECT id, name FROM suppliers WHERE ${d.likeEscaped('name', '?')} ORDER BY id`;

  it('writes the SQLite text the supplier repo always had', () => {
    expect(sqliteDialect.likeEscaped('supplier_name', '?')).toBe("supplier_name LIKE ? ESCAPE '\\'");
  });

  it('matches ASCII letters in either case', async () => {
    expect(names(await sameRows(byName, [containing('tea')]))).toEqual(['Tea House', 'tea house', 'TEA', 'Steam']);
    expect(names(await sameRows(byName, [containing('HOUSE')]))).toEqual(['Tea House', 'tea house']);
  });

  it('matches other letters only as they are written, as SQLite does', async () => {
    expect(names(await sameRows(byName, [containing('café')]))).toEqual(['Café', 'café']);
    expect(names(await sameRows(byName, [containing('É')]))).toEqual(['CAFÉ']);
    expect(names(await sameRows(byName, [containing('zoë')]))).toEqual(['Zoë']);
  });

  it('takes an escaped %, _ and \\ as themselves, and never matches NULL', async () => {
    expect(names(await sameRows(byName, [containing('100%')]))).toEqual(['100% Juice']);
    expect(names(await sameRows(byName, [containing('a_b')]))).toEqual(['a_b']);
    expect(names(await sameRows(byName, [containing('k\\s')]))).toEqual(['back\\slash']);
    expect(await sameRows(byName, ['%'])).toHaveLength(NAMES.length - 1);
  });

  it('takes a named parameter and a bare parameter on the left', async () => {
    const named = (d: Dialect) => `SELECT id FROM suppliers WHERE ${d.likeEscaped('name', '@pattern')} AND id > @after ORDER BY id`;
    expect(await sameRows(named, { pattern: containing('JUICE'), after: 8 })).toEqual([{ id: 9 }]);
    const bare = (d: Dialect) => `SELECT ${d.likeEscaped('?', '?')} AS hit`;
    expect(await sameRows(bare, ['Tea', 't%'])).toEqual([{ hit: 1 }]);
  });
});
