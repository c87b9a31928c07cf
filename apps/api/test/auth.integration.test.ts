import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createSmsSender } from '../src/features/auth/create-sms-sender.ts';
import type { SmsSender } from '../src/features/auth/sms-sender.ts';
import { mapTwilioError } from '../src/features/auth/twilio-sender.ts';
import { AppError } from '../src/http/errors.ts';
import { hashToken } from '../src/http/session.ts';
import { RAISED_RATE_LIMITS, TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';

const MINUTE = 60_000;
const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);

const WRONG = 'That code is not right. Check the text message and try again.';
const EXPIRED = 'That code has expired (codes last 10 minutes). Ask for a new code.';
const TOO_MANY = 'That code was tried too many times (5 wrong tries). Ask for a new code.';

const TWILIO_ENV = {
  SEED_DEMO: 'false',
  WEB_DIST: '/nonexistent',
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'test-token',
  TWILIO_FROM_NUMBER: '+16155550100',
};

/** A sender that keeps what it would have texted, or fails the way it is told to. */
function recordingSender(
  kind: SmsSender['kind'] = 'console',
  fail?: () => Error,
): SmsSender & { sent: { to: string; body: string }[] } {
  const sent: { to: string; body: string }[] = [];
  return {
    kind,
    sent,
    async send(to, body) {
      if (fail) throw fail();
      sent.push({ to, body });
    },
  };
}

