import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { type DatabaseHandle, connectPGlite, connectPostgres } from '@ampere/api/src/db/connect.ts';
import { migrateToLatest } from '@ampere/api/src/db/migrate.ts';
import { type ScratchDatabase, createScratchDatabase } from '@ampere/api/src/db/scratch.ts';
import { seedDemo, seedScale } from '@ampere/api/src/seed/seed.ts';
import type { SearchOptionRef } from './requests.ts';

export interface SeededDatabase {
  handle: DatabaseHandle;
  options: SearchOptionRef[];
  vehicles: number;
  locations: number;
  seedSeconds: number;
}

export type ScratchPostgres = ScratchDatabase;

/** A throwaway database on the server the admin URL names; `drop` removes it even if connections linger. */
export const createScratchPostgres = (adminUrl: string): Promise<ScratchPostgres> =>
  createScratchDatabase(adminUrl, 'ampere_bench');

/** Migrates, adds the demo catalogue and the large synthetic fleet, then refreshes planner statistics. */
export async function seedForBench(
  handle: DatabaseHandle,
  size: { vehicles: number; locations: number },
  now: Date,
): Promise<SeededDatabase> {
  const started = performance.now();
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, now);
  const { searchOptionIds } = await seedScale(handle.db, { ...size, now });
  // A long-lived database has statistics from autovacuum; a fresh one needs them before it is measured.
  await sql`analyze`.execute(handle.db);
  const seedSeconds = (performance.now() - started) / 1000;
  const options = await handle.db
    .selectFrom('search_options')
    .select(['id', 'timezone'])
    .where('id', 'in', searchOptionIds)
    .execute();
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
