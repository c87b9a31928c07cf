import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type Clock, type TestClock, testClock } from '../src/clock.ts';
import type { Deps } from '../src/deps.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '../src/db/connect.ts';
import type { Database } from '../src/db/schema.ts';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';
import { seedDemo } from '../src/seed/seed.ts';

export type Engine = 'pglite' | 'postgres';

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

/** A fixed instant for tests: Sunday 22 November 2026, 15:00 UTC (09:00 in Nashville). */
export const TEST_NOW = new Date('2026-11-22T15:00:00Z');

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
  ) => Pick<Deps, 'gateway' | 'realtime' | 'sms' | 'identity' | 'insurance' | 'afterVerification'>;
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

/** A fresh database (a new PGlite in memory, or a new database on the server), migrated and seeded. */
export async function createTestContext(engine: Engine, opts: TestContextOptions = {}): Promise<TestContext> {
  let handle: DatabaseHandle;
  let dropDatabase = async () => {};
  if (engine === 'postgres') {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'ampere_test');
    handle = await connectPostgres(scratch.url, 10);
    dropDatabase = scratch.drop;
  } else {
    handle = await connectPGlite('memory://');
  }
  await migrateToLatest(handle.db);
  const clock = { now: TEST_NOW };
  if (opts.seed !== false) await seedDemo(handle.db, clock.now);
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
