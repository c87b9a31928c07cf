import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { CRASH_POINTS, type CrashPoint } from './crash.ts';
import { DEVELOPMENT_SECRETS, productionProblems, productionSignal } from './production.ts';

/**
 * Connections a process keeps to the server unless DATABASE_POOL_SIZE says otherwise: about twice
 * a small database server's cores. More sessions than the server has cores do not do more work at
 * once; they take turns, and each plans its statements afresh until it has run them a few times
 * (decision 102).
 */
export const DEFAULT_POOL_SIZE = 10;

/** A request limit per minute: a whole number of at least 1. */
const perMinute = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .default(fallback);

const EnvSchema = z.object({
  PORT: z.coerce.number({ error: 'PORT must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(DEFAULT_POOL_SIZE),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['on', 'off'], { error: "DATABASE_PREPARED_STATEMENTS must be 'on' or 'off'" })
    .default('on'),
  SEED_DEMO: z.enum(['true', 'false'], { error: "SEED_DEMO must be 'true' or 'false'" }).default('true'),
  MAP_STYLE_URL: z.url({ error: 'MAP_STYLE_URL must be a URL' }).optional(),
  ANALYTICS_CONVERSIONS_URL: z
    .url({ error: 'ANALYTICS_CONVERSIONS_URL must be a URL like https://collect.example.com/conversions' })
    .regex(/^https?:\/\//, 'ANALYTICS_CONVERSIONS_URL must start with http:// or https://')
    .optional(),
  SUPPORT_PHONE: z.string().default('+1 (615) 555-0142'),
  SUPPORT_EMAIL: z.email({ error: 'SUPPORT_EMAIL must be an email address' }).default('support@ampere.example'),
  CONCIERGE_PHONE: z.string().default('+1 (615) 555-0199'),
  MARKETING_SITE_URL: z.url().default('https://ampere.example'),
  /** Car photos in an S3-compatible bucket (decision 085); without PHOTO_S3_BUCKET they are kept under DATA_DIR. */
  PHOTO_S3_BUCKET: z.string().min(1).optional(),
  PHOTO_S3_ENDPOINT: z.url({ error: 'PHOTO_S3_ENDPOINT must be a URL like https://s3.example.com' }).optional(),
  PHOTO_S3_REGION: z.string().min(1).default('us-east-1'),
  PHOTO_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PHOTO_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  PHOTO_S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, 'PHOTO_S3_PREFIX must be a folder ending in /, e.g. photos/')
    .default(''),
  PHOTO_S3_PATH_STYLE: z
    .enum(['true', 'false'], { error: "PHOTO_S3_PATH_STYLE must be 'true' or 'false'" })
    .default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  OPS_DIST: z.string().optional(),
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
    .regex(
      /^[A-Z]{2}(,[A-Z]{2})*$/,
      'SMS_ALLOWED_COUNTRIES must be two-letter country codes separated by commas, e.g. US,CA',
    )
    .default('US'),
  SMS_SENDS_PER_IP_PER_HOUR: z.coerce
    .number({ error: 'SMS_SENDS_PER_IP_PER_HOUR must be a number' })
    .int()
    .min(1)
    .default(30),
  RATE_LIMIT_SIGN_IN_PER_MINUTE: perMinute('RATE_LIMIT_SIGN_IN_PER_MINUTE', 10),
  RATE_LIMIT_LOOKUPS_PER_MINUTE: perMinute('RATE_LIMIT_LOOKUPS_PER_MINUTE', 60),
  RATE_LIMIT_EVENTS_PER_MINUTE: perMinute('RATE_LIMIT_EVENTS_PER_MINUTE', 60),
  RATE_LIMIT_KEY_COMMANDS_PER_MINUTE: perMinute('RATE_LIMIT_KEY_COMMANDS_PER_MINUTE', 20),
  RATE_LIMIT_WRITES_PER_MINUTE: perMinute('RATE_LIMIT_WRITES_PER_MINUTE', 60),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID must look like AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'TWILIO_FROM_NUMBER must be an E.164 number like +16155550100')
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, 'TWILIO_MESSAGING_SERVICE_SID must look like MG followed by 32 hex digits')
    .optional(),
  SMTP_URL: z
    .url({ error: 'SMTP_URL must be a URL like smtps://user:password@smtp.example.com:465' })
    .refine((u) => /^smtps?:\/\//.test(u), 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  EMAIL_FROM: z.string().min(3, 'EMAIL_FROM must be an address like "Ampere <trips@example.com>"').optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_/, 'STRIPE_SECRET_KEY must start with sk_test_, sk_live_, rk_test_ or rk_live_')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_/, 'STRIPE_PUBLISHABLE_KEY must start with pk_test_ or pk_live_')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_')
    .optional(),
  SANDBOX_WEBHOOK_SECRET: z
    .string()
    .min(16, 'SANDBOX_WEBHOOK_SECRET must be at least 16 characters')
    .default(DEVELOPMENT_SECRETS.SANDBOX_WEBHOOK_SECRET),
  SANDBOX_WEBHOOKS: z.enum(['on', 'off'], { error: "SANDBOX_WEBHOOKS must be 'on' or 'off'" }).default('on'),
  VERIFF_API_KEY: z.string().trim().min(1, 'VERIFF_API_KEY must not be empty').optional(),
  VERIFF_SHARED_SECRET: z.string().trim().min(1, 'VERIFF_SHARED_SECRET must not be empty').optional(),
  VERIFF_BASE_URL: z
    .url({ error: 'VERIFF_BASE_URL must be a URL like https://stationapi.veriff.com' })
    .default('https://stationapi.veriff.com'),
  IDENTITY_TWIN_SECRET: z
    .string()
    .min(16, 'IDENTITY_TWIN_SECRET must be at least 16 characters')
    .default(DEVELOPMENT_SECRETS.IDENTITY_TWIN_SECRET),
  AXLE_CLIENT_ID: z.string().trim().min(1, 'AXLE_CLIENT_ID must not be empty').optional(),
  AXLE_CLIENT_SECRET: z.string().trim().min(1, 'AXLE_CLIENT_SECRET must not be empty').optional(),
  AXLE_WEBHOOK_SECRET: z.string().min(16, 'AXLE_WEBHOOK_SECRET must be at least 16 characters').optional(),
  AXLE_BASE_URL: z
    .url({ error: 'AXLE_BASE_URL must be a URL like https://api.axle.insure' })
    .default('https://api.axle.insure'),
  INSURANCE_TWIN_SECRET: z
    .string()
    .min(16, 'INSURANCE_TWIN_SECRET must be at least 16 characters')
    .default(DEVELOPMENT_SECRETS.INSURANCE_TWIN_SECRET),
  SMARTCAR_ACCESS_TOKEN: z.string().trim().min(1, 'SMARTCAR_ACCESS_TOKEN must not be empty').optional(),
  SMARTCAR_BASE_URL: z
    .url({ error: 'SMARTCAR_BASE_URL must be a URL like https://api.smartcar.com/v2.0' })
    .default('https://api.smartcar.com/v2.0'),
  SMARTY_AUTH_ID: z.string().trim().min(1, 'SMARTY_AUTH_ID must not be empty').optional(),
  SMARTY_AUTH_TOKEN: z.string().trim().min(1, 'SMARTY_AUTH_TOKEN must not be empty').optional(),
  REALTIME_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'REALTIME_KEY must be 1 to 64 letters, digits, _ or -')
    .default('ampere-local'),
  REALTIME_SECRET: z
    .string()
    .min(32, 'REALTIME_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)')
    .optional(),
  PUSHER_APP_ID: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,64}$/,
      'PUSHER_APP_ID must be the app id from the Pusher (or Soketi) dashboard, e.g. 1234567',
    )
    .optional(),
  PUSHER_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'PUSHER_KEY must be the app key: letters, digits, _ or -')
    .optional(),
  PUSHER_SECRET: z.string().min(1, 'PUSHER_SECRET must not be empty').optional(),
  PUSHER_CLUSTER: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'PUSHER_CLUSTER must be a cluster name like us2 or eu')
    .default('us2'),
  PUSHER_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, 'PUSHER_HOST must be a host name without scheme or port, e.g. soketi.internal')
    .optional(),
  PUSHER_PORT: z.coerce
    .number({ error: 'PUSHER_PORT must be a number' })
    .int()
    .min(1, 'PUSHER_PORT must be a port number')
    .max(65535, 'PUSHER_PORT must be a port number')
    .optional(),
  PUSHER_USE_TLS: z.enum(['true', 'false'], { error: "PUSHER_USE_TLS must be 'true' or 'false'" }).default('true'),
  SIGNED_URL_SECRET: z
    .string()
    .min(32, 'SIGNED_URL_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)')
    .optional(),
  NODE_ENV: z.string().optional(),
  ALLOW_BUILTIN_PROVIDERS: z
    .enum(['true', 'false'], { error: "ALLOW_BUILTIN_PROVIDERS must be 'true' or 'false'" })
    .default('false'),
  CLOCK_START: z.iso
    .datetime({
      offset: true,
      error: 'CLOCK_START must be an ISO 8601 instant with an offset, e.g. 2027-03-14T07:30:00Z',
    })
    .optional(),
  JOBS: z.enum(['in-process', 'off'], { error: "JOBS must be 'in-process' or 'off'" }).default('in-process'),
  CLOCK_CONTROL: z.enum(['on', 'off'], { error: "CLOCK_CONTROL must be 'on' or 'off'" }).default('off'),
  CRASH_AT: z.enum(CRASH_POINTS, { error: `CRASH_AT must be one of ${CRASH_POINTS.join(', ')}` }).optional(),
  PUBLIC_URL: z
    .url({ error: 'PUBLIC_URL must be the address renters open, like https://rent.example.com' })
    .regex(/^https?:\/\//, 'PUBLIC_URL must start with http:// or https://')
    .optional(),
});