describe.each(engines())('sign-in by text message on %s', (engine) => {
  let ctx: TestContext;
  let extraApps: FastifyInstance[] = [];
  let phoneSeq = 0;
  let ipSeq = 0;
  /** Each test owns its numbers and its network address. */
  const nextPhone = () => `+1615555${String(2000 + ++phoneSeq)}`;
  const nextIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  let ip = '10.9.9.9';

  const send = (phone: string, opts: { app?: FastifyInstance; from?: string } = {}) =>
    (opts.app ?? ctx.app).inject({
      method: 'POST',
      url: '/api/v1/auth/sms/send',
      payload: { phone },
      remoteAddress: opts.from ?? ip,
    });
  const verify = (phone: string, code: string, opts: { from?: string; userAgent?: string } = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sms/verify',
      payload: { phone, code },
      remoteAddress: opts.from ?? ip,
      headers: opts.userAgent ? { 'user-agent': opts.userAgent } : {},
    });
  const outbox = async (phone: string) => {
    const res = await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(phone)}` });
    expect(res.statusCode).toBe(200);
    return res.json().messages as { to: string; body: string; sent_at: string }[];
  };
  const latestCode = async (phone: string) => /code is (\d{6})/.exec((await outbox(phone))[0]!.body)![1]!;
  /** The page's 30-second wait before another code to the same number, which the server holds too. */
  const waitOutCooldown = () => void (ctx.clock.now = new Date(ctx.clock.now.getTime() + 30_000));
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const login = async (phone: string) => {
    expect((await send(phone)).statusCode).toBe(200);
    const res = await verify(phone, await latestCode(phone));
    expect(res.statusCode).toBe(200);
    return res.json() as {
      session_token: string;
      session_expires_at: string;
      user: { id: string; stytch_user_id: string; phone: string; created_at: string };
    };
  };
  const me = (token?: string) =>
    ctx.app.inject({ url: '/api/v1/users', headers: token === undefined ? {} : { stytch_auth: token } });
  const liveCodes = (phone: string) =>
    ctx.handle.db
      .selectFrom('login_codes')
      .select(['id', 'code_hash', 'failed_attempts', 'consumed_at', 'invalidated_at'])
      .where('phone', '=', phone)
      .execute();

  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
    // The console sender writes each message to the log; keep the test output readable.
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    extraApps = [];
    vi.restoreAllMocks();
    await ctx?.close();
  });
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
    ip = nextIp();
  });

  /** Another app on the same database, with its own configuration or sender. */
  async function appWith(opts: { env?: Record<string, string>; sms?: SmsSender }) {
    const config = loadConfig({ SEED_DEMO: 'false', WEB_DIST: '/nonexistent', ...RAISED_RATE_LIMITS, ...opts.env });
    const app = await buildApp({
      config,
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
      ...(opts.sms ? { sms: opts.sms } : {}),
    });
    await app.ready();
    extraApps.push(app);
    return app;
  }

  describe('sending a code', () => {
    it('texts a 6-digit code with the product name and its 10-minute life, and answers with the normalised number', async () => {
      const phone = nextPhone();
      const res = await send(`(615) 555-${phone.slice(-4)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ phone, expires_in_minutes: 10, resend_after_seconds: 30 });
      const [message] = await outbox(phone);
      expect(message!.to).toBe(phone);
      expect(message!.body).toMatch(/^Your Ampere code is \d{6}\. It expires in 10 minutes\. Never share it\.$/);
      expect(message!.sent_at).toBe(TEST_NOW.toISOString());
    });

    it('stores the code only as a hash', async () => {
      const phone = nextPhone();
      await send(phone);
      const code = await latestCode(phone);
      const [row] = await liveCodes(phone);
      expect(row!.code_hash).not.toContain(code);
      expect(row!.code_hash.length).toBeGreaterThan(40);
    });

    it('refuses an invalid number, naming the phone field and showing the expected form', async () => {
      for (const phone of ['12345', '(123) 456-7890', 'call me']) {
        const res = await send(phone);
        expect(res.statusCode, phone).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'INVALID_INPUT',
          field: 'phone',
          message: 'Enter a valid mobile phone number, e.g. (615) 555-0123.',
        });
      }
      const missing = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/send', payload: {} });
      expect(missing.json()).toMatchObject({ statusCode: 400, field: 'phone', message: 'phone is required' });
    });

    it('refuses a number from a country we do not text, naming the country, and sends nothing', async () => {
      const res = await send('+44 20 7946 0958');
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('phone');
      expect(res.json().message).toContain('United Kingdom');
      const db = ctx.handle.db;
      expect(await db.selectFrom('sms_outbox').select('id').where('to_phone', '=', '+442079460958').execute()).toEqual(
        [],
      );
      expect(await db.selectFrom('login_codes').select('id').where('phone', '=', '+442079460958').execute()).toEqual(
        [],
      );
    });

    it('answers a known and an unknown number byte for byte alike (apart from the number itself)', async () => {
      const known = nextPhone();
      await login(known);
      ctx.clock.now = at(5 * MINUTE);
      const unknown = nextPhone();
      const a = await send(known);
      const b = await send(unknown);
      expect(a.statusCode).toBe(b.statusCode);
      expect(a.headers['content-length']).toBe(b.headers['content-length']);
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
      expect(a.body.replace(known, 'PHONE')).toBe(b.body.replace(unknown, 'PHONE'));
    });

    it('a new code replaces the previous one', async () => {
      const phone = nextPhone();
      await send(phone);
      const first = await latestCode(phone);
      let second = first;
      while (second === first) {
        waitOutCooldown();
        await send(phone);
        second = await latestCode(phone);
      }
      expect((await verify(phone, first)).json()).toMatchObject({ statusCode: 400, field: 'code', message: WRONG });
      expect((await verify(phone, second)).statusCode).toBe(200);
    });

    it('sends at most 5 codes an hour to one number, says when to try again, and allows one again after the hour', async () => {
      const phone = nextPhone();
      for (let i = 1; i <= 5; i++) {
        ctx.clock.now = at(i * MINUTE);
        const res = await send(phone, { from: nextIp() });
        expect(res.statusCode, `send ${i}`).toBe(200);
        // After the fifth, the next is an hour after the first.
        expect(res.json().resend_after_seconds).toBe(i < 5 ? 30 : 56 * 60);
      }
      ctx.clock.now = at(6 * MINUTE);
      const sixth = await send(phone, { from: nextIp() });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toMatchObject({
        code: 'RATE_LIMITED',
        field: 'phone',
        message: 'Too many codes have been sent to this number. Try again in 55 minutes.',
      });
      ctx.clock.now = at(61 * MINUTE - 1000);
      expect((await send(phone)).json().message).toBe(
        'Too many codes have been sent to this number. Try again in 1 minute.',
      );
      ctx.clock.now = at(61 * MINUTE);
      expect((await send(phone)).statusCode).toBe(200);
      expect(await outbox(phone)).toHaveLength(6);
    });

    it('limits codes asked for from one network address, whatever the numbers', async () => {
      const sms = recordingSender();
      const app = await appWith({ env: { SMS_SENDS_PER_IP_PER_HOUR: '3' }, sms });
      for (let i = 0; i < 3; i++) expect((await send(nextPhone(), { app })).statusCode).toBe(200);
      const refused = await send(nextPhone(), { app });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(
        'Too many codes have been asked for from your network. Try again in 60 minutes.',
      );
      expect(sms.sent).toHaveLength(3);
      expect((await send(nextPhone(), { app, from: nextIp() })).statusCode).toBe(200);
      ctx.clock.now = at(60 * MINUTE);
      expect((await send(nextPhone(), { app })).statusCode).toBe(200);
    });

    it('another code to the same number within 30 seconds is a 429 saying how long to wait, with Retry-After', async () => {
      const phone = nextPhone();
      expect((await send(phone)).statusCode).toBe(200);
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 12_500);
      const early = await send(phone, { from: nextIp() });
      expect(early.statusCode).toBe(429);
      expect(early.headers['retry-after']).toBe('18');
      expect(early.json()).toEqual({
        statusCode: 429,
        code: 'RATE_LIMITED',
        field: 'phone',
        message: 'A code was just sent to this number. You can ask for another in 18 seconds.',
      });
      expect(await outbox(phone)).toHaveLength(1);
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 17_500);
      expect((await send(phone)).statusCode).toBe(200);
      expect(await outbox(phone)).toHaveLength(2);
    });

    it('simultaneous sends to one number send one code; the rest wait out the 30 seconds', async () => {
      const phone = nextPhone();
      const results = await Promise.all(Array.from({ length: 8 }, () => send(phone, { from: nextIp() })));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 429)).toHaveLength(7);
      expect((await liveCodes(phone)).filter((c) => !c.invalidated_at)).toHaveLength(1);
      expect(await outbox(phone)).toHaveLength(1);
    });
  });

  describe('when the text cannot be sent', () => {
    it('a provider outage is a 503 saying to try later; the code is dead and the send still counts', async () => {
      const sms = recordingSender('twilio', () =>
        mapTwilioError(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })),
      );
      const app = await appWith({ sms });
      const phone = nextPhone();
      const res = await send(phone, { app });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        statusCode: 503,
        code: 'UNAVAILABLE',
        message: 'We couldn’t send the text message just now. Please try again in a few minutes.',
      });
      const codes = await liveCodes(phone);
      expect(codes).toHaveLength(1);
      expect(codes[0]!.invalidated_at).not.toBeNull();
      const counted = await ctx.handle.db
        .selectFrom('rate_events')
        .select('id')
        .where('bucket', '=', 'sms_phone')
        .where('key', '=', phone)
        .execute();
      expect(counted).toHaveLength(1);
    });

    it('any other failure of a sender is also a 503 that leaks nothing', async () => {
      const app = await appWith({ sms: recordingSender('console', () => new Error('database password is hunter2')) });
      const res = await send(nextPhone(), { app });
      expect(res.statusCode).toBe(503);
      expect(res.body).not.toContain('hunter2');
    });

    it('a number that opted out is told how to opt back in (422 on phone)', async () => {
      const app = await appWith({
        sms: recordingSender('twilio', () =>
          mapTwilioError({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' }),
        ),
      });
      const res = await send(nextPhone(), { app });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ field: 'phone', message: expect.stringContaining('opted out') });
    });

    it('maps Twilio errors: the number is the renter’s to fix, everything else is a temporary failure', () => {
      const cases: [unknown, number, string | undefined][] = [
        [{ code: 21211, status: 400 }, 400, 'phone'],
        [{ code: 21614, status: 400 }, 422, 'phone'],
        [{ code: 21612, status: 400 }, 422, 'phone'],
        [{ code: 21408, status: 400 }, 422, 'phone'],
        [{ code: 21610, status: 400 }, 422, 'phone'],
        [{ code: 20003, status: 401 }, 503, undefined],
        [{ code: 20429, status: 429 }, 503, undefined],
        [new Error('socket hang up'), 503, undefined],
        ['weird', 503, undefined],
      ];
      for (const [err, status, field] of cases) {
        const mapped = mapTwilioError(err);
        expect(mapped, JSON.stringify(err)).toBeInstanceOf(AppError);
        expect(mapped.statusCode, JSON.stringify(err)).toBe(status);
        expect(mapped.field).toBe(field);
        expect(mapped.cause).toBe(err);
      }
      expect(mapTwilioError({ code: 21211 }).message).toBe('That phone number is not valid. Check it and try again.');
      expect(mapTwilioError({ code: 21614 }).message).toBe(
        'We can’t send a text message to that number. Use a mobile number that can receive texts.',
      );
    });
  });

  describe('checking a code', () => {
    it('a code is still good at 9 minutes 59 seconds', async () => {
      const phone = nextPhone();
      await send(phone);
      ctx.clock.now = at(10 * MINUTE - 1000);
      expect((await verify(phone, await latestCode(phone))).statusCode).toBe(200);
    });

    it('a code has expired at 10 minutes, with a message saying so and to ask for a new one', async () => {
      const phone = nextPhone();
      await send(phone);
      ctx.clock.now = at(10 * MINUTE);
      const res = await verify(phone, await latestCode(phone));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'code', message: EXPIRED });
    });

    it('after 5 wrong tries even the right code fails, telling the renter to ask for a new code', async () => {
      const phone = nextPhone();
      await send(phone);
      const code = await latestCode(phone);
      const wrong = wrongCodeFor(code);
      for (let i = 1; i <= 4; i++)
        expect((await verify(phone, wrong)).json()).toMatchObject({ statusCode: 400, field: 'code', message: WRONG });
      expect((await verify(phone, wrong)).json()).toMatchObject({
        statusCode: 400,
        field: 'code',
        message: 'That code is not right, and it has now been tried 5 times. Ask for a new code.',
      });
      const killed = await verify(phone, code);
      expect(killed.statusCode).toBe(429);
      expect(killed.json()).toMatchObject({ field: 'code', message: TOO_MANY });
      expect((await liveCodes(phone))[0]!.failed_attempts).toBe(5);
      // A new code works again.
      waitOutCooldown();
      await send(phone);
      expect((await verify(phone, await latestCode(phone))).statusCode).toBe(200);
    });

    it('a code works once', async () => {
      const phone = nextPhone();
      await send(phone);
      const code = await latestCode(phone);
      expect((await verify(phone, code)).statusCode).toBe(200);
      expect((await verify(phone, code)).json()).toMatchObject({ statusCode: 400, field: 'code', message: WRONG });
    });

    it('two simultaneous checks of the right code sign in only once', async () => {
      const phone = nextPhone();
      await send(phone);
      const code = await latestCode(phone);
      const results = await Promise.all([verify(phone, code), verify(phone, code), verify(phone, code)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
      expect(await ctx.handle.db.selectFrom('users').select('id').where('phone', '=', phone).execute()).toHaveLength(1);
    });

    it('a number that was never sent a code gets the wrong-code answer', async () => {
      expect((await verify(nextPhone(), '123456')).json()).toMatchObject({
        statusCode: 400,
        field: 'code',
        message: WRONG,
      });
    });

    it('a code that is not 6 digits, or a bad number, is refused naming the field', async () => {
      const phone = nextPhone();
      expect((await verify(phone, '12345')).json()).toMatchObject({
        statusCode: 400,
        field: 'code',
        message: 'code must be the 6 digits from the text message',
      });
      expect((await verify('555', '123456')).json()).toMatchObject({ statusCode: 400, field: 'phone' });
    });

    it('limits code checks from one network address (100 an hour)', async () => {
      const from = nextIp();
      const phone = nextPhone();
      for (let i = 0; i < 100; i++) expect((await verify(phone, '000000', { from })).statusCode).toBe(400);
      const refused = await verify(phone, '000000', { from });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe('Too many sign-in attempts from your network. Try again in 60 minutes.');
      expect((await verify(phone, '000000', { from: nextIp() })).statusCode).toBe(400);
    });
  });

  describe('sessions', () => {
    it('the first sign-in creates the renter; the next signs into the same account with a new session', async () => {
      const phone = nextPhone();
      const first = await login(phone);
      expect(first.user).toMatchObject({ phone, first_name: null, email: null, created_at: TEST_NOW.toISOString() });
      expect(first.user.stytch_user_id).toMatch(/^user-live-[0-9a-f-]{36}$/);
      expect(first.session_expires_at).toBe(at(1440 * MINUTE).toISOString());
      expect(Buffer.from(first.session_token, 'base64url').length).toBeGreaterThanOrEqual(32);

      ctx.clock.now = at(2 * MINUTE);
      const second = await login(`(615) 555-${phone.slice(-4)}`);
      expect(second.user.id).toBe(first.user.id);
      expect(second.user.stytch_user_id).toBe(first.user.stytch_user_id);
      expect(second.session_token).not.toBe(first.session_token);
      expect(await ctx.handle.db.selectFrom('users').select('id').where('phone', '=', phone).execute()).toHaveLength(1);
      // Both sessions work.
      expect((await me(first.session_token)).statusCode).toBe(200);
      expect((await me(second.session_token)).json().user.id).toBe(first.user.id);
    });

    it('keeps only a hash of the session token, with when it ends, the browser and the address', async () => {
      const phone = nextPhone();
      await send(phone);
      const res = await verify(phone, await latestCode(phone), { userAgent: 'Mozilla/5.0 (test)' });
      const { session_token, user } = res.json();
      const rows = await ctx.handle.db
        .selectFrom('sessions')
        .select(['token_hash', 'expires_at', 'user_agent', 'ip', 'created_at'])
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(hashToken(session_token));
      expect(rows[0]!.token_hash).not.toContain(session_token);
      expect(new Date(rows[0]!.expires_at).getTime() - new Date(rows[0]!.created_at).getTime()).toBe(1440 * MINUTE);
      expect(rows[0]!).toMatchObject({ user_agent: 'Mozilla/5.0 (test)', ip });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('signing out ends the session: it gets 401 afterwards, and signing out again is 401', async () => {
      const phone = nextPhone();
      expect((await send(phone)).statusCode).toBe(200);
      const signedIn = await verify(phone, await latestCode(phone));
      const { session_token, session_expires_at } = signedIn.json() as {
        session_token: string;
        session_expires_at: string;
      };
      // The session cookie for the browser's page requests (decision 046): scripts cannot read it,
      // and it ends with the session.
      expect(signedIn.headers['set-cookie']).toBe(
        `ampere_session=${session_token}; Expires=${new Date(session_expires_at).toUTCString()}; Path=/; HttpOnly; SameSite=Lax`,
      );
      // The cookie alone is no session to the API.
      expect(
        (await ctx.app.inject({ url: '/api/v1/users', headers: { cookie: `ampere_session=${session_token}` } }))
          .statusCode,
      ).toBe(401);
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { stytch_auth: session_token },
      });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ ok: true });
      expect(out.headers['set-cookie']).toBe('ampere_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
      expect((await me(session_token)).statusCode).toBe(401);
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { stytch_auth: session_token } }))
          .statusCode,
      ).toBe(401);
      expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(401);
    });

    it('signing out on one device leaves the other signed in', async () => {
      const phone = nextPhone();
      const a = await login(phone);
      waitOutCooldown();
      const b = await login(phone);
      await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { stytch_auth: a.session_token } });
      expect((await me(a.session_token)).statusCode).toBe(401);
      expect((await me(b.session_token)).statusCode).toBe(200);
    });

    it('a session unused for 1440 minutes has ended', async () => {
      const { session_token } = await login(nextPhone());
      ctx.clock.now = at(1441 * MINUTE);
      const res = await me(session_token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'Your session has expired. Please sign in again.',
      });
    });

    it('a session lasts 1440 minutes from its last use, and each answer says when it now ends (decision 072)', async () => {
      const { session_token, session_expires_at } = await login(nextPhone());
      expect(Date.parse(session_expires_at)).toBe(at(1440 * MINUTE).getTime());
      // Used the evening before pickup: it now runs a day from then.
      ctx.clock.now = at(1439 * MINUTE);
      const used = await me(session_token);
      expect(used.statusCode).toBe(200);
      expect(used.headers['session-expires-at']).toBe(at(2879 * MINUTE).toISOString());
      ctx.clock.now = at(1441 * MINUTE);
      expect((await me(session_token)).statusCode).toBe(200);
      ctx.clock.now = at(2879 * MINUTE - 1000);
      expect((await me(session_token)).statusCode).toBe(200);
      // Unused for a whole day after that last use: ended.
      ctx.clock.now = at((2879 + 1441) * MINUTE);
      expect((await me(session_token)).statusCode).toBe(401);
    });

    it('a renter who opens the app now and then through a three-day trip stays signed in', async () => {
      const { session_token } = await login(nextPhone());
      for (let hour = 20; hour <= 72; hour += 20) {
        ctx.clock.now = at(hour * 60 * MINUTE);
        expect((await me(session_token)).statusCode).toBe(200);
      }
    });

    it('a session is renewed at most once every 10 minutes: uses in between write nothing', async () => {
      const { session_token, session_expires_at } = await login(nextPhone());
      const end = () =>
        ctx.handle.db
          .selectFrom('sessions')
          .select('expires_at')
          .where('token_hash', '=', hashToken(session_token))
          .executeTakeFirstOrThrow()
          .then((r) => new Date(r.expires_at).toISOString());
      ctx.clock.now = at(9 * MINUTE);
      const soon = await me(session_token);
      expect(soon.headers['session-expires-at']).toBe(new Date(session_expires_at).toISOString());
      expect(await end()).toBe(new Date(session_expires_at).toISOString());
      ctx.clock.now = at(10 * MINUTE);
      await Promise.all([me(session_token), me(session_token)]);
      expect(await end()).toBe(at(1450 * MINUTE).toISOString());
    });

    it('a renewal moves the session cookie of the browser that sent it; a session signed out stays ended', async () => {
      const { session_token } = await login(nextPhone());
      ctx.clock.now = at(60 * MINUTE);
      const renewed = await ctx.app.inject({
        url: '/api/v1/users',
        headers: { stytch_auth: session_token, cookie: `ampere_session=${session_token}` },
      });
      expect(renewed.headers['set-cookie']).toBe(
        `ampere_session=${session_token}; Expires=${at(1500 * MINUTE).toUTCString()}; Path=/; HttpOnly; SameSite=Lax`,
      );
      // Without the cookie (another client), no cookie is set.
      ctx.clock.now = at(80 * MINUTE);
      expect((await me(session_token)).headers['set-cookie']).toBeUndefined();
      await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { stytch_auth: session_token } });
      ctx.clock.now = at(100 * MINUTE);
      const after = await me(session_token);
      expect(after.statusCode).toBe(401);
      expect(after.headers['session-expires-at']).toBeUndefined();
    });

    it('a missing or unknown session header is 401', async () => {
      expect((await me()).json()).toMatchObject({ statusCode: 401, message: 'Please sign in to continue.' });
      expect((await me('not-a-real-token')).json()).toMatchObject({
        statusCode: 401,
        message: 'Your session has expired. Please sign in again.',
      });
      const { session_token } = await login(nextPhone());
      expect((await me(`${session_token}x`)).statusCode).toBe(401);
      expect((await me(hashToken(session_token))).statusCode).toBe(401);
    });

    it('the code and the session token appear in no response but the sign-in itself (and the dev outbox)', async () => {
      const phone = nextPhone();
      const bodies: string[] = [];
      const sent = await send(phone);
      bodies.push(sent.body);
      const code = await latestCode(phone);
      const signedIn = await verify(phone, code);
      const token = signedIn.json().session_token as string;
      expect(signedIn.body).not.toContain(code);
      const auth = { stytch_auth: token };
      for (const req of [
        { url: '/api/v1/users' },
        { url: '/api/v1/users/insurance/recent' },
        { method: 'PATCH' as const, url: '/api/v1/users/profile', payload: { first_name: 'Ada' } },
        { url: '/api/v1/flags' },
        { method: 'POST' as const, url: '/api/v1/events', payload: { events: [{ name: 'auth_completed' }] } },
        { method: 'POST' as const, url: '/api/v1/auth/sms/verify', payload: { phone, code } },
        { method: 'POST' as const, url: '/api/v1/auth/logout' },
      ]) {
        bodies.push((await ctx.app.inject({ ...req, headers: auth })).body);
      }
      for (const body of bodies) {
        expect(body).not.toContain(code);
        expect(body).not.toContain(token);
        expect(body).not.toContain(hashToken(token));
        expect(body).not.toMatch(/code_hash|token_hash/);
      }
    });

    it('records auth_started when a code is sent and auth_completed, with the renter, when they sign in', async () => {
      const phone = nextPhone();
      const { user } = await login(phone);
      const events = await ctx.handle.db
        .selectFrom('analytics_events')
        .select(['name', 'user_id', 'properties'])
        .where('name', 'in', ['auth_started', 'auth_completed'])
        .where('occurred_at', '=', TEST_NOW)
        .execute();
      expect(events.filter((e) => e.name === 'auth_completed' && e.user_id === user.id)).toEqual([
        { name: 'auth_completed', user_id: user.id, properties: { method: 'sms', new_user: true } },
      ]);
      expect(events.some((e) => e.name === 'auth_started' && e.user_id === null)).toBe(true);
    });
  });

  describe('the dev outbox', () => {
    it('lists the messages to a number, newest first', async () => {
      const phone = nextPhone();
      await send(phone);
      ctx.clock.now = at(MINUTE);
      await send(phone);
      const messages = await outbox(phone);
      expect(messages).toHaveLength(2);
      expect(messages.map((m) => m.sent_at)).toEqual([at(MINUTE).toISOString(), TEST_NOW.toISOString()]);
      expect(await outbox(nextPhone())).toEqual([]);
      expect((await ctx.app.inject({ url: '/api/dev/sms?phone=12' })).json()).toMatchObject({
        statusCode: 400,
        field: 'phone',
      });
    });

    it('does not exist when Twilio is configured', async () => {
      const config = loadConfig(TWILIO_ENV);
      expect(createSmsSender(config, ctx.handle.db, () => ctx.clock.now).kind).toBe('twilio');
      const sms = recordingSender('twilio');
      const app = await appWith({ env: TWILIO_ENV, sms });
      expect((await app.inject({ url: '/api/dev/sms?phone=%2B16155550123' })).statusCode).toBe(404);
      const phone = nextPhone();
      expect((await send(phone, { app })).statusCode).toBe(200);
      expect(sms.sent).toEqual([{ to: phone, body: expect.stringMatching(/^Your Ampere code is \d{6}\./) }]);
      // Nothing went to the outbox table either.
      expect(await ctx.handle.db.selectFrom('sms_outbox').select('id').where('to_phone', '=', phone).execute()).toEqual(
        [],
      );
      // Without an injected sender, a Twilio configuration also leaves the route out.
      const real = await appWith({ env: TWILIO_ENV });
      expect((await real.inject({ url: '/api/dev/sms?phone=%2B16155550123' })).statusCode).toBe(404);
    });
  });

  describe('documentation', () => {
    it('documents the sign-in, profile, flag and event routes in the OpenAPI document', async () => {
      const doc = (await ctx.app.inject({ url: '/api/openapi.json' })).json();
      expect(doc.paths['/api/v1/auth/sms/send']).toHaveProperty('post');
      expect(doc.paths['/api/v1/auth/sms/verify']).toHaveProperty('post');
      expect(doc.paths['/api/v1/auth/logout']).toHaveProperty('post');
      expect(doc.paths['/api/v1/users']).toHaveProperty('get');
      expect(doc.paths['/api/v1/users/profile']).toHaveProperty('patch');
      expect(doc.paths['/api/v1/users/insurance/recent']).toHaveProperty('get');
      expect(doc.paths['/api/v1/flags']).toHaveProperty('get');
      expect(doc.paths['/api/v1/events'].post.responses).toHaveProperty('202');
      expect(doc.paths['/api/dev/sms']).toHaveProperty('get');
    });
  });

  describe('clean-up', () => {
    it('deletes rate counters and codes older than a day as it goes', async () => {
      const db = ctx.handle.db;
      const later = at(3 * 1440 * MINUTE);
      await db
        .insertInto('rate_events')
        .values([
          { bucket: 'test_old', key: 'k', at: new Date(later.getTime() - 25 * 60 * MINUTE) },
          { bucket: 'test_recent', key: 'k', at: new Date(later.getTime() - 60 * MINUTE) },
        ])
        .execute();
      ctx.clock.now = later;
      expect((await send(nextPhone())).statusCode).toBe(200);
      const left = await db.selectFrom('rate_events').select('bucket').where('bucket', 'like', 'test_%').execute();
      expect(left.map((r) => r.bucket)).toEqual(['test_recent']);
      const oldCodes = await db
        .selectFrom('login_codes')
        .select('id')
        .where('expires_at', '<', new Date(later.getTime() - 1440 * MINUTE))
        .execute();
      expect(oldCodes).toEqual([]);
    });
  });
});
