import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20000,
    // PostgreSQL for the tests that need it: started on first use, removed at the end.
    globalSetup: ['./test/helpers/postgres-global.ts'],
    hookTimeout: 20000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
