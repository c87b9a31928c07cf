import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { productionSignal } from './production.ts';

const hex = (n: number) => 'ab'.repeat(n / 2);

/** Every real provider and secret a public deployment needs. */
const FULL: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  SEED_DEMO: 'false',
  TWILIO_ACCOUNT_SID: `AC${hex(32)}`,
  TWILIO_AUTH_TOKEN: 'twilio-token',
  TWILIO_FROM_NUMBER: '+16155550100',
  SMTP_URL: 'smtps://trips:secret@smtp.example.com:465',
  EMAIL_FROM: 'Ampere <trips@example.com>',
  STRIPE_SECRET_KEY: 'sk_live_abc',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
  VERIFF_API_KEY: 'veriff-key',
  VERIFF_SHARED_SECRET: 'veriff-secret',
  AXLE_CLIENT_ID: 'axle-id',
  AXLE_CLIENT_SECRET: 'axle-secret',
  AXLE_WEBHOOK_SECRET: 'axle-webhook-secret-0123',
  SMARTCAR_ACCESS_TOKEN: 'smartcar-token',
  REALTIME_SECRET: hex(32),
  SIGNED_URL_SECRET: hex(32),
  PUBLIC_URL: 'https://rent.example.com',
  TRUST_PROXY: '1',
};

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('production mode', () => {
  it('starts when every real provider and secret is set', () => {
    const config = loadConfig(FULL);
    expect(config.stripe?.webhookSecret).toBe('whsec_abc');
    expect(config.seedDemo).toBe(false);
  });

  it('is signalled by NODE_ENV=production or a public https PUBLIC_URL, not by development addresses', () => {
    expect(productionSignal({ NODE_ENV: 'production' })).toBe('NODE_ENV=production');
    expect(productionSignal({ PUBLIC_URL: 'https://rent.example.com' })).toMatch(
      /PUBLIC_URL=https:\/\/rent\.example\.com/,
    );
    expect(productionSignal({ PUBLIC_URL: 'http://rent.example.com' })).toBeUndefined();
    expect(productionSignal({ PUBLIC_URL: 'https://localhost:8443' })).toBeUndefined();
    expect(productionSignal({ PUBLIC_URL: 'https://127.0.0.1' })).toBeUndefined();
    expect(productionSignal({ NODE_ENV: 'development' })).toBeUndefined();
    expect(() => loadConfig({})).not.toThrow();
    expect(problemsOf({ PUBLIC_URL: 'https://rent.example.com' })).toMatch(
      /^Refusing to start in production \(PUBLIC_URL=https:\/\/rent\.example\.com is a public https address\)/,
    );
  });

  it('names each development default still in place, with what to set', () => {
    const message = problemsOf({ NODE_ENV: 'production' });
    expect(message).toMatch(/^Refusing to start in production \(NODE_ENV=production\)/);
    for (const variable of [
      'SEED_DEMO=false',
      'TWILIO_ACCOUNT_SID',
      '/api/dev/sms',
      'SMTP_URL',
      'STRIPE_SECRET_KEY',
      'VERIFF_API_KEY',
      'IDENTITY_TWIN_SECRET',
      'AXLE_CLIENT_ID',
      'INSURANCE_TWIN_SECRET',
      'SMARTCAR_ACCESS_TOKEN',
      'REALTIME_SECRET',
      'SIGNED_URL_SECRET',
      'PUBLIC_URL',
    ]) {
      expect(message).toContain(variable);
    }
    expect(message).not.toContain('CLOCK_');
    expect(message).not.toContain('CRASH_AT');
  });

  it('names the crash points when CRASH_AT is not one of them', () => {
    expect(() => loadConfig({ CRASH_AT: 'somewhere' })).toThrow(/CRASH_AT must be one of booking-before-line-items, /);
  });

  it('refuses the test clock, Stripe without its webhook secret, and each missing secret alone', () => {
    expect(problemsOf({ ...FULL, CLOCK_CONTROL: 'on' })).toContain('unset CLOCK_CONTROL');
    expect(problemsOf({ ...FULL, CLOCK_START: '2027-03-14T08:00:00Z' })).toContain('unset CLOCK_START');
    expect(problemsOf({ ...FULL, CRASH_AT: 'webhook-before-commit' })).toContain('unset CRASH_AT');
    expect(problemsOf({ ...FULL, ALLOW_BUILTIN_PROVIDERS: 'true', CRASH_AT: 'webhook-before-commit' })).toContain(
      'unset CRASH_AT',
    );
    expect(problemsOf({ ...FULL, STRIPE_WEBHOOK_SECRET: undefined })).toContain('set STRIPE_WEBHOOK_SECRET');
    expect(problemsOf({ ...FULL, REALTIME_SECRET: undefined })).toContain('set REALTIME_SECRET');
    expect(problemsOf({ ...FULL, SIGNED_URL_SECRET: undefined })).toContain('set SIGNED_URL_SECRET');
    expect(problemsOf({ ...FULL, SEED_DEMO: undefined })).toContain('set SEED_DEMO=false');
    expect(problemsOf({ ...FULL, PUBLIC_URL: undefined })).toContain('set PUBLIC_URL');
    // One problem, one line: the message lists exactly what is wrong.
    expect(problemsOf({ ...FULL, SIGNED_URL_SECRET: undefined }).split('\n')).toHaveLength(2);
  });

  it('takes Pusher instead of REALTIME_SECRET', () => {
    expect(() =>
      loadConfig({
        ...FULL,
        REALTIME_SECRET: undefined,
        PUSHER_APP_ID: '123',
        PUSHER_KEY: 'key',
        PUSHER_SECRET: 'secret',
      }),
    ).not.toThrow();
  });

  it('allows the built-in providers and the demo fleet for staging, but never their development secrets', () => {
    const staging: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      ALLOW_BUILTIN_PROVIDERS: 'true',
      REALTIME_SECRET: hex(32),
      SIGNED_URL_SECRET: hex(32),
      PUBLIC_URL: 'https://staging.example.com',
      TRUST_PROXY: '1',
    };
    const message = problemsOf(staging);
    expect(message).toContain('SANDBOX_WEBHOOK_SECRET is the built-in development value');
    expect(message).toContain('IDENTITY_TWIN_SECRET is the built-in development value');
    expect(message).toContain('INSURANCE_TWIN_SECRET is the built-in development value');
    expect(message).not.toMatch(/TWILIO|SMTP|STRIPE|SMARTCAR|SEED_DEMO/);
    const config = loadConfig({
      ...staging,
      SANDBOX_WEBHOOK_SECRET: hex(32),
      IDENTITY_TWIN_SECRET: hex(32),
      INSURANCE_TWIN_SECRET: hex(32),
    });
    expect(config.twilio).toBeUndefined();
    expect(config.stripe).toBeUndefined();
    expect(config.seedDemo).toBe(true);
  });

  it('refuses a malformed ALLOW_BUILTIN_PROVIDERS', () => {
    expect(() => loadConfig({ ALLOW_BUILTIN_PROVIDERS: 'yes' })).toThrow(
      /ALLOW_BUILTIN_PROVIDERS must be 'true' or 'false'/,
    );
  });
});
