import { defineConfig } from 'vitest/config';

/**
 * The suite runs twice over the parts head office has (issue 23): every file on SQLite, and the
 * API, sync, webhook, CSV, job and CLI files again with the app's database on PostgreSQL
 * (POS_TEST_ENGINE=postgres, test/helpers/engine.ts). Browser, Electron, UI and pure domain
 * tests stay on SQLite only. `npx vitest run --project postgres test/masters` runs files on one engine.
 */
const ON_BOTH_ENGINES = [
  'test/masters/**/*.test.ts',
  'test/sales/**/*.test.ts',
  'test/inventory/**/*.test.ts',
  'test/restaurant/**/*.test.ts',
  'test/platform/**/*.test.ts',
  'test/sync/**/*.test.ts',
  'test/jobs/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/modules.test.ts',
  'test/db/master-repo.test.ts',
];

/** Test files that start central on PostgreSQL whatever the engine: run once, in the sqlite project. */
const ALWAYS_POSTGRES = ['test/cli/database.test.ts', 'test/sync/central-faults-postgres.test.ts', 'test/sync/cluster-processes.test.ts'];

export default defineConfig({
  test: {
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20000,
    // Two files at a time on CI's 2 cores (vitest's default is cores - 1 = one): most of the suite
    // waits on another process (PostgreSQL, a server, Chromium). 1,167 s against 2,034 s, same results.
    maxWorkers: 2,
    // PostgreSQL for the tests that need it: started on first use, removed at the end.
    globalSetup: ['./test/helpers/postgres-global.ts'],
    hookTimeout: 20000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      // Each project names its engine, so an engine set in the shell does not change the sqlite one.
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], env: { POS_TEST_ENGINE: 'sqlite' } } },
      // The files that always run central on PostgreSQL (their own clusters) run once, above.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ON_BOTH_ENGINES,
          exclude: [...ALWAYS_POSTGRES, 'test/bench/**', 'node_modules/**'],
          env: { POS_TEST_ENGINE: 'postgres' },
          // The first file's first hook starts the run's cluster and its migrated template.
          hookTimeout: 60000,
        },
      },
    ],
  },
});
