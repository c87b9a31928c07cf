import { parseArgs } from 'node:util';
import { configuredClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemo, seedScale } from './seed.ts';

/**
 * `npm run seed` seeds the demo fleet into the configured database (DATABASE_URL, or the embedded
 * one under DATA_DIR); `-- --vehicles 20000 --locations 200` adds a synthetic fleet of that size.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vehicles: { type: 'string' }, locations: { type: 'string' } } });
  const count = (name: string, raw: string | undefined) => {
    if (raw === undefined) return 0;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1 (got ${raw}).`);
    return n;
  };
  const vehicles = count('vehicles', values.vehicles);
  const locations = count('locations', values.locations);
  if ((vehicles === 0) !== (locations === 0)) throw new Error('Give both --vehicles and --locations, or neither.');
  const config = loadConfig();
  const clock = configuredClock(config);
  const handle = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteTemplate: config.pgliteTemplate,
  });
  try {
    await migrateToLatest(handle.db);
    const { seeded } = await seedDemo(handle.db, clock());
    console.log(seeded ? 'Seeded the demo fleet.' : 'The demo fleet was already there.');
    if (vehicles > 0) {
      const started = Date.now();
      const result = await seedScale(handle.db, { vehicles, locations, now: clock() });
      console.log(
        `Added ${vehicles} vehicles over ${locations} locations in ${result.regions} metros (${((Date.now() - started) / 1000).toFixed(1)} s).`,
      );
    }
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
