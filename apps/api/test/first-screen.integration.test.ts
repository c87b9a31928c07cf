import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carAtNewLot } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/**
 * The web app's real first-screen module, built as `npm run build` builds it, beside an index.html
 * in the build's form (the browser's bundle itself is not needed to draw a screen).
 */
let base: string;
beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-first-screen-'));
  const build = spawnSync(
    'npm',
    [
      'run',
      'build:server',
      '--workspace',
      'apps/web',
      '--',
      '--outDir',
      path.join(base, 'dist-server'),
      '--logLevel',
      'warn',
    ],
    // A production build, as `npm run build` makes (the test runner's NODE_ENV would make a development one).
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (build.status !== 0) throw new Error(`the first-screen build failed:\n${build.stderr || build.stdout}`);
  fs.mkdirSync(path.join(base, 'dist'));
  fs.writeFileSync(
    path.join(base, 'dist', 'index.html'),
    [
      '<!doctype html><html lang="en"><head><title>Ampere</title>',
      '<script type="module" crossorigin src="/assets/index-Aa11.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/framework-Bb22.js">',
      '</head><body><div id="root"></div></body></html>',
    ].join('\n'),
  );
}, 150_000);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** The state the page carries for the browser to take the screen over, or null when none was drawn. */
function stateOf(
  html: string,
): { wide: boolean; session: { user: { id: string } } | null; queries: { queries: { queryKey: unknown[] }[] } } | null {
  const json = /<script type="application\/json" id="first-screen-state">(.*?)<\/script>/s.exec(html)?.[1];
  return json ? JSON.parse(json) : null;
}

/** The page's HTML without the markers React leaves between adjacent pieces of text. */
const drawnText = (html: string) => html.replace(/<!-- -->/g, '');

describe.each(engines())('first screens drawn on the server (%s)', (engine) => {
  let ctx: TestContext;
  let car: Awaited<ReturnType<typeof carAtNewLot>>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: { WEB_DIST: path.join(base, 'dist') } });
    car = await carAtNewLot(ctx.handle.db, null);
    // A lot whose name would end the page's script element, were the data not escaped.
    await ctx.handle.db
      .updateTable('locations')
      .set({ name: 'Bay </script><script>alert(1)</script> Lot' })
      .where('id', '=', car.locationId)
      .execute();
  });
  afterAll(() => ctx.close());

  it("a car's page arrives showing the car, its title set, its scripts started after the screen is painted", async () => {
    const res = await ctx.app.inject({ url: `/vehicle/${car.vin}`, headers: { 'user-agent': PHONE } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain(`<title>Vehicle ${car.vin} | Ampere</title>`);
    const root = /<div id="root">(.*?)<\/div><script type="application\/json"/s.exec(html)?.[1] ?? '';
    expect(drawnText(root)).toMatch(/<h1[^>]*>2024 [^<]+<\/h1>/);
    expect(root).toContain('Bay &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; Lot');
    // The car's photo is in the drawn screen and fetched first, named once (not again by the server's own preload).
    expect(root).toMatch(/<img [^>]*fetchpriority="high"/i);
    expect(html.match(/<link rel="preload" as="image"[^>]*fetchpriority="high"/gi)).toHaveLength(1);
    // The data for the browser cannot close its element early: only the one script element ends.
    expect(html.match(/<\/script>/g)?.length).toBe(2);
    const state = stateOf(html);
    expect(state?.wide).toBe(false);
    expect(state?.queries.queries.map((q) => q.queryKey[0])).toContain('vehicles');
    // The app's scripts are handed to the boot script rather than loaded by the head at once.
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain(
      '<script defer src="/first-screen.js" data-entry="/assets/index-Aa11.js" data-preload="/assets/framework-Bb22.js"></script>',
    );
  });

  it('a desktop browser gets the wide layout; the layout the browser last reported wins over the guess', async () => {
    const desktop = await ctx.app.inject({ url: '/login', headers: { 'user-agent': DESKTOP } });
    expect(stateOf(desktop.body)?.wide).toBe(true);
    expect(desktop.body).toContain('<title>Login | Ampere</title>');
    expect(desktop.body).toContain('Sign in');
    const told = await ctx.app.inject({
      url: '/login',
      headers: { 'user-agent': DESKTOP, cookie: 'theme=dark; ampere_layout=narrow' },
    });
    expect(stateOf(told.body)?.wide).toBe(false);
  });

  it('a signed-in browser, a page behind sign-in and a car that does not exist get the page to draw themselves', async () => {
    const signedIn = await ctx.app.inject({
      url: `/vehicle/${car.vin}`,
      headers: { cookie: 'ampere_signed_in=1' },
    });
    const trips = await ctx.app.inject({ url: '/trips' });
    const missing = await ctx.app.inject({ url: '/vehicle/5YJ3E1EA0NF999999' });
    for (const res of [signedIn, trips, missing]) {
      expect(res.statusCode).toBe(200);
      expect(stateOf(res.body)).toBeNull();
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain('<script type="module" crossorigin src="/assets/index-Aa11.js"></script>');
    }
  });

  it("a signed-in renter's trip is drawn for them alone, without their token in the page", async () => {
    const renter = await signInAs(ctx);
    const booked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: renter.headers,
      payload: {
        vehicleVin: car.vin,
        pickupDate: '2026-12-20',
        returnDate: '2026-12-22',
        pickupTime: '10:00',
        returnTime: '10:00',
        addonIds: [],
        vehicleTimezone: 'America/Chicago',
      },
    });
    expect(booked.statusCode).toBe(201);
    const tripId = (booked.json() as { reservation: { platform_id: string } }).reservation.platform_id;
    const asRenter = (token: string, marked = true) => ({
      cookie: `${marked ? 'ampere_signed_in=1; ' : ''}ampere_session=${token}`,
    });

    const trip = await ctx.app.inject({ url: `/trip/${tripId}`, headers: asRenter(renter.token) });
    expect(trip.body).toContain(`<title>My Trip ${tripId} | Ampere</title>`);
    expect(drawnText(trip.body)).toContain(`Trip ID ${tripId}`);
    expect(stateOf(trip.body)?.session?.user.id).toBe(renter.userId);
    expect(trip.body).not.toContain(renter.token);
    expect(String(trip.headers['cache-control'])).toBe('private, no-cache');
    const trips = await ctx.app.inject({ url: '/trips', headers: asRenter(renter.token) });
    expect(trips.body).toContain('<title>My Trips | Ampere</title>');
    expect(trips.body).toContain(tripId);

    // Another renter, a session that is not one, and a browser that has signed out get nothing drawn of it.
    const other = await signInAs(ctx);
    for (const headers of [asRenter(other.token), asRenter('not-a-session'), asRenter(renter.token, false)]) {
      const res = await ctx.app.inject({ url: `/trip/${tripId}`, headers });
      expect(res.statusCode).toBe(200);
      expect(stateOf(res.body)).toBeNull();
      expect(drawnText(res.body)).not.toContain(`Trip ID ${tripId}`);
    }
    // Signed out in the browser, a car's page is drawn signed out whatever cookie is left over.
    const car2 = await ctx.app.inject({ url: `/vehicle/${car.vin}`, headers: asRenter(renter.token, false) });
    expect(stateOf(car2.body)?.session).toBeNull();
  });

  it('pages come compressed, vary with the cookie and browser, and answer HEAD', async () => {
    const res = await ctx.app.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/cookie/);
    expect(String(res.headers.vary)).toMatch(/user-agent/);
    const head = await ctx.app.inject({ method: 'HEAD', url: '/search' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
    const api = await ctx.app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
