import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  // Under CI a missing browser is a failure, never a quiet skip.
  throw new Error(`Chromium not found at ${CHROMIUM}. Install Debian's chromium package (or set CHROMIUM_PATH).`);
}
// E2E_NOW (an ISO instant): run the servers, and through e2e/support/test.ts every page, as if it
// were then, to prove the suite passes on any calendar day (`npm run test:any-day`).
const E2E_NOW = process.env.E2E_NOW;
if (E2E_NOW !== undefined && Number.isNaN(Date.parse(E2E_NOW)))
  throw new Error(`E2E_NOW must be an ISO 8601 instant, e.g. 2027-03-14T07:30:00Z (got ${E2E_NOW}).`);

// Each worker runs its own server on its own embedded database (e2e/support/server.ts, decision 063).
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(WORKERS) || WORKERS < 1)
  throw new Error(`E2E_WORKERS must be a whole number of workers, 1 or more (got ${process.env.E2E_WORKERS}).`);

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
