import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Clock } from '../src/clock.ts';
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
  if (process.env.CI === 'true') throw new Error('TEST_DATABASE_URL must be set under CI=true so integration tests also run on PostgreSQL.');
  return ['pglite'];
}

/** A fixed instant for tests: Sunday 22 November 2026, 15:00 UTC (09:00 in Nashville). */
export const TEST_NOW = new Date('2026-11-22T15:00:00Z');

export interface TestContext {
  app: FastifyInstance;
  handle: DatabaseHandle;
  clock: { now: Date };
  close(): Promise<void>;
}

export interface TestContextOptions {
  seed?: boolean;
  /** More configuration for the app, as environment variables. */
  env?: Record<string, string>;
  /** Providers to use instead of the configured ones, made once the database exists. */
  providers?: (db: Kysely<Database>, clock: Clock) => Pick<Deps, 'gateway' | 'realtime' | 'sms' | 'identity' | 'insurance' | 'afterVerification'>;
}

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
  const config = loadConfig({ SEED_DEMO: 'false', WEB_DIST: '/nonexistent', SEARCH_MAX_STALENESS_MS: '0', JOBS: 'off', ...opts.env });
  const now = () => clock.now;
  const app = await buildApp({ config, db: handle.db, clock: now, ...opts.providers?.(handle.db, now) });
  await app.ready();
  return {
    app,
    handle,
    clock,
    close: async () => {
      await app.close();
      await handle.close();
      await dropDatabase();
    },
  };
}
