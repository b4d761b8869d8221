/**
 * For the dialect fragments' tests (test/db/query-dialect*.test.ts): an empty in-memory SQLite and
 * a new database on the run's PostgreSQL cluster, read as the server reads each (better-sqlite3; a
 * pool with the synchronous client's type parsers), and one statement built with each engine's
 * dialect, run on its engine.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import type { Dialect } from '../../server/db/dialect/query.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { sqliteDialect } from '../../server/db/dialect/query-sqlite.js';
import { createPool, parseDatabaseUrl } from '../../server/db/pg/connect.js';
import { numberPlaceholders, type SqlParams } from '../../server/db/pg/placeholders.js';
import { sqliteLikeTypes } from '../../server/db/pg/type-parsers.js';
import { startPostgres, type PgCluster } from './postgres.js';

export interface DialectEngines {
  sqlite: Database.Database;
  pool: pg.Pool;
  cluster: PgCluster;
  close(): Promise<void>;
}

export async function openDialectEngines(): Promise<DialectEngines> {
  const cluster = await startPostgres();
  const pool = createPool(parseDatabaseUrl(await cluster.createDatabase()), { max: 1, types: sqliteLikeTypes });
  const sqlite = new Database(':memory:');
  return {
    sqlite,
    pool,
    cluster,
    async close() {
      sqlite.close();
      await pool.end();
      await cluster.stop();
    },
  };
}

/**
 * For a describe block of a dialect test: both engines opened before its tests, handed to
 * `setUp` (tables and rows), and closed after them.
 */
export function useDialectEngines(setUp: (engines: DialectEngines) => Promise<void> | void): void {
  let engines: DialectEngines | undefined;
  beforeAll(async () => {
    engines = await openDialectEngines();
    await setUp(engines);
  }, 120_000);
  afterAll(() => engines?.close());
}

/** The statement `build` makes with each dialect, run on its engine (a statement without rows answers []). */
export async function rowsOnBoth(
  on: { sqlite: Database.Database; pool: pg.Pool },
  build: (d: Dialect) => string,
  params: SqlParams = [],
): Promise<{ sqlite: unknown[]; postgres: unknown[] }> {
  const statement = on.sqlite.prepare(build(sqliteDialect));
  const sqliteRows = statement.reader ? statement.all(params as never) : (statement.run(params as never), []);
  const query = numberPlaceholders(build(postgresDialect), params);
  return { sqlite: sqliteRows, postgres: (await on.pool.query(query.text, query.values)).rows };
}
