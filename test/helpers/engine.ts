/**
 * The engine the API, sync, webhook, CSV and CLI tests run on (issue 23): SQLite by default,
 * PostgreSQL when the run sets POS_TEST_ENGINE=postgres (vitest.config.ts's `postgres` project).
 * The same test files run on both; only the database under the app changes. On PostgreSQL each
 * call gets its own migrated database (a template copy, about 50 ms), dropped when the test closes it.
 */
import pg from 'pg';
import { startPostgres, type PgCluster } from './postgres.js';
import { createMigratedDatabase } from './postgres-template.js';

export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE: TestEngine = process.env.POS_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = TEST_ENGINE === 'postgres';

export interface TestDatabase {
  /** Given to openDeps as postgresUrl; undefined on SQLite (the data dir's file is used). */
  postgresUrl?: string;
  /** Removes the database once its handle is closed. */
  drop(): Promise<void>;
}

/** A database for one app: nothing to make on SQLite, a migrated copy on PostgreSQL. */
export async function testDatabase(engine: TestEngine = TEST_ENGINE): Promise<TestDatabase> {
  if (engine === 'sqlite') return { drop: async () => {} };
  // The synchronous client's worker runs from dist/, which the run's global set-up built when stale
  // (test/helpers/postgres-global.ts): not again here, where a source edited during the run would
  // rebuild it under the files already running.
  const cluster = await startPostgres();
  const url = await nextDatabase(cluster);
  return {
    postgresUrl: url,
    drop: () => dropLater(cluster, new URL(url).pathname.slice(1)),
  };
}

/**
 * The next test's database is copied from the template while this one runs: the copy (a few
 * tens of ms, more on a loaded machine) no longer adds to every test's set-up. A spare left
 * when the run ends goes with its cluster.
 */
let spare: Promise<string> | undefined;

async function nextDatabase(cluster: PgCluster): Promise<string> {
  const url = await (spare ?? createMigratedDatabase(cluster));
  spare = createMigratedDatabase(cluster);
  spare.catch(() => {});
  return url;
}

/**
 * Drops run one after another in the background, on one connection of this worker: a DROP
 * DATABASE takes about 100 ms (a checkpoint), which every test's close would otherwise wait for,
 * and nothing waits for the space. Whatever is left when the run ends goes with its cluster.
 */
let drops: Promise<unknown> = Promise.resolve();
let admin: Promise<pg.Client> | undefined;

function dropLater(cluster: PgCluster, name: string): Promise<void> {
  admin ??= (async () => {
    const client = new pg.Client({ connectionString: cluster.url() });
    // An idle worker process must be able to exit with this connection open.
    client.on('error', () => {});
    await client.connect();
    (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
    return client;
  })();
  const connection = admin;
  drops = drops.then(async () => (await connection).query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => {});
  return Promise.resolve();
}
