import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, engines } from './harness.ts';

const ASSET = 'assets/framework-Ab12Cd34.js';
// Big enough that the on-the-fly compression would act too, so the test tells the two apart.
const SOURCE = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i} of the shared chunk`))};\n`;

/** A build as the web app's makes it: each text asset with its .br and .gz copies beside it. */
function builtWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script type="module" src="/${ASSET}"></script></head><body><div id="root"></div></body></html>`,
  );
  fs.writeFileSync(path.join(dir, ASSET), SOURCE);
  fs.writeFileSync(path.join(dir, `${ASSET}.br`), brotliCompressSync(SOURCE));
  fs.writeFileSync(path.join(dir, `${ASSET}.gz`), gzipSync(SOURCE, { level: 9 }));
  fs.writeFileSync(
    path.join(dir, 'page-preloads.json'),
    JSON.stringify([
      { pattern: '^/login/?$', js: ['/assets/login-page-Zz99.js'], css: ['/assets/login-page-Yy88.css'] },
      { pattern: '^/vehicle/[^/]+/?$', js: ['/assets/vehicle-page-Xx77.js', '/assets/Alert-Ww66.js'], css: [] },
    ]),
  );
  return dir;
}

describe.each(engines())('precompressed web assets (%s)', (engine) => {
  let ctx: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = builtWebDist();
    ctx = await createTestContext(engine, { seed: false, env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it("a browser that takes Brotli gets the build's Brotli copy, as JavaScript, cached for a year", async () => {
    const res = await ctx.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.rawPayload.equals(fs.readFileSync(path.join(webDist, `${ASSET}.br`)))).toBe(true);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SOURCE);
    expect(String(res.headers['cache-control'])).toContain('immutable');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('gzip only: the gzip copy; no compression asked: the plain file', async () => {
    const gz = await ctx.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SOURCE);
    const plain = await ctx.app.inject({ url: `/${ASSET}`, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SOURCE);
    expect(String(plain.headers['cache-control'])).toContain('immutable');
  });

  it("a page's HTML names its own code for the browser to fetch at once; other pages' HTML does not", async () => {
    const vehicle = await ctx.app.inject({ url: '/vehicle/5YJ3E1EA7NF000001?pickupDate=2030-01-02' });
    expect(vehicle.statusCode).toBe(200);
    expect(vehicle.headers['content-type']).toContain('text/html');
    expect(vehicle.body).toContain('<link rel="modulepreload" crossorigin href="/assets/vehicle-page-Xx77.js">');
    expect(vehicle.body).toContain('<link rel="modulepreload" crossorigin href="/assets/Alert-Ww66.js">');
    expect(vehicle.body).not.toContain('login-page');
    expect(vehicle.body.indexOf('vehicle-page-Xx77.js')).toBeLessThan(vehicle.body.indexOf('</head>'));

    const login = await ctx.app.inject({ url: '/login' });
    expect(login.body).toContain('<link rel="stylesheet" crossorigin href="/assets/login-page-Yy88.css">');
    expect(login.body).toContain('<link rel="modulepreload" crossorigin href="/assets/login-page-Zz99.js">');

    const other = await ctx.app.inject({ url: '/policies' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(fs.readFileSync(path.join(webDist, 'index.html'), 'utf8'));
    expect(String(other.headers['cache-control'])).toBe('private, no-cache');
  });
});

describe.each(engines())("a car page's HTML names its main photo (%s)", (engine) => {
  let ctx: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = builtWebDist();
    ctx = await createTestContext(engine, { env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('the photo the page shows first is fetched with the HTML; an unknown or malformed VIN gets the page without it', async () => {
    const car = await ctx.handle.db
      .selectFrom('vehicles as v')
      .innerJoin('model_images as i', (j) => j.onRef('i.model_id', '=', 'v.model_id').onRef('i.color', '=', 'v.color'))
      .select(['v.vin', 'i.image_url'])
      .where('i.view', '=', 'MONEYSHOT')
      .executeTakeFirstOrThrow();
    const page = await ctx.app.inject({ url: `/vehicle/${car.vin.toLowerCase()}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<link rel="preload" as="image" href="${car.image_url}" fetchpriority="high">`);
    expect(page.body).toContain('vehicle-page-Xx77.js');

    for (const url of ['/vehicle/NOSUCHVIN123', '/vehicle/5YJ3%27%3B--', '/vehicle/a-b']) {
      const other = await ctx.app.inject({ url });
      expect(other.statusCode, url).toBe(200);
      expect(other.body, url).not.toContain('as="image"');
    }
  });

  it("an address no page claims gets the app's not-found page with HTTP 404; a page's address, 200", async () => {
    for (const url of ['/serch', '/trip/AB-12-CD/unknown', '/trips/AB-12-CD', '/vehicle']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('<div id="root">');
    }
    for (const url of ['/', '/search?city=Austin', '/trip/AB-12-CD/pay', '/policies/']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
    }
    // An unknown API address is still the API's JSON 404.
    const api = await ctx.app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NOT_FOUND');
  });
});
