import { defineConfig } from 'vitest/config';

// Two projects: every test on the embedded default (SQLite, local blobs), and the API
// scenario tests again with makeTestApp on PostgreSQL. Both get a throwaway PostgreSQL
// cluster from the global setup (the conformance and multi-server tests use it too).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], globalSetup: ['test/setup/postgres-global.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/api/**/*.test.ts'],
          globalSetup: ['test/setup/postgres-global.ts'],
          env: { STEPWISE_TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
});
