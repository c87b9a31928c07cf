import { buildApp } from './app.ts';
import { configuredClock, testClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { armCrash } from './crash.ts';
import { connectDatabase } from './db/connect.ts';
import { runMain, stopOnSignals } from './process.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemo } from './seed/seed.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  armCrash(config.crashAt);
  const handle = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  await migrateToLatest(handle.db);
  const base = configuredClock(config);
  const movable = config.clockControl ? testClock(base) : undefined;
  const clock = movable?.clock ?? base;
  if (movable) console.log('The clock can be moved with POST /api/dev/clock (CLOCK_CONTROL=on); never in production.');
  if (config.clockStart)
    console.log(`The clock starts at ${config.clockStart.toISOString()} (CLOCK_START), not the machine's time.`);
  if (config.seedDemo) {
    const { seeded } = await seedDemo(handle.db, clock());
    if (seeded) console.log('Seeded the demo fleet.');
  }
  const app = await buildApp({ config, db: handle.db, clock, testClock: movable }, { logger: true });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `Ampere is running at http://localhost:${port} (database: ${handle.kind === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`,
  );
  stopOnSignals(app, handle);
}

runMain(main);
