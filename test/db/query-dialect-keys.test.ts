import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { startPostgres, type PgCluster } from '../helpers/postgres.js';

/**
 * inJsonKeys (a push's records looked up by key, sync/entities.ts and sync/balances.ts) answers
 * the rows inJsonList answers, on both engines, for integer and text keys and for elements a key
 * never equals. (Its point, the plan: on a central's stock_movements of 48,000 rows without
 * statistics, `= ANY (ARRAY(...))` probes the primary key for the keys, 0.2 ms, where inJsonList's
 * semi-join scans the contract's rows, 12 ms; a small table may be planned either way.)
 */

const DDL = [
  'CREATE TABLE moves (contract_id TEXT NOT NULL, move_id INTEGER NOT NULL, code TEXT NOT NULL, PRIMARY KEY (contract_id, move_id))',
  "INSERT INTO moves (contract_id, move_id, code) SELECT 'c', n, 'k' || n FROM (WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000) SELECT n FROM s) AS s",
  "INSERT INTO moves (contract_id, move_id, code) VALUES ('d', 7, 'k7')",
];
const LISTS: [string, 'integer' | 'text', string][] = [
  ['move_id', 'integer', JSON.stringify([7, 2999, 5000, '12', 'x', 1.5])],
  ['code', 'text', JSON.stringify(['k7', 'k2999', 'nope', 12])],
];

describe('inJsonKeys: the rows of inJsonList', () => {
  let cluster: PgCluster;
  let client: pg.Client;
  let sqlite: Database.Database;

  beforeAll(async () => {
    cluster = await startPostgres();
    client = new pg.Client({ connectionString: await cluster.createDatabase() });
    await client.connect();
    for (const statement of DDL) await client.query(statement.replaceAll('INTEGER', 'bigint'));
    sqlite = new Database(':memory:');
    for (const statement of DDL) sqlite.exec(statement);
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    sqlite?.close();
    await cluster?.stop();
  });

  const sql = (dialect: typeof sqliteDialect, column: string, element: 'integer' | 'text', fragment: 'inJsonList' | 'inJsonKeys', param = '?') =>
    `SELECT move_id FROM moves WHERE contract_id = 'c' AND ${column} ${dialect[fragment](element, param)}`;
  const sorted = (ids: number[]) => ids.sort((x, y) => x - y);

  it('the same rows as inJsonList on both engines', async () => {
    for (const [column, element, list] of LISTS) {
      const onSqlite = (fragment: 'inJsonList' | 'inJsonKeys') => sorted((sqlite.prepare(sql(sqliteDialect, column, element, fragment)).all(list) as { move_id: number }[]).map((r) => r.move_id));
      const onPostgres = async (fragment: 'inJsonList' | 'inJsonKeys') =>
        sorted((await client.query(sql(postgresDialect, column, element, fragment, '$1'), [list])).rows.map((r: { move_id: string }) => Number(r.move_id)));
      expect(onSqlite('inJsonKeys')).toEqual(onSqlite('inJsonList'));
      expect(await onPostgres('inJsonKeys')).toEqual(await onPostgres('inJsonList'));
      expect(await onPostgres('inJsonKeys')).toEqual(onSqlite('inJsonKeys'));
    }
    expect(sqliteDialect.inJsonKeys('integer')).toBe(sqliteDialect.inJsonList('integer'));
  });
});
