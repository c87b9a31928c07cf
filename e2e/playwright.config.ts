import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  // Under CI a missing browser is a failure, never a quiet skip.
  throw new Error(`Chromium not found at ${CHROMIUM}. Install Debian's chromium package (or set CHROMIUM_PATH).`);
}
const PORT = Number(process.env.E2E_PORT ?? 4173);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-e2e-'));
// E2E_NOW (an ISO instant): run the server, and through e2e/support/test.ts every page, as if it
// were then, to prove the suite passes on any calendar day (`npm run test:any-day`).
const E2E_NOW = process.env.E2E_NOW;
if (E2E_NOW !== undefined && Number.isNaN(Date.parse(E2E_NOW)))
  throw new Error(`E2E_NOW must be an ISO 8601 instant, e.g. 2027-03-14T07:30:00Z (got ${E2E_NOW}).`);

// Every test signs in and books from this one address, faster than anyone would: lift the request
// limits (their defaults are proved by the API's integration tests).
const RAISED_RATE_LIMITS = Object.fromEntries(
  ['SIGN_IN', 'LOOKUPS', 'EVENTS', 'KEY_COMMANDS', 'WRITES'].map((kind) => [`RATE_LIMIT_${kind}_PER_MINUTE`, '10000']),
);

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
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
  webServer: {
    // The built server, as `npm start` runs it (`npm run test:e2e` builds first).
    command: 'node --enable-source-maps ../apps/api/dist/main.js',
    url: `http://localhost:${PORT}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Every test signs in from this one address: lift the per-address SMS limit (the per-phone one stays).
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMS_SENDS_PER_IP_PER_HOUR: '1000',
      ...RAISED_RATE_LIMITS,
      CLOCK_CONTROL: 'on',
      ...(E2E_NOW ? { CLOCK_START: E2E_NOW } : {}),
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
