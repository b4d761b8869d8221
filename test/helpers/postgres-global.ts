/**
 * vitest globalSetup: builds dist/ when it is stale (below), and gives the run a directory where the first test file that needs PostgreSQL
 * starts the run's one cluster (test/helpers/postgres.ts), and stops and removes it at the end.
 * Starting nothing here keeps SQLite-only runs as fast as before.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destroyClusterDir } from './postgres-cluster.js';
import { SHARED_RUN_DIR_ENV } from './postgres.js';
import { ensureDistBuilt } from '../ui/support/build.js';

export default async function setup(): Promise<() => Promise<void>> {
  // The PostgreSQL client's worker and the CLI tests run from dist/: built once here when a source
  // is newer, rather than by the first test files inside their 20 s hooks while the others wait.
  await ensureDistBuilt();
  const runDir = mkdtempSync(join(tmpdir(), 'pos-pg-run-'));
  writeFileSync(join(runDir, 'owner.pid'), String(process.pid));
  process.env[SHARED_RUN_DIR_ENV] = runDir;
  return async () => {
    const stateFile = join(runDir, 'cluster.json');
    if (existsSync(stateFile)) {
      const { bin, dir } = JSON.parse(readFileSync(stateFile, 'utf8')) as { bin: string; dir: string };
      await destroyClusterDir(bin, dir);
    }
    rmSync(runDir, { recursive: true, force: true });
  };
}
