import { randomInt } from 'node:crypto';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import type { StaffRole } from '@ampere/domain/staff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/features/audit/repository.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signedInStaff } from './staff.ts';
import { type SoftPasskey, softPasskey } from './webauthn.ts';

/** The console's address: passkeys are bound to its host (decision 081). */
const ORIGIN = 'http://console.test';

/** Staff sign-in (decision 081): a texted code for staff only, then a passkey, every step audited. */
describe.each(engines())('staff sign-in on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false, env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(() => ctx?.close());

  let ipSeq = 0;
  const ip = () => `10.20.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const newPhone = () => `+1615${randomInt(200, 999)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
  const post = (url: string, payload?: unknown, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/ops/v1${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: cookie ? { cookie } : {},
      remoteAddress: ip(),
    });
  const me = (cookie?: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/ops/v1/me', headers: cookie ? { cookie } : {} });
  const outbox = async (phone: string) =>
    (await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(phone)}` })).json().messages as {
      body: string;
    }[];
  const later = (seconds: number) => void (ctx.clock.now = new Date(ctx.clock.now.getTime() + seconds * 1000));

  async function staffMember(role: StaffRole = 'manager', name = 'Sam Staff') {
    const phone = newPhone();
    const row = await ctx.handle.db
      .insertInto('staff')
      .values({ phone, name, role, created_at: ctx.clock.now, invited_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, phone };
  }

  /** Asks for a code and signs in with it: the session cookie and what comes next. */
  async function codeSignIn(phone: string) {
    later(60);
    expect((await post('/auth/code', { phone })).statusCode).toBe(200);
    const code = /code is (\d{6})/.exec((await outbox(phone))[0]!.body)![1]!;
    const res = await post('/auth/verify', { phone, code });
    expect(res.statusCode, res.body).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    return { cookie: setCookie.split(';')[0]!, setCookie, next: res.json().next as string };
  }

  async function registerPasskey(cookie: string, passkey: SoftPasskey) {
    const options = await post('/auth/passkey/register/options', undefined, cookie);
    expect(options.statusCode, options.body).toBe(200);
    const response = passkey.register(options.json().options, ORIGIN);
    return post('/auth/passkey/register', { response }, cookie);
  }

  async function usePasskey(cookie: string, passkey: SoftPasskey) {
    const options = await post('/auth/passkey/options', undefined, cookie);
    expect(options.statusCode, options.body).toBe(200);
    const response = passkey.authenticate(options.json().options, ORIGIN);
    return post('/auth/passkey', { response }, cookie);
  }

  it('texts a code to staff only, and answers any other number the same without texting it', async () => {
    const staff = await staffMember();
    const stranger = newPhone();
    const toStaff = await post('/auth/code', { phone: staff.phone });
    const toStranger = await post('/auth/code', { phone: stranger });
    expect(toStaff.statusCode).toBe(200);
    expect(toStranger.statusCode).toBe(200);
    expect(Object.keys(toStranger.json())).toEqual(Object.keys(toStaff.json()));
    expect((await outbox(staff.phone))[0]!.body).toMatch(/operator console code is \d{6}/);
    expect(await outbox(stranger)).toEqual([]);
    // The same resend wait for both: the wait itself does not tell who is staff.
    expect((await post('/auth/code', { phone: staff.phone })).statusCode).toBe(429);
    expect((await post('/auth/code', { phone: stranger })).statusCode).toBe(429);
  });

  it('refuses a wrong code, and a code for a number that is not staff, with the same words, and audits both', async () => {
    const staff = await staffMember();
    later(60);
    await post('/auth/code', { phone: staff.phone });
    const wrong = await post('/auth/verify', { phone: staff.phone, code: '000000' });
    const stranger = await post('/auth/verify', { phone: newPhone(), code: '123456' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('That code is not right. Check the text message and try again.');
    expect(stranger.json().message).toBe(wrong.json().message);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const [attempt] = await listAudit(ctx.handle.db, { limit: 5, staffId: staff.id });
    expect(attempt).toMatchObject({ action: 'staff.sign_in', outcome: 'failure' });
    // A renter's code for the same number never opens the console.
    await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/send', payload: { phone: staff.phone } });
    const renterCode = /code is (\d{6})/.exec((await outbox(staff.phone))[0]!.body)![1]!;
    expect((await post('/auth/verify', { phone: staff.phone, code: renterCode })).statusCode).toBe(400);
  });

  it('starts a session in a strict, HttpOnly cookie that opens nothing until a passkey is registered, then everything the role may', async () => {
    const staff = await staffMember('manager', 'Maya Manager');
    const first = await codeSignIn(staff.phone);
    expect(first.next).toBe('register-passkey');
    expect(first.setCookie).toMatch(
      /^ampere_ops_session=ops_[\w-]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict/,
    );
    expect((await me(first.cookie)).json().message).toBe('Finish signing in with your passkey to continue.');
    expect((await ctx.app.inject({ url: '/api/ops/v1/audit', headers: { cookie: first.cookie } })).statusCode).toBe(
      401,
    );
    // Authenticating before any passkey exists is refused, saying what to do.
    expect((await post('/auth/passkey/options', undefined, first.cookie)).json().message).toBe(
      'You have no passkey yet: create one to finish signing in.',
    );

    const passkey = softPasskey();
    const registered = await registerPasskey(first.cookie, passkey);
    expect(registered.statusCode, registered.body).toBe(200);
    const who = await me(first.cookie);
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({ name: 'Maya Manager', role: 'manager', locationIds: 'all' });
    expect(who.json().actions).toContain('audit.read');
    expect(who.json().actions).not.toContain('staff.invite');
    expect((await ctx.app.inject({ url: '/api/ops/v1/audit', headers: { cookie: first.cookie } })).statusCode).toBe(
      200,
    );
    const log = await listAudit(ctx.handle.db, { limit: 10, staffId: staff.id });
    expect(log.map((r) => `${r.action} ${r.outcome}`)).toEqual(
      expect.arrayContaining(['staff.sign_in success', 'staff.passkey_register success']),
    );
    const stored = await ctx.handle.db
      .selectFrom('staff_passkeys')
      .select('credential_id')
      .where('staff_id', '=', staff.id)
      .execute();
    expect(stored.map((p) => p.credential_id)).toEqual([passkey.credentialId]);
  });

  it('requires the registered passkey at every later sign-in: no second registration, a forged one refused', async () => {
    const staff = await staffMember('agent');
    const passkey = softPasskey();
    const first = await codeSignIn(staff.phone);
    expect((await registerPasskey(first.cookie, passkey)).statusCode).toBe(200);

    const second = await codeSignIn(staff.phone);
    expect(second.next).toBe('use-passkey');
    const again = await post('/auth/passkey/register/options', undefined, second.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have a passkey for the console: sign in with it.');

    const forged = await usePasskey(second.cookie, passkey.forged());
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toMatch(/Your passkey could not be checked/);
    expect((await me(second.cookie)).statusCode).toBe(401);

    const stranger = await usePasskey(second.cookie, softPasskey());
    expect(stranger.json().message).toMatch(/not one registered for your staff account/);

    const ok = await usePasskey(second.cookie, passkey);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await me(second.cookie)).json().role).toBe('agent');
    const failures = (await listAudit(ctx.handle.db, { limit: 20, staffId: staff.id, outcome: 'failure' })).map(
      (r) => r.action,
    );
    expect(failures).toEqual(['staff.passkey_sign_in', 'staff.passkey_sign_in']);
  });

  it('takes each challenge once, and refuses an answer to another challenge', async () => {
    const staff = await staffMember('viewer');
    const passkey = softPasskey();
    const first = await codeSignIn(staff.phone);
    await registerPasskey(first.cookie, passkey);
    const second = await codeSignIn(staff.phone);
    const options = (await post('/auth/passkey/options', undefined, second.cookie)).json().options;
    // A wrong answer uses the challenge up: the right answer to it then comes too late.
    expect(
      (await post('/auth/passkey', { response: passkey.forged().authenticate(options, ORIGIN) }, second.cookie))
        .statusCode,
    ).toBe(400);
    const late = await post('/auth/passkey', { response: passkey.authenticate(options, ORIGIN) }, second.cookie);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toMatch(/expired or was already used/);
    // An answer to an older challenge does not fit the new one.
    const old = passkey.authenticate(options, ORIGIN);
    await post('/auth/passkey/options', undefined, second.cookie);
    const replay = await post('/auth/passkey', { response: old }, second.cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/could not be checked/);
    expect((await usePasskey(second.cookie, passkey)).statusCode).toBe(200);
  });

  it('signs out: the cookie is cleared, the session ends, and the sign-out is audited', async () => {
    const staff = await signedInStaff(ctx.handle.db, { role: 'manager', now: ctx.clock.now });
    const out = await post('/auth/sign-out', undefined, staff.cookie);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^ampere_ops_session=; Max-Age=0/);
    const after = await me(staff.cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Your console session has ended. Please sign in again.');
    const [record] = await listAudit(ctx.handle.db, { limit: 1, staffId: staff.id });
    expect(record).toMatchObject({ action: 'staff.sign_out', outcome: 'success' });
  });

  it('never lets a renter’s session open the console, nor a staff cookie act as a renter', async () => {
    const phone = newPhone();
    later(60);
    await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/send', payload: { phone } });
    const code = /code is (\d{6})/.exec((await outbox(phone))[0]!.body)![1]!;
    const renter = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/verify', payload: { phone, code } });
    const token = renter.json().session_token as string;
    const asRenter = await ctx.app.inject({
      url: '/api/ops/v1/me',
      headers: { [SESSION_HEADER]: token, cookie: `ampere_session=${token}; ampere_ops_session=${token}` },
    });
    expect(asRenter.statusCode).toBe(401);

    const staff = await signedInStaff(ctx.handle.db, { role: 'owner', now: ctx.clock.now });
    const asStaff = await ctx.app.inject({ url: '/api/v1/users', headers: { cookie: staff.cookie } });
    expect(asStaff.statusCode).toBe(401);
    const tokenAsRenter = await ctx.app.inject({
      url: '/api/v1/users',
      headers: { [SESSION_HEADER]: staff.token, cookie: `ampere_session=${staff.token}` },
    });
    expect(tokenAsRenter.statusCode).toBe(401);
  });
});
