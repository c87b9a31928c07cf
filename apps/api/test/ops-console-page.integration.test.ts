import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from './harness.ts';

/** A console build of two files: its page and one hashed asset. */
function fakeOpsDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-ops-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Console</title><script type="module" src="/ops/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console");');
  return dir;
}

/** The console's build under /ops (decision 082): its page for every path under it, its assets kept a year. */
describe('the operator console’s pages', () => {
  let ctx: TestContext;
  let opsDist: string;
  beforeAll(async () => {
    opsDist = fakeOpsDist();
    ctx = await createTestContext('pglite', { seed: false, env: { OPS_DIST: opsDist } });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(opsDist, { recursive: true, force: true });
  });

  it('answers /ops and any deep link under it with the console’s page, with the app’s security headers', async () => {
    for (const url of ['/ops', '/ops/', '/ops/staff', '/ops/audit?action=staff.invite', '/ops/fleet/cars/123']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('/ops/assets/index-abc123.js');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves its hashed assets for a year, and a missing one is a 404, not the page', async () => {
    const asset = await ctx.app.inject({ url: '/ops/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await ctx.app.inject({ url: '/ops/assets/gone-000.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('says to build the console when it is not built', async () => {
    const bare = await createTestContext('pglite', { seed: false, env: { OPS_DIST: '/nonexistent' } });
    try {
      const res = await bare.app.inject({ url: '/ops/staff' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toMatch(/npm run build/);
    } finally {
      await bare.close();
    }
  });
});