/** The kinds of limited route (decision 038). */
export type RateLimitKind = 'sign-in' | 'lookups' | 'events' | 'key-commands' | 'writes';
export type RateLimits = Record<RateLimitKind, number>;

/** The environment as read and defaulted, before it becomes a Config. */
export type Env = z.output<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where car photos go when not under DATA_DIR: an S3-compatible bucket (decision 085). */
  photoS3: {
    bucket: string;
    endpoint: string | undefined;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
    prefix: string;
  } | null;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Whether the pool sends statements as named prepared statements (off behind a transaction-mode pooler). */
  databasePreparedStatements: boolean;
  seedDemo: boolean;
  mapStyleUrl: string | undefined;
  /** Where conversions (payment_completed, in dollars) are posted; without it they are logged (spec 7). */
  analyticsConversionsUrl: string | undefined;
  supportPhone: string;
  supportEmail: string;
  conciergePhone: string;
  marketingSiteUrl: string;
  logLevel: string;
  webDist: string;
  /** The operator console's build (apps/ops/dist), served under /ops. */
  opsDist: string;
  /** The embedded database's empty cluster, a new data directory's start (apps/api/pglite-template; decision 107). */
  pgliteTemplate: string;
  /** Behind a load balancer: read the client's address from X-Forwarded-For (true, or how many hops to trust). */
  trustProxy: boolean | number;
  /** Production mode (decision 034): the session cookie is Secure whatever the request's scheme looks like. */
  production: boolean;
  /** How far vehicle search may lag reservations made by other API processes. */
  searchMaxStalenessMs: number;
  smsAllowedCountries: string[];
  smsSendsPerIpPerHour: number;
  /** Requests one caller (the signed-in renter, else the address) may make to one limited route in a minute, by kind (decision 038). */
  rateLimits: RateLimits;
  /** Set when Twilio is configured; otherwise the console sender and dev outbox are used. */
  twilio:
    | { accountSid: string; authToken: string; from: string | undefined; messagingServiceSid: string | undefined }
    | undefined;
  /** Set when SMTP is configured; otherwise the built-in mailbox (GET /api/dev/mail, /dev/mailbox) keeps the emails. */
  smtp: { url: string; from: string } | undefined;
  /** Set when Stripe is configured; otherwise the sandbox gateway is used. */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string | undefined } | undefined;
  /**
   * The sandbox gateway's webhooks (used when Stripe is not configured): the secret they are
   * signed with, and whether they are delivered on their own (off: only when a test asks).
   */
  sandbox: { webhookSecret: string; deliverWebhooks: boolean };
  /** Set when Veriff is configured (driver's-license checks); otherwise the built-in identity twin. */
  veriff: { apiKey: string; sharedSecret: string; baseUrl: string } | undefined;
  /** The secret the built-in identity twin signs its webhooks with. */
  identityTwinSecret: string;
  /** Set when Axle is configured (insurance connections); otherwise the built-in insurance twin. */
  axle: { clientId: string; clientSecret: string; webhookSecret: string; baseUrl: string } | undefined;
  /** The shared secret the built-in insurance twin sends with its webhooks. */
  insuranceTwinSecret: string;
  /** Set when Smartcar is configured (locking and reading the cars); otherwise the built-in simulated fleet. */
  smartcar: { accessToken: string; baseUrl: string } | undefined;
  /** Set when Smarty is configured (US Autocomplete Pro, called from the server); otherwise built-in address suggestions. */
  smarty: { authId: string; authToken: string } | undefined;
  /** The built-in realtime endpoint's app key and the secret that signs subscriptions to it. */
  realtime: { key: string; secret: string };
  /** Set when Pusher (or Soketi, with host) is configured; otherwise the built-in endpoint is served. */
  pusher:
    | {
        appId: string;
        key: string;
        secret: string;
        cluster: string;
        host: string | undefined;
        port: number | undefined;
        useTLS: boolean;
      }
    | undefined;
  /** Signs the short-lived links to agreement documents (docs/decisions/014-agreements.md). */
  signedUrlSecret: string;
  /** The address renters open (no trailing slash), for absolute links; unset: links are root-relative paths. */
  publicUrl: string | undefined;
  /** Where background jobs run: in this API process (default), or 'off' when a separate worker (`npm run worker`) runs them. */
  jobs: 'in-process' | 'off';
  /** Development only: POST /api/dev/clock moves the server's clock (CLOCK_CONTROL=on). */
  clockControl: boolean;
  /** For tests only: the instant the server's clock starts at (it then runs on); unset: the machine's clock. */
  clockStart: Date | undefined;
  /** Tests only: the point at which the process kills itself (decision 040); refused in production. */
  crashAt: CrashPoint | undefined;
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
  if (twilioSet === 1)
    throw new ConfigError('Invalid configuration:\n  TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set together');
  if (twilioSet === 2 && !e.TWILIO_FROM_NUMBER && !e.TWILIO_MESSAGING_SERVICE_SID) {
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID is required with TWILIO_ACCOUNT_SID',
    );
  }
  if (Boolean(e.SMTP_URL) !== Boolean(e.EMAIL_FROM)) {
    throw new ConfigError('Invalid configuration:\n  SMTP_URL and EMAIL_FROM must be set together');
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    );
  }
  if (Boolean(e.VERIFF_API_KEY) !== Boolean(e.VERIFF_SHARED_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  VERIFF_API_KEY and VERIFF_SHARED_SECRET must be set together');
  }
  const axleSet = [e.AXLE_CLIENT_ID, e.AXLE_CLIENT_SECRET, e.AXLE_WEBHOOK_SECRET].filter(Boolean).length;
  if (axleSet !== 0 && axleSet !== 3)
    throw new ConfigError(
      'Invalid configuration:\n  AXLE_CLIENT_ID, AXLE_CLIENT_SECRET and AXLE_WEBHOOK_SECRET must be set together',
    );
  if (Boolean(e.PHOTO_S3_ACCESS_KEY_ID) !== Boolean(e.PHOTO_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  PHOTO_S3_ACCESS_KEY_ID and PHOTO_S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  if (!e.PHOTO_S3_BUCKET && (e.PHOTO_S3_ENDPOINT || e.PHOTO_S3_ACCESS_KEY_ID)) {
    throw new ConfigError(
      'Invalid configuration:\n  PHOTO_S3_ENDPOINT and PHOTO_S3_ACCESS_KEY_ID need PHOTO_S3_BUCKET',
    );
  }
  if (Boolean(e.SMARTY_AUTH_ID) !== Boolean(e.SMARTY_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration:\n  SMARTY_AUTH_ID and SMARTY_AUTH_TOKEN must be set together');
  }
  const pusherSet = [e.PUSHER_APP_ID, e.PUSHER_KEY, e.PUSHER_SECRET].filter(Boolean).length;
  if (pusherSet !== 0 && pusherSet !== 3)
    throw new ConfigError('Invalid configuration:\n  PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET must be set together');
  if (pusherSet === 0 && (e.PUSHER_HOST || e.PUSHER_PORT)) {
    throw new ConfigError(
      'Invalid configuration:\n  PUSHER_HOST and PUSHER_PORT need PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET',
    );
  }
  const signal = productionSignal(e);
  const problems = signal ? productionProblems(e) : [];
  if (signal && problems.length > 0) {
    throw new ConfigError(
      `Refusing to start in production (${signal}). Fix each of these:\n  ${problems.join('\n  ')}`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    photoS3: e.PHOTO_S3_BUCKET
      ? {
          bucket: e.PHOTO_S3_BUCKET,
          endpoint: e.PHOTO_S3_ENDPOINT,
          region: e.PHOTO_S3_REGION,
          accessKeyId: e.PHOTO_S3_ACCESS_KEY_ID,
          secretAccessKey: e.PHOTO_S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.PHOTO_S3_PATH_STYLE === 'true',
          prefix: e.PHOTO_S3_PREFIX,
        }
      : null,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'on',
    seedDemo: e.SEED_DEMO === 'true',
    mapStyleUrl: e.MAP_STYLE_URL,
    analyticsConversionsUrl: e.ANALYTICS_CONVERSIONS_URL,
    supportPhone: e.SUPPORT_PHONE,
    supportEmail: e.SUPPORT_EMAIL,
    conciergePhone: e.CONCIERGE_PHONE,
    marketingSiteUrl: e.MARKETING_SITE_URL,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    opsDist: path.resolve(e.OPS_DIST ?? new URL('../../ops/dist', import.meta.url).pathname),
    pgliteTemplate: path.resolve(new URL('../pglite-template', import.meta.url).pathname),
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : Number(e.TRUST_PROXY),
    production: signal !== undefined,
    searchMaxStalenessMs: e.SEARCH_MAX_STALENESS_MS,
    smsAllowedCountries: e.SMS_ALLOWED_COUNTRIES.split(','),
    smsSendsPerIpPerHour: e.SMS_SENDS_PER_IP_PER_HOUR,
    rateLimits: {
      'sign-in': e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
      lookups: e.RATE_LIMIT_LOOKUPS_PER_MINUTE,
      events: e.RATE_LIMIT_EVENTS_PER_MINUTE,
      'key-commands': e.RATE_LIMIT_KEY_COMMANDS_PER_MINUTE,
      writes: e.RATE_LIMIT_WRITES_PER_MINUTE,
    },
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN
        ? {
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM_NUMBER,
            messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID,
          }
        : undefined,
    smtp: e.SMTP_URL && e.EMAIL_FROM ? { url: e.SMTP_URL, from: e.EMAIL_FROM } : undefined,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          }
        : undefined,
    sandbox: { webhookSecret: e.SANDBOX_WEBHOOK_SECRET, deliverWebhooks: e.SANDBOX_WEBHOOKS === 'on' },
    veriff:
      e.VERIFF_API_KEY && e.VERIFF_SHARED_SECRET
        ? {
            apiKey: e.VERIFF_API_KEY,
            sharedSecret: e.VERIFF_SHARED_SECRET,
            baseUrl: e.VERIFF_BASE_URL.replace(/\/+$/, ''),
          }
        : undefined,
    identityTwinSecret: e.IDENTITY_TWIN_SECRET,
    axle:
      e.AXLE_CLIENT_ID && e.AXLE_CLIENT_SECRET && e.AXLE_WEBHOOK_SECRET
        ? {
            clientId: e.AXLE_CLIENT_ID,
            clientSecret: e.AXLE_CLIENT_SECRET,
            webhookSecret: e.AXLE_WEBHOOK_SECRET,
            baseUrl: e.AXLE_BASE_URL.replace(/\/+$/, ''),
          }
        : undefined,
    insuranceTwinSecret: e.INSURANCE_TWIN_SECRET,
    smartcar: e.SMARTCAR_ACCESS_TOKEN
      ? { accessToken: e.SMARTCAR_ACCESS_TOKEN, baseUrl: e.SMARTCAR_BASE_URL.replace(/\/+$/, '') }
      : undefined,
    smarty:
      e.SMARTY_AUTH_ID && e.SMARTY_AUTH_TOKEN
        ? { authId: e.SMARTY_AUTH_ID, authToken: e.SMARTY_AUTH_TOKEN }
        : undefined,
    realtime: { key: e.REALTIME_KEY, secret: e.REALTIME_SECRET ?? defaultRealtimeSecret(e.DATABASE_URL) },
    pusher:
      e.PUSHER_APP_ID && e.PUSHER_KEY && e.PUSHER_SECRET
        ? {
            appId: e.PUSHER_APP_ID,
            key: e.PUSHER_KEY,
            secret: e.PUSHER_SECRET,
            cluster: e.PUSHER_CLUSTER,
            host: e.PUSHER_HOST,
            port: e.PUSHER_PORT,
            useTLS: e.PUSHER_USE_TLS === 'true',
          }
        : undefined,
    signedUrlSecret: e.SIGNED_URL_SECRET ?? defaultSignedUrlSecret(e.DATABASE_URL),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    clockStart: e.CLOCK_START ? new Date(e.CLOCK_START) : undefined,
    clockControl: e.CLOCK_CONTROL === 'on',
    jobs: e.JOBS,
    crashAt: e.CRASH_AT,
  };
}

/**
 * Without REALTIME_SECRET: every API process sharing one PostgreSQL must sign and check
 * subscriptions with the same secret (a renter may be signed by one process and connected to
 * another), so it is derived from DATABASE_URL, which they share and which holds the database
 * password. The embedded database serves exactly one process, so a random secret is enough there.
 * See docs/decisions/011-realtime.md.
 */
function defaultRealtimeSecret(databaseUrl: string | undefined): string {
  return databaseUrl
    ? createHmac('sha256', 'ampere-realtime-secret').update(databaseUrl).digest('hex')
    : randomBytes(32).toString('hex');
}

/**
 * Without SIGNED_URL_SECRET: as for the realtime secret, every process sharing one PostgreSQL
 * must check the links any of them signed, so it is derived from DATABASE_URL; the embedded
 * database serves one process, which makes a random one (links then die with a restart, and a
 * renter opens the agreement again). A public deployment should set its own, to rotate it
 * apart from the database password. See docs/decisions/014-agreements.md.
 */
function defaultSignedUrlSecret(databaseUrl: string | undefined): string {
  return databaseUrl
    ? createHmac('sha256', 'ampere-signed-url-secret').update(databaseUrl).digest('hex')
    : randomBytes(32).toString('hex');
}
