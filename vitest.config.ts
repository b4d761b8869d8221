import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20000,
    hookTimeout: 20000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
