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
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.tsx',
            'bench/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.integration.test.ts', '**/*.component.test.tsx', '**/node_modules/**'],
          // Pure tests: the files of a worker share one module graph (decision 078).
          isolate: false,
        },
      },
      {
        // The web app's pages and widgets drawn in jsdom, the API faked at fetch (decision 061).
        test: {
          name: 'component',
          environment: 'jsdom',
          setupFiles: [...setupFiles, './apps/web/src/test/setup.ts'],
          // The console's widgets too (apps/ops): the same jsdom shims; they fake their own API calls.
          include: ['apps/web/src/**/*.component.test.tsx', 'apps/ops/src/**/*.component.test.tsx'],
          // The files of a worker share one jsdom and one module graph (Mantine, React and the app are
          // loaded once rather than per file: half the time). What a test leaves behind is reset by the
          // setup file, and each test of Review & Pay pays for a trip of its own.
          isolate: false,
          testTimeout: 20_000,
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
          // The files of a worker share one module graph: the API and its dependencies are loaded once
          // per worker, not once per file. Each file builds its own app on its own database.
          isolate: false,
        },
      },
    ],
  },
});
