/**
 * Which database engine an instance runs on (issue 23): the store's SQLite file in its data dir,
 * or, for head office, PostgreSQL named by `POS_DATABASE_URL` / `--database`. The rest of the
 * server sees one `Sqlite`-shaped handle either way (pg/sqlite-shape.ts), and asks `dialectOf`
 * for the SQL that differs.
 */
import type { Sqlite } from './open.js';
import { sqliteDialect } from './dialect/query-sqlite.js';
import { postgresDialect } from './dialect/query-postgres.js';
import type { Dialect } from './dialect/query.js';
import { openPostgres } from './pg/open.js';
import { migratePostgres } from './pg/migrate.js';
import { SqliteShape } from './pg/sqlite-shape.js';
import { PgSyncClient } from './pg/sync-client.js';

export type Engine = 'sqlite' | 'postgres';

/**
 * Checks the URL, reaches the server and applies the pending migrations (one transaction, under
 * an advisory lock): what `serve` and every CLI command do before opening the handle. Throws
 * DatabaseUrlError, DatabaseUnreachable, MigrationFailed or NewerDatabaseError, each one line.
 * Answers the URL without its password.
 */
export async function preparePostgres(url: string, now: Date): Promise<string> {
  const opened = await openPostgres(url);
  try {
    await migratePostgres(opened.pool, undefined, now);
  } finally {
    await opened.pool.end().catch(() => {});
  }
  return opened.description;
}

/**
 * The handle the repos use, over a database preparePostgres has migrated. `dataDirFile` is the
 * data dir's database path (db/open.ts databaseFile): its `name`, for the files kept beside it.
 */
export function openPostgresHandle(url: string, dataDirFile: string): Sqlite {
  const handle = new SqliteShape(new PgSyncClient({ connectionString: url }), dataDirFile) as unknown as Sqlite;
  postgresUrls.set(handle, url);
  return handle;
}

/** The URL each PostgreSQL handle was opened on (with its password: never log it). */
const postgresUrls = new WeakMap<Sqlite, string>();

/**
 * The URL a PostgreSQL handle was opened on, for work that needs a connection of its own (the CSV
 * export's worker reads through a cursor); undefined for a SQLite handle.
 */
export const postgresUrlOf = (db: Sqlite): string | undefined => postgresUrls.get(db);

export const engineOf = (db: Sqlite): Engine => ((db as unknown) instanceof SqliteShape ? 'postgres' : 'sqlite');

/** The SQL fragments of the handle's engine (dialect/query.ts). */
export const dialectOf = (db: Sqlite): Dialect => (engineOf(db) === 'postgres' ? postgresDialect : sqliteDialect);

/**
 * fn with its writes sent together with the next statement read, or when fn returns, on
 * PostgreSQL (PgSyncClient.deferringWrites: one round trip for a run of writes; a failed write
 * throws from later in fn or at its end, so only where fn's caller treats any failure of fn
 * alike). SQLite writes to its file at once, as ever.
 */
export const deferringWrites = <T>(db: Sqlite, fn: () => T): T => ((db as unknown) instanceof SqliteShape ? (db as unknown as SqliteShape).deferringWrites(fn) : fn());
