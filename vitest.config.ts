import { defineConfig } from 'vitest/config';

// TEST_NOW (an ISO instant) moves the tests' calendar; see vitest.any-day.ts.
const setupFiles = ['./vitest.any-day.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          setupFiles,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          setupFiles,
          include: ['apps/api/test/**/*.integration.test.ts'],
          // Migrates and seeds the template databases each test database is copied from (decision 059).
          globalSetup: ['./apps/api/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep the embedded databases from fighting over them.
          maxWorkers: 2,
        },
      },
    ],
  },
});
