import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number({ error: 'PORT must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  SEED_DEMO: z.enum(['true', 'false'], { error: "SEED_DEMO must be 'true' or 'false'" }).default('true'),
  MAP_STYLE_URL: z.url({ error: 'MAP_STYLE_URL must be a URL' }).optional(),
  SUPPORT_PHONE: z.string().default('+1 (615) 555-0142'),
  SUPPORT_EMAIL: z.email({ error: 'SUPPORT_EMAIL must be an email address' }).default('support@ampere.example'),
  CONCIERGE_PHONE: z.string().default('+1 (615) 555-0199'),
  MARKETING_SITE_URL: z.url().default('https://ampere.example'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+)$/, "TRUST_PROXY must be 'true', 'false' or the number of proxies in front of the API")
    .default('false'),
  SEARCH_MAX_STALENESS_MS: z.coerce
    .number({ error: 'SEARCH_MAX_STALENESS_MS must be a number' })
    .int('SEARCH_MAX_STALENESS_MS must be a whole number of milliseconds')
    .min(0, 'SEARCH_MAX_STALENESS_MS must be 0 or more')
    .max(60_000, 'SEARCH_MAX_STALENESS_MS must be at most 60000')
    .default(250),
  SMS_ALLOWED_COUNTRIES: z
    .string()
    .regex(/^[A-Z]{2}(,[A-Z]{2})*$/, 'SMS_ALLOWED_COUNTRIES must be two-letter country codes separated by commas, e.g. US,CA')
    .default('US'),
  SMS_SENDS_PER_IP_PER_HOUR: z.coerce.number({ error: 'SMS_SENDS_PER_IP_PER_HOUR must be a number' }).int().min(1).default(30),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID must look like AC followed by 32 hex digits').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z.string().regex(/^\+[1-9]\d{6,14}$/, 'TWILIO_FROM_NUMBER must be an E.164 number like +16155550100').optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().regex(/^MG[0-9a-fA-F]{32}$/, 'TWILIO_MESSAGING_SERVICE_SID must look like MG followed by 32 hex digits').optional(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, 'STRIPE_SECRET_KEY must start with sk_test_, sk_live_, rk_test_ or rk_live_').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_/, 'STRIPE_PUBLISHABLE_KEY must start with pk_test_ or pk_live_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_').optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  seedDemo: boolean;
  mapStyleUrl: string | undefined;
  supportPhone: string;
  supportEmail: string;
  conciergePhone: string;
  marketingSiteUrl: string;
  logLevel: string;
  webDist: string;
  /** Behind a load balancer: read the client's address from X-Forwarded-For (true, or how many hops to trust). */
  trustProxy: boolean | number;
  /** How far vehicle search may lag reservations made by other API processes. */
  searchMaxStalenessMs: number;
  smsAllowedCountries: string[];
  smsSendsPerIpPerHour: number;
  /** Set when Twilio is configured; otherwise the console sender and dev outbox are used. */
  twilio: { accountSid: string; authToken: string; from: string | undefined; messagingServiceSid: string | undefined } | undefined;
  /** Set when Stripe is configured; otherwise the sandbox gateway is used. */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string | undefined } | undefined;
}

export class ConfigError extends Error {}

/** Reads the environment once; a malformed variable stops start-up with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const twilioSet = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN].filter(Boolean).length;
  if (twilioSet === 1) throw new ConfigError('Invalid configuration:\n  TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set together');
  if (twilioSet === 2 && !e.TWILIO_FROM_NUMBER && !e.TWILIO_MESSAGING_SERVICE_SID) {
    throw new ConfigError('Invalid configuration:\n  TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID is required with TWILIO_ACCOUNT_SID');
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    seedDemo: e.SEED_DEMO === 'true',
    mapStyleUrl: e.MAP_STYLE_URL,
    supportPhone: e.SUPPORT_PHONE,
    supportEmail: e.SUPPORT_EMAIL,
    conciergePhone: e.CONCIERGE_PHONE,
    marketingSiteUrl: e.MARKETING_SITE_URL,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : Number(e.TRUST_PROXY),
    searchMaxStalenessMs: e.SEARCH_MAX_STALENESS_MS,
    smsAllowedCountries: e.SMS_ALLOWED_COUNTRIES.split(','),
    smsSendsPerIpPerHour: e.SMS_SENDS_PER_IP_PER_HOUR,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN
        ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, from: e.TWILIO_FROM_NUMBER, messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID }
        : undefined,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? { secretKey: e.STRIPE_SECRET_KEY, publishableKey: e.STRIPE_PUBLISHABLE_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET }
        : undefined,
  };
}
