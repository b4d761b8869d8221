import { afterAll, beforeAll } from 'vitest';
import { PgSyncClient } from '../../server/db/pg/sync-client.js';
import { ensureDistBuilt } from '../ui/support/build.js';
import { startPostgres, type PgCluster } from './postgres.js';

/**
 * For a test file of the synchronous PostgreSQL client: the run's cluster (dist/ built first, where
 * the client's worker runs from), and `connect()` opening the client on a fresh database; the
 * clients and the cluster are closed after the file.
 */
export function usePgSyncClient(): { connect(): Promise<PgSyncClient> } {
  let cluster: PgCluster | undefined;
  const clients: PgSyncClient[] = [];
  beforeAll(async () => {
    await ensureDistBuilt();
    cluster = await startPostgres();
  }, 300_000);
  afterAll(() => {
    for (const client of clients) client.close();
    cluster?.stop();
  });
  return {
    async connect() {
      const client = new PgSyncClient({ connectionString: await cluster!.createDatabase(), connectTimeoutMs: 3000 });
      clients.push(client);
      return client;
    },
  };
}

/** The error fn throws (a test of a synchronous call that must fail); fails the test when fn returns. */
export function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}
