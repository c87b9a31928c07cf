import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { type ScratchDatabase, createScratchDatabase } from '../src/db/scratch.ts';
import { seedDemo } from '../src/seed/seed.ts';

/** A fixed instant for tests: Sunday 22 November 2026, 15:00 UTC (09:00 in Nashville). */
export const TEST_NOW = new Date('2026-11-22T15:00:00Z');

/**
 * The databases integration tests start from, made once per run by the integration project's
 * globalSetup (`global-setup.ts`) from the migrations and the seed as they are now: `bare` is
 * migrated, `demo` is migrated and seeded with the demo fleet at `seededAt`. A test database is a
 * copy of one of them rather than a new database migrated and seeded again (decision 059).
 */
export interface DatabaseTemplates {
  /** The instant the demo seed was given (ISO 8601). */
  seededAt: string;
  /** PGlite data directories (`dumpDataDir` tarballs), as files. */
  pglite: { bare: string; demo: string };
  /** Database names on TEST_DATABASE_URL's server, when it is set. */
  postgres?: { bare: string; demo: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** A new database migrated (and seeded at `seedAt`, unless null) from nothing: what a template saves. */
export async function migrateAndSeed(handle: DatabaseHandle, seedAt: Date | null): Promise<void> {
  await migrateToLatest(handle.db);
  if (seedAt) await seedDemo(handle.db, seedAt);
}

/** Waits (up to 5 s) until nobody is connected to `name`: PostgreSQL copies only a database nobody uses. */
async function waitUntilUnused(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const res = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if (res.rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

/**
 * Makes this run's templates at `seedAt`: PGlite's as tarballs in a new folder under the system's
 * temporary one, PostgreSQL's (when `adminUrl` is given) as two databases with this run's own names,
 * so runs beside each other on one server never share or drop each other's. `remove` drops them all.
 */
export async function makeTemplates(
  seedAt: Date,
  adminUrl: string | undefined,
): Promise<{ templates: DatabaseTemplates; remove(): Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-templates-'));
  const made: ScratchDatabase[] = [];
  const remove = async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    for (const db of made.reverse()) await db.drop();
  };
  try {
    const templates: DatabaseTemplates = {
      seededAt: seedAt.toISOString(),
      pglite: { bare: path.join(folder, 'bare.tar'), demo: path.join(folder, 'demo.tar') },
    };
    const embedded = async () => {
      const handle = await connectPGlite('memory://');
      try {
        if (handle.engine.kind !== 'pglite') throw new Error('connectPGlite made no PGlite');
        const { pglite } = handle.engine;
        await migrateAndSeed(handle, null);
        fs.writeFileSync(templates.pglite.bare, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
        await seedDemo(handle.db, seedAt);
        fs.writeFileSync(templates.pglite.demo, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
      } finally {
        await handle.close();
      }
    };
    const server = async (url: string) => {
      const bare = await createScratchDatabase(url, 'ampere_template');
      made.push(bare);
      const bareHandle = await connectPostgres(bare.url, 2);
      try {
        await migrateAndSeed(bareHandle, null);
      } finally {
        await bareHandle.close();
      }
      await waitUntilUnused(url, bare.name);
      const demo = await createScratchDatabase(url, 'ampere_template', { template: bare.name });
      made.push(demo);
      const demoHandle = await connectPostgres(demo.url, 2);
      try {
        await seedDemo(demoHandle.db, seedAt);
      } finally {
        await demoHandle.close();
      }
      await waitUntilUnused(url, demo.name);
      templates.postgres = { bare: bare.name, demo: demo.name };
    };
    // The two engines do not wait on each other: PGlite works in this process, PostgreSQL in the server.
    await Promise.all([embedded(), ...(adminUrl ? [server(adminUrl)] : [])]);
    return { templates, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
