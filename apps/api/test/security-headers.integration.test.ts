import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwinIdentityProvider } from '../src/features/identity/twin.ts';
import { TwinInsuranceProvider } from '../src/features/insurance/twin.ts';
import { TwinOutbox } from '../src/features/twins/outbox.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

const ONE_YEAR = 31_536_000;
const ASSET = 'assets/index-B4dC0ffe.js';

/** A built web app in miniature: the shell, one hashed asset and one file kept by name. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script type="module" src="/${ASSET}"></script></head><body><div id="root"></div></body></html>`,
  );
  fs.writeFileSync(path.join(dir, ASSET), 'console.log("app");');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

/** The policy as directive -> sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The headers every response carries, whatever it is. */
function expectBaseline(res: LightMyRequestResponse, framedBy: "'none'" | "'self'" = "'none'") {
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual([framedBy]);
  expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
  const hsts = String(res.headers['strict-transport-security']);
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(ONE_YEAR);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(String(res.headers['permissions-policy'])).toContain('microphone=()');
  expect(res.headers['x-frame-options']).toBe(framedBy === "'self'" ? 'SAMEORIGIN' : 'DENY');
  return policy;
}

describe.each(engines())('security headers and caching (%s)', (engine) => {
  let ctx: TestContext;
  let identity: TwinIdentityProvider;
  let insurance: TwinInsuranceProvider;
  let webDist: string;
  beforeAll(async () => {
    webDist = fakeWebDist();
    ctx = await createTestContext(engine, {
      seed: false,
      env: { WEB_DIST: webDist },
      providers: (db, clock) => {
        identity = new TwinIdentityProvider(
          db,
          clock,
          new TwinOutbox(db, 'identity', 'identity-twin-secret-for-tests'),
        );
        insurance = new TwinInsuranceProvider(
          db,
          clock,
          new TwinOutbox(db, 'insurance', 'insurance-twin-secret-for-tests'),
        );
        return { identity, insurance };
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('the HTML shell: the policy, the other headers, and revalidated on every visit', async () => {
    const res = await ctx.app.inject({ url: '/search?city=nashville' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    const policy = expectBaseline(res);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    // The map's workers and images.
    expect(policy.get('worker-src')).toContain('blob:');
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(['data:', 'blob:']));
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('an API answer carries the same headers', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/config' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expectBaseline(res);
    const missing = await ctx.app.inject({ url: '/api/v1/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expectBaseline(missing);
  });

  it('a hashed asset is cached for a year and never revalidated; a file kept by name is revalidated', async () => {
    const asset = await ctx.app.inject({ url: `/${ASSET}` });
    expect(asset.statusCode).toBe(200);
    const cache = String(asset.headers['cache-control']);
    expect(cache).toContain('immutable');
    expect(Number(/max-age=(\d+)/.exec(cache)?.[1])).toBeGreaterThanOrEqual(ONE_YEAR);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    const icon = await ctx.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    const shell = await ctx.app.inject({ url: '/index.html' });
    expect(shell.headers['cache-control']).toBe('no-cache');
  });

  it('the built-in twins’ pages may be framed by our own pages only, and run no inline script', async () => {
    const session = await identity.createSession({ vendorData: 'headers-test', firstName: null, lastName: null });
    const ignition = await insurance.startIgnition({ userRef: 'headers-test' });
    for (const url of [session.url, ignition.ignitionUri]) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(200);
      const policy = expectBaseline(res, "'self'");
      expect(policy.get('script-src')).toEqual(["'self'"]);
      // Every script on the page is a file on our origin, which 'self' allows.
      const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) expect(attrs).toMatch(/src="\/twin\//);
    }
    const script = await ctx.app.inject({ url: '/twin/assets/twin.js' });
    expect(script.statusCode).toBe(200);
  });

  it('without Stripe, no Stripe origin is allowed anywhere', async () => {
    const res = await ctx.app.inject({ url: '/' });
    expect(res.headers['content-security-policy']).not.toContain('stripe.com');
  });
});

describe('with Stripe and an outside map style configured', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('pglite', {
      seed: false,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_headers',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_headers',
        MAP_STYLE_URL: 'https://tiles.example.com/styles/streets.json',
      },
    });
  });
  afterAll(() => ctx.close());

  it('allows Stripe.js, its frames and API, and the map style’s origin, and nothing looser', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/config' });
    const policy = expectBaseline(res);
    expect(policy.get('script-src')).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']));
    expect(policy.get('frame-src')).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']),
    );
    expect(policy.get('connect-src')).toEqual(
      expect.arrayContaining(['https://api.stripe.com', 'https://tiles.example.com']),
    );
    expect(policy.get('img-src')).toContain('https://tiles.example.com');
    expect(policy.get('script-src')).not.toContain('https://tiles.example.com');
    expect(String(res.headers['permissions-policy'])).toContain('payment=(self "https://js.stripe.com")');
  });
});
