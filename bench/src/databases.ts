import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '@ampere/api/src/db/connect.ts';
import { migrateToLatest } from '@ampere/api/src/db/migrate.ts';
import { seedDemo, seedScale } from '@ampere/api/src/seed/seed.ts';
import type { SearchOptionRef } from './requests.ts';

export interface SeededDatabase {
  handle: DatabaseHandle;
  options: SearchOptionRef[];
  vehicles: number;
  locations: number;
  seedSeconds: number;
}

export interface ScratchPostgres {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A throwaway database on the server the admin URL names; `drop` removes it even if connections linger. */
export async function createScratchPostgres(adminUrl: string): Promise<ScratchPostgres> {
  const name = `ampere_bench_${randomBytes(5).toString('hex')}`;
  const admin = await connectPostgres(adminUrl, 1);
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const a = await connectPostgres(adminUrl, 1);
      try {
        // Closed pools may still be hanging up: give them a moment so the forced drop does not
        // cut a connection mid-goodbye (which the pool reports as lost).
        for (let i = 0; i < 40; i++) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = ${name}`.execute(a.db);
          if (rows[0]!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(a.db);
      } finally {
        await a.close();
      }
    },
  };
}

/** Migrates, adds the demo catalogue and the large synthetic fleet, then refreshes planner statistics. */
export async function seedForBench(handle: DatabaseHandle, size: { vehicles: number; locations: number }, now: Date): Promise<SeededDatabase> {
  const started = performance.now();
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, now);
  const { searchOptionIds } = await seedScale(handle.db, { ...size, now });
  // A long-lived database has statistics from autovacuum; a fresh one needs them before it is measured.
  await sql`analyze`.execute(handle.db);
  const seedSeconds = (performance.now() - started) / 1000;
  const options = await handle.db.selectFrom('search_options').select(['id', 'timezone']).where('id', 'in', searchOptionIds).execute();
  const counts = await handle.db
    .selectNoFrom((eb) => [
      eb.selectFrom('vehicles').select(eb.fn.countAll<number>().as('n')).as('vehicles'),
      eb.selectFrom('locations').select(eb.fn.countAll<number>().as('n')).as('locations'),
    ])
    .executeTakeFirstOrThrow();
  return { handle, options, vehicles: Number(counts.vehicles), locations: Number(counts.locations), seedSeconds };
}

export const openPGliteInMemory = () => connectPGlite('memory://');
export { connectPostgres };
