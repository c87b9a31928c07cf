import { test as base, expect } from '@playwright/test';
import { type E2eServer, startServer } from './server.ts';

/**
 * The `test` every spec imports. With E2E_NOW set (an ISO instant), the server was started with
 * CLOCK_START at that instant (see playwright.config.ts) and each page's clock is set to the
 * server's before the test opens anything, so the browser, the server and the test's own date
 * arithmetic (`serverNow`) all agree on "today". Time runs on normally in all three.
 * Without E2E_NOW, all three simply use the machine's clock.
 */
export { expect };

/** How far the server's clock is ahead of the machine's (0 without E2E_NOW); measured once per worker. */
let offsetMs: number | undefined;

/** The server's "now": the instant tests reason from (today, N days ahead, someone's 17th birthday). */
export function serverNow(): Date {
  return new Date(Date.now() + (offsetMs ?? 0));
}

/** YYYY-MM-DD, N days after the server's now, on the UTC calendar. */
export const inDays = (n: number) => new Date(serverNow().getTime() + n * 86_400_000).toISOString().slice(0, 10);

/** A card expiry year that is in the future on any day the suite runs: five years after the server's. */
export const cardExpiryYear = () => serverNow().getUTCFullYear() + 5;

/** The same, as the two digits a renter types after "MM / ". */
export const cardExpiryYY = () => String(cardExpiryYear() % 100).padStart(2, '0');

export const test = base.extend<object, { server: E2eServer }>({
  // Each worker starts its own server (support/server.ts); every page and request of the worker's
  // tests goes to it.
  server: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const server = await startServer({ now: process.env.E2E_NOW, label: `w${workerInfo.parallelIndex}` });
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  page: async ({ page }, use) => {
    if (process.env.E2E_NOW) {
      if (offsetMs === undefined) {
        const sent = Date.now();
        const res = await page.request.get('/healthz');
        expect(res.ok(), 'the server answers its health check').toBe(true);
        const { time } = (await res.json()) as { time?: string };
        expect(time, 'the health check reports the server time (CLOCK_START)').toBeTruthy();
        offsetMs = Date.parse(time!) - Math.round((sent + Date.now()) / 2);
      }
      // The page's Date starts at the server's now and runs on; timers fire as usual.
      await page.clock.install({ time: serverNow() });
    }
    await use(page);
  },
});
