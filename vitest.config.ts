import { defineConfig } from 'vitest/config';

// Two projects: pure unit tests, and database tests (*.pg.test.ts) that share one PostgreSQL
// started by the global setup, each file in a database of its own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          env: { LOG_LEVEL: 'warn' },
          include: ['{server,shared,client}/src/**/*.test.ts'],
          exclude: ['**/*.pg.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'pg',
          env: { LOG_LEVEL: 'warn' },
          include: ['{server,shared,client}/src/**/*.pg.test.ts', 'test/**/*.pg.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
