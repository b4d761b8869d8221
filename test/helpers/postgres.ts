/**
 * Throwaway PostgreSQL clusters for tests (Debian's `postgresql` package; no mocks, no PGlite).
 *
 * API (stable; other helpers and tests build on it):
 *
 *   startPostgres(): Promise<PgCluster>
 *     The cluster of this test run, shared by every test file: started by the first file that asks
 *     (test/helpers/postgres-global.ts, the vitest globalSetup, stops and removes it at the end).
 *     Outside vitest's globalSetup it falls back to a private cluster (startOwnPostgres).
 *   startOwnPostgres(): Promise<OwnPgCluster>
 *     A private cluster for tests that stop and start the server (fault tests).
 *
 *   PgCluster.url(dbName = 'postgres'): string      postgres://postgres@127.0.0.1:<port>/<dbName>
 *   PgCluster.createDatabase(): Promise<string>      a new empty database (unique name), its URL
 *   PgCluster.stop(): Promise<void>                  a private cluster: stop and remove; shared: no-op
 *   OwnPgCluster.kill(): Promise<void>               `pg_ctl stop -m immediate` (data kept)
 *   OwnPgCluster.start(): Promise<void>              start it again on the same port
 *
 *   createMigratedDatabase(cluster) (./postgres-template.ts): a new database with every migration
 *   applied, copied from a template the run makes once (about 50 ms instead of migrating).
 *
 * When PostgreSQL is not installed, startPostgres rejects with one line naming the package to install.
 * Call it in beforeAll with a long timeout (`beforeAll(..., 120_000)`): the first file of a run
 * waits for initdb, the others for the lock, longer than vitest's 20 s hook timeout on a busy machine.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { createCluster } from './postgres-cluster.js';

export interface PgCluster {
  url(dbName?: string): string;
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export interface OwnPgCluster extends PgCluster {
  kill(): Promise<void>;
  start(): Promise<void>;
}

/** Set by the globalSetup: the run's directory where the first file to need PostgreSQL starts it. */
export const SHARED_RUN_DIR_ENV = 'POS_TEST_PG_RUN_DIR';

function handle(port: number, stop: () => Promise<void>): PgCluster {
  const url = (dbName = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${dbName}`;
  return {
    url,
    stop,
    async createDatabase() {
      const name = `t_${process.pid}_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
  };
}

export async function startOwnPostgres(): Promise<OwnPgCluster> {
  const cluster = await createCluster();
  return {
    ...handle(cluster.port, () => cluster.destroy()),
    kill: () => cluster.kill(),
    start: () => cluster.start(),
  };
}

let shared: Promise<PgCluster> | undefined;

export function startPostgres(): Promise<PgCluster> {
  const runDir = process.env[SHARED_RUN_DIR_ENV];
  if (!runDir) return startOwnPostgres();
  shared ??= sharedCluster(runDir);
  return shared;
}

/** One cluster per run across worker processes: a mkdir lock elects the file that starts it. */
async function sharedCluster(runDir: string): Promise<PgCluster> {
  const stateFile = `${runDir}/cluster.json`;
  const lockDir = `${runDir}/lock`;
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (existsSync(stateFile)) return attach(stateFile);
    try {
      mkdirSync(lockDir);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      if (existsSync(stateFile)) return attach(stateFile);
      // Owned by the run (vitest's main process), not by this worker, which may exit first.
      const cluster = await createCluster(Number(readFileSync(`${runDir}/owner.pid`, 'utf8')));
      // Written whole, then renamed: a waiting worker never reads half of it.
      writeFileSync(`${stateFile}.tmp`, JSON.stringify({ port: cluster.port, dir: cluster.dir, bin: cluster.bin }));
      renameSync(`${stateFile}.tmp`, stateFile);
      return handle(cluster.port, async () => {});
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  }
  throw new Error(`the shared PostgreSQL cluster in ${runDir} did not appear within 2 minutes`);
}

/** The run's cluster another worker started; the globalSetup's teardown stops it. */
function attach(stateFile: string): PgCluster {
  const { port } = JSON.parse(readFileSync(stateFile, 'utf8')) as { port: number };
  return handle(port, async () => {});
}
