/**
 * The engine the API, sync, webhook, CSV and CLI tests run on (issue 23): SQLite by default,
 * PostgreSQL when the run sets POS_TEST_ENGINE=postgres (vitest.config.ts's `postgres` project).
 * The same test files run on both; only the database under the app changes. On PostgreSQL each
 * call gets its own migrated database (a template copy, about 50 ms), dropped when the test closes it.
 */
import pg from 'pg';
import { startPostgres } from './postgres.js';
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
  const url = await createMigratedDatabase(cluster);
  return {
    postgresUrl: url,
    async drop() {
      const name = new URL(url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
