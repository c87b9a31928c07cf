import { buildApp } from './app.ts';
import { configuredClock, testClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { armCrash } from './crash.ts';
import { connectDatabase } from './db/connect.ts';
import { runMain, stopOnSignals } from './process.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemo } from './seed/seed.ts';
import { DEMO_OWNER, seedDemoOwner } from './features/staff/owner.ts';
import { OPS_BASE } from '@ampere/domain/contract/ops';
import { formatPhone } from '@ampere/domain/phone';

/** Milliseconds of each start-up phase, printed once the server listens (bench/ reads this line). */
function startTimer(): { lap: (phase: string) => void; line: () => string } {
  const laps: [string, number][] = [];
  let last = performance.now();
  return {
    lap(phase) {
      const now = performance.now();
      laps.push([phase, now - last]);
      last = now;
    },
    line: () =>
      `Started in ${process.uptime().toFixed(1)} s since the process began: ${laps.map(([p, ms]) => `${p} ${(ms / 1000).toFixed(2)} s`).join(', ')}`,
  };
}

/**
 * `npm start` (scripts/start.ts) starts the server while the web app still builds, with
 * `--after-web-build`: the database is opened, migrated and seeded meanwhile, and the app (which
 * reads the build) is assembled once the start script says the build is done.
 */
function webBuildDone(): Promise<void> {
  if (!process.argv.includes('--after-web-build') || !process.send) return Promise.resolve();
  return new Promise((resolve) => {
    process.on('message', (message) => {
      if (message !== 'web-built') return;
      process.disconnect?.();
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const timer = startTimer();
  const config = loadConfig();
  armCrash(config.crashAt);
  const handle = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteTemplate: config.pgliteTemplate,
    poolSize: config.databasePoolSize,
    prepared: config.databasePreparedStatements,
  });
  timer.lap('database open');
  await migrateToLatest(handle.db);
  timer.lap('migrations');
  const base = configuredClock(config);
  const movable = config.clockControl ? testClock(base) : undefined;
  const clock = movable?.clock ?? base;
  if (movable) console.log('The clock can be moved with POST /api/dev/clock (CLOCK_CONTROL=on); never in production.');
  if (config.clockStart)
    console.log(`The clock starts at ${config.clockStart.toISOString()} (CLOCK_START), not the machine's time.`);
  if (config.seedDemo) {
    const { seeded } = await seedDemo(handle.db, clock());
    if (seeded) console.log('Seeded the demo fleet.');
    // The console's demo owner, in development only: production's first owner comes from `npm run ops:owner`.
    if (!config.production) await seedDemoOwner(handle.db, clock());
  }
  timer.lap('demo seed');
  await webBuildDone();
  timer.lap('waiting for the web build');
  const app = await buildApp({ config, db: handle.db, clock, testClock: movable }, { logger: true });
  timer.lap('app and search index');
  await app.listen({ port: config.port, host: config.host });
  timer.lap('listen');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `Ampere is running at http://localhost:${port} (database: ${handle.kind === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`,
  );
  if (config.seedDemo && !config.production) {
    const origin = config.publicUrl ?? `http://localhost:${port}`;
    const codes =
      app.sms.kind === 'console'
        ? `the code is texted to this log ([sms] lines) and to ${origin}/api/dev/sms?phone=${encodeURIComponent(DEMO_OWNER.phone)}`
        : 'the code is texted to that number';
    console.log(
      `Operator console: open ${origin}${OPS_BASE} and sign in as the demo owner, ${formatPhone(DEMO_OWNER.phone)}; ${codes}.`,
    );
  }
  console.log(timer.line());
  stopOnSignals(app, handle);
}

runMain(main);
