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
  };
}
