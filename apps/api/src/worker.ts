import { buildApp } from './app.ts';
import { configuredClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { armCrash } from './crash.ts';
import { connectDatabase } from './db/connect.ts';
import { runMain, stopOnSignals } from './process.ts';
import { migrateToLatest } from './db/migrate.ts';

/**
 * `npm run worker`: runs the background jobs (decision 025) in a process of their own, for a
 * deployment whose API processes run with JOBS=off. It serves no requests. It needs PostgreSQL
 * (DATABASE_URL): the embedded database belongs to the one API process that opened it.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, JOBS: 'in-process' });
  armCrash(config.crashAt);
  if (!config.databaseUrl)
    throw new ConfigError(
      'The worker needs DATABASE_URL: the embedded database runs its jobs inside the API process (JOBS=in-process, the default).',
    );
  const handle = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    prepared: config.databasePreparedStatements,
  });
  await migrateToLatest(handle.db);
  const app = await buildApp({ config, db: handle.db, clock: configuredClock(config) }, { logger: true });
  await app.ready();
  console.log('The Ampere worker is running the background jobs.');
  stopOnSignals(app, handle);
}

runMain(main);
