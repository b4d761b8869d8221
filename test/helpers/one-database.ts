import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { testDatabase, type TestDatabase } from './engine.js';

/**
 * Several central processes on one database, inside the test's process (issue 24): each an
 * openDeps of its own (its own connection and data dir) on one database of the run's engine
 * (testDatabase): on PostgreSQL its URL; on SQLite, where head office is one database file, the
 * first process's data dir's file.
 */
export type CentralOptions = Omit<Parameters<typeof openDeps>[0], 'file' | 'postgresUrl' | 'role'>;

export interface CentralsOnOneDatabase {
  /** The database they share (its postgresUrl on PostgreSQL). */
  database: TestDatabase;
  /** Opens one more central process's deps with `options`. */
  open(options?: CentralOptions): AppDeps;
  /** Closes every connection opened, drops the database and removes the data dirs (close the apps first). */
  close(): Promise<void>;
}

/** A fresh database for central processes; their data dirs are made in the temp dir as `<dirPrefix>XXXXXX`. */
export async function centralsOnOneDatabase(dirPrefix = 'pos-centrals-'): Promise<CentralsOnOneDatabase> {
  const database = await testDatabase();
  const dirs: string[] = [];
  const opened: AppDeps[] = [];
  return {
    database,
    open(options = {}) {
      if (database.postgresUrl || dirs.length === 0) dirs.push(mkdtempSync(join(tmpdir(), dirPrefix)));
      const deps = openDeps({
        ...options,
        file: join(dirs.at(-1)!, 'pos.sqlite'),
        ...(database.postgresUrl ? { postgresUrl: database.postgresUrl } : {}),
        role: 'central',
      });
      opened.push(deps);
      return deps;
    },
    async close() {
      for (const deps of opened) deps.db.close();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
