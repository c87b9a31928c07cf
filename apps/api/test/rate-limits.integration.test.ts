import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { pruneRateLimitWindows } from '../src/http/rate-limit-repository.ts';
import { SESSION_EXPIRES_HEADER } from '@ampere/domain/contract/first-screen';
import { TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

/** Decision 038: request limits held in the database, so every API process counts into the same windows. */
describe.each(engines())('request limits (%s)', (engine) => {
  let ctx: TestContext;
  let ipSeq = 0;
  let phoneSeq = 0;
  const nextIp = () => `10.7.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);
  const extraApps: FastifyInstance[] = [];

  beforeAll(async () => {
    // The defaults, not raised: these tests prove them.
    ctx = await createTestContext(engine, { seed: false, rateLimits: 'default' });
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await ctx?.close();
  });
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
  });

  /** A second API process on the same database (its own plugin instance, its own memory). */
  async function secondApp(env: Record<string, string> = {}) {
    const app = await buildApp({
      config: loadConfig({ SEED_DEMO: 'false', WEB_DIST: '/nonexistent', JOBS: 'off', ...env }),
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
    });
    await app.ready();
    extraApps.push(app);
    return app;
  }

  const sendCode = (from: string, app: FastifyInstance = ctx.app) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/auth/sms/send',
      payload: { phone: `+1615555${String(3000 + ++phoneSeq)}` },
      remoteAddress: from,
    });
  const events = (app: FastifyInstance, opts: { from?: string; headers?: Record<string, string> } = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/events',
      payload: { events: [{ name: 'search_performed' }] },
      remoteAddress: opts.from ?? '10.6.0.1',
      headers: opts.headers,
    });

  it('by default, one address may ask for 10 sign-in codes a minute; the 11th is a 429 saying how long to wait, with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 1; i <= 10; i++) expect((await sendCode(ip)).statusCode, `send ${i}`).toBe(200);
    ctx.clock.now = at(15_000);
    const refused = await sendCode(ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.json()).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many sign-in requests in a short time. Please wait 45 seconds and try again.',
    });
    // Another address is not held back by this one.
    expect((await sendCode(nextIp())).statusCode).toBe(200);
    // Once the minute is over, the address may ask again.
    ctx.clock.now = at(60_000);
    expect((await sendCode(ip)).statusCode).toBe(200);
  });

  it('two API processes on one database share the count', async () => {
    const other = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '4' });
    const mine = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '4' });
    const from = nextIp();
    for (const app of [mine, other, mine, other]) expect((await events(app, { from })).statusCode).toBe(202);
    const refused = await events(mine, { from });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json().message).toBe(
      'Too many analytics events in a short time. Please wait 60 seconds and try again.',
    );
    expect((await events(other, { from })).statusCode).toBe(429);
  });

  it('a signed-in renter is counted as themself, not by the address they share with others', async () => {
    const app = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '2' });
    const from = nextIp();
    const [ana, ben] = [await signInAs(ctx), await signInAs(ctx)];
    for (let i = 0; i < 2; i++) expect((await events(app, { from, headers: ana.headers })).statusCode).toBe(202);
    expect((await events(app, { from, headers: ana.headers })).statusCode).toBe(429);
    // Ben, behind the same address, has his own two; and the address, signed out, its own.
    expect((await events(app, { from, headers: ben.headers })).statusCode).toBe(202);
    expect((await events(app, { from })).statusCode).toBe(202);
  });

  it("a renter's requests sent at once are each counted once", async () => {
    const app = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '3' });
    const ana = await signInAs(ctx);
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => events(app, { from: nextIp(), headers: ana.headers })),
    );
    expect(sent.map((r) => r.statusCode).sort()).toEqual([202, 202, 202, 429, 429]);
  });

  it('behind a trusted proxy, each renter is counted by their forwarded address; without trust, X-Forwarded-For changes nothing', async () => {
    const trusting = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '1', TRUST_PROXY: '1' });
    const proxy = nextIp();
    const viaProxy = (client: string) => events(trusting, { from: proxy, headers: { 'x-forwarded-for': client } });
    expect((await viaProxy('203.0.113.7')).statusCode).toBe(202);
    expect((await viaProxy('203.0.113.8')).statusCode).toBe(202);
    expect((await viaProxy('203.0.113.7')).statusCode).toBe(429);

    const untrusting = await secondApp({ RATE_LIMIT_EVENTS_PER_MINUTE: '1' });
    const direct = nextIp();
    expect(
      (await events(untrusting, { from: direct, headers: { 'x-forwarded-for': '198.51.100.1' } })).statusCode,
    ).toBe(202);
    expect(
      (await events(untrusting, { from: direct, headers: { 'x-forwarded-for': '198.51.100.2' } })).statusCode,
    ).toBe(429);
  });

  it('analytics events take at most 32 KB a call; a bigger body is refused before it is read', async () => {
    const big = { events: [{ name: 'search_performed', properties: { blob: 'x'.repeat(40 * 1024) } }] };
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/events', payload: big, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'INVALID_INPUT' });
  });

  it("renters' writes are limited per route, generously: 60 a minute by default", async () => {
    const renter = await signInAs(ctx);
    const updateProfile = (app: FastifyInstance) =>
      app.inject({
        method: 'PATCH',
        url: '/api/v1/users/profile',
        payload: { first_name: 'Ana' },
        headers: renter.headers,
        remoteAddress: nextIp(),
      });
    for (let i = 1; i <= 60; i++) expect((await updateProfile(ctx.app)).statusCode, `write ${i}`).toBe(200);
    const refused = await updateProfile(ctx.app);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many requests in a short time. Please wait 60 seconds and try again.');
    ctx.clock.now = at(20_000);
    const later = await updateProfile(ctx.app);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('40');
    expect(later.json()).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests in a short time. Please wait 40 seconds and try again.',
    });
    // The window is the route's, kept under the renter, whichever address they write from.
    expect(await windows(`PATCH /api/v1/users/profile renter:${renter.userId}`)).toEqual([
      { key: `PATCH /api/v1/users/profile renter:${renter.userId}`, hits: 62 },
    ]);
    ctx.clock.now = at(60_000);
    expect((await updateProfile(ctx.app)).statusCode).toBe(200);
  });

  /** The windows whose keys start with `prefix`, and their hits. */
  const windows = async (prefix: string) =>
    (
      await ctx.handle.db
        .selectFrom('rate_limit_windows')
        .select(['key', 'hits'])
        .where('key', 'like', `${prefix}%`)
        .orderBy('key')
        .execute()
    ).map((w) => ({ key: w.key, hits: Number(w.hits) }));

  it('a signed-in write renews the session it counts under, as any use does (decision 072)', async () => {
    const renter = await signInAs(ctx);
    ctx.clock.now = at(60 * 60_000);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/profile',
      payload: { first_name: 'Ana' },
      headers: renter.headers,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    const end = at(60 * 60_000 + 1440 * 60_000).toISOString();
    expect(res.headers[SESSION_EXPIRES_HEADER]).toBe(end);
    const stored = await ctx.handle.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('user_id', '=', renter.userId)
      .executeTakeFirstOrThrow();
    expect(new Date(stored.expires_at).toISOString()).toBe(end);
    expect(await windows(`PATCH /api/v1/users/profile renter:${renter.userId}`)).toHaveLength(1);
  });

  it('a write with a session signed out or run out is a 401, counted under the address and not the renter', async () => {
    const write = (headers: Record<string, string>, from: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/users/profile',
        payload: { first_name: 'Ana' },
        headers,
        remoteAddress: from,
      });
    const expired = {
      statusCode: 401,
      code: 'UNAUTHORIZED',
      message: 'Your session has expired. Please sign in again.',
    };

    // Signed out between two writes: the next one is refused at once.
    const revoked = await signInAs(ctx);
    expect((await write(revoked.headers, nextIp())).statusCode).toBe(200);
    await ctx.handle.db
      .updateTable('sessions')
      .set({ revoked_at: ctx.clock.now })
      .where('user_id', '=', revoked.userId)
      .execute();
    const fromRevoked = nextIp();
    const refused = await write(revoked.headers, fromRevoked);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject(expired);
    expect(await windows(`PATCH /api/v1/users/profile renter:${revoked.userId}`)).toEqual([
      { key: `PATCH /api/v1/users/profile renter:${revoked.userId}`, hits: 1 },
    ]);
    expect(await windows(`PATCH /api/v1/users/profile ip:${fromRevoked}`)).toEqual([
      { key: `PATCH /api/v1/users/profile ip:${fromRevoked}`, hits: 1 },
    ]);

    // Unused for a whole day: ended.
    const idle = await signInAs(ctx);
    ctx.clock.now = at(1441 * 60_000);
    const fromIdle = nextIp();
    const late = await write(idle.headers, fromIdle);
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject(expired);
    expect(await windows(`PATCH /api/v1/users/profile renter:${idle.userId}`)).toEqual([]);
    expect(await windows(`PATCH /api/v1/users/profile ip:${fromIdle}`)).toEqual([
      { key: `PATCH /api/v1/users/profile ip:${fromIdle}`, hits: 1 },
    ]);
  });

  it('windows that have ended are pruned', async () => {
    await sendCode(nextIp());
    const count = async () =>
      Number(
        (
          await ctx.handle.db
            .selectFrom('rate_limit_windows')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(await pruneRateLimitWindows(ctx.handle.db, at(30_000))).toBe(0);
    // The tests above leave windows opened as late as a day in: a week on, every one has ended.
    expect(await pruneRateLimitWindows(ctx.handle.db, at(7 * 86_400_000))).toBe(before);
    expect(await count()).toBe(0);
  });
});
