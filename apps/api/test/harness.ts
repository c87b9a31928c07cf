import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Clock, type TestClock, testClock } from '../src/clock.ts';
import type { Deps } from '../src/deps.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '../src/db/connect.ts';
import type { Database } from '../src/db/schema.ts';
import type { Kysely } from 'kysely';
import { type ScratchDatabase, createScratchDatabase } from '../src/db/scratch.ts';
import { TEST_NOW, migrateAndSeed } from './templates.ts';

export { TEST_NOW };

export type Engine = 'pglite' | 'postgres';

/**
 * For a describe block that runs on the PostgreSQL server only: a scratch database made before its
 * tests, with a one-connection pool on it that `setup` prepares; both closed and dropped after.
 * Read `url` and `pool` in tests and hooks, not while the block is collected.
 */
export function scratchOnServer(
  prefix: string,
  setup: (db: Kysely<Database>) => Promise<unknown>,
): { readonly url: string; readonly pool: DatabaseHandle } {
  let scratch: ScratchDatabase | undefined;
  let pool: DatabaseHandle | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, prefix);
    pool = await connectPostgres(scratch.url, 1);
    await setup(pool.db);
  });
  afterAll(async () => {
    await pool?.close();
    await scratch?.drop();
  });
  return {
    get url() {
      return scratch!.url;
    },
    get pool() {
      return pool!;
    },
  };
}

/**
 * The engines every integration test runs on: embedded PGlite always, and the PostgreSQL server
 * when TEST_DATABASE_URL is set (CI sets it; under CI=true it is required).
 */
export function engines(): Engine[] {
  if (process.env.TEST_DATABASE_URL) return ['pglite', 'postgres'];
  if (process.env.CI === 'true')
    throw new Error('TEST_DATABASE_URL must be set under CI=true so integration tests also run on PostgreSQL.');
  return ['pglite'];
}

export interface TestContext {
  app: FastifyInstance;
  handle: DatabaseHandle;
  clock: { now: Date };
  /** With `movableClock`: the app's clock, `clock.now` moved by POST /api/dev/clock. */
  testClock?: TestClock;
  close(): Promise<void>;
}

export interface TestContextOptions {
  seed?: boolean;
  /** More configuration for the app, as environment variables. */
  env?: Record<string, string>;
  /** 'default': the request limits as configured by default, not raised (decision 038). */
  rateLimits?: 'raised' | 'default';
  /** The development clock (CLOCK_CONTROL=on): POST /api/dev/clock moves the app's clock. */
  movableClock?: boolean;
  /** Providers to use instead of the configured ones, made once the database exists. */
  providers?: (
    db: Kysely<Database>,
    clock: Clock,
  ) => Pick<Deps, 'gateway' | 'realtime' | 'sms' | 'identity' | 'insurance' | 'afterVerification' | 'vehicleAccess'>;
}

/**
 * Request limits high enough that no test meets one by accident: a test's clock stands still, so a
 * minute's window never ends. The tests of the limits themselves leave them out (decision 038).
 */
export const RAISED_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
  RATE_LIMIT_LOOKUPS_PER_MINUTE: '100000',
  RATE_LIMIT_EVENTS_PER_MINUTE: '100000',
  RATE_LIMIT_KEY_COMMANDS_PER_MINUTE: '100000',
  RATE_LIMIT_WRITES_PER_MINUTE: '100000',
};

/**
 * A test file's own database: a new PGlite in memory, or a new database on the server, migrated and
 * (unless `seed: false`) seeded at the clock's instant. It is a copy of this run's template
 * (templates.ts); without templates (the integration project's globalSetup did not run) or for
 * another instant, it is migrated and seeded on the spot.
 */
async function openDatabase(
  engine: Engine,
  seedAt: Date | null,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const templates = inject('databaseTemplates');
  const usable = templates && (seedAt === null || templates.seededAt === seedAt.toISOString());
  const kind = seedAt ? 'demo' : 'bare';
  if (engine === 'postgres') {
    const template = usable ? templates.postgres?.[kind] : undefined;
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'ampere_test', { template });
    const handle = await connectPostgres(scratch.url, 10);
    if (!template) await migrateAndSeed(handle, seedAt);
    return { handle, drop: scratch.drop };
  }
  if (usable) {
    const handle = await connectPGlite('memory://', {
      loadDataDir: new Blob([fs.readFileSync(templates.pglite[kind])]),
    });
    return { handle, drop: async () => {} };
  }
  const handle = await connectPGlite('memory://');
  await migrateAndSeed(handle, seedAt);
  return { handle, drop: async () => {} };
}

/** A fresh database (see openDatabase) and the app on it. */
export async function createTestContext(engine: Engine, opts: TestContextOptions = {}): Promise<TestContext> {
  const clock = { now: TEST_NOW };
  const { handle, drop: dropDatabase } = await openDatabase(engine, opts.seed === false ? null : clock.now);
  // Searches see every reservation a test writes straight into the database (no staleness allowed).
  // Background jobs run only in the tests that ask for them (JOBS: 'in-process').
  const config = loadConfig({
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
    SEARCH_MAX_STALENESS_MS: '0',
    JOBS: 'off',
    ...(opts.rateLimits === 'default' ? {} : RAISED_RATE_LIMITS),
    ...opts.env,
  });
  const movable = opts.movableClock ? testClock(() => clock.now) : undefined;
  const now = movable?.clock ?? (() => clock.now);
  const app = await buildApp({
    config,
    db: handle.db,
    clock: now,
    ...(movable ? { testClock: movable } : {}),
    ...opts.providers?.(handle.db, now),
  });
  await app.ready();
  return {
    app,
    handle,
    clock,
    ...(movable ? { testClock: movable } : {}),
    close: async () => {
      await app.close();
      await handle.close();
      await dropDatabase();
    },
  };
}
