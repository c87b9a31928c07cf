import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { type TestContext, createTestContext } from './harness.ts';

const secret = (c: string) => c.repeat(32);

/** A staging server in production mode (decision 034) on the built-in providers, behind one proxy. */
const STAGING = {
  NODE_ENV: 'production',
  ALLOW_BUILTIN_PROVIDERS: 'true',
  SEED_DEMO: 'false',
  SANDBOX_WEBHOOK_SECRET: secret('s'),
  IDENTITY_TWIN_SECRET: secret('i'),
  INSURANCE_TWIN_SECRET: secret('n'),
  REALTIME_SECRET: secret('r'),
  SIGNED_URL_SECRET: secret('u'),
  PUBLIC_URL: 'https://rent.example.com',
  TRUST_PROXY: '1',
};

/**
 * The session cookie is Secure in production mode whatever the request looks like (decision 052):
 * behind a proxy that ends TLS the server sees plain http, and an operator may not say so.
 */
describe('the session cookie in production mode', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { seed: false, env: STAGING });
  });
  afterAll(() => ctx?.close());

  async function signIn(headers: Record<string, string>) {
    // Production takes no 555 numbers: a real-looking Nashville mobile, different each time.
    const phone = `+161573${randomInt(10_000, 100_000)}`;
    const sent = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/send', payload: { phone }, headers });
    expect(sent.statusCode, sent.body).toBe(200);
    const [sms] = await ctx.handle.db
      .selectFrom('sms_outbox')
      .select('body')
      .where('to_phone', '=', phone)
      .orderBy('id', 'desc')
      .execute();
    const code = /code is (\d{6})/.exec(sms!.body)![1]!;
    return ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sms/verify', payload: { phone, code }, headers });
  }

  it('is Secure on a plain http request that names no scheme, and when cleared at sign-out', async () => {
    const res = await signIn({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-cookie']).toMatch(
      /^ampere_session=[^;]+; Expires=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { stytch_auth: res.json().session_token },
    });
    expect(out.headers['set-cookie']).toBe('ampere_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure');
  });

  it('is Secure when the proxy says the renter came over https', async () => {
    const res = await signIn({ 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' });
    expect(res.headers['set-cookie']).toMatch(/; Secure$/);
  });

  it('production refuses an https PUBLIC_URL when it does not trust the proxy in front', () => {
    let message = '';
    try {
      loadConfig({ ...STAGING, TRUST_PROXY: 'false' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('set TRUST_PROXY to the number of proxies in front');
    expect(loadConfig(STAGING).production).toBe(true);
  });
});
