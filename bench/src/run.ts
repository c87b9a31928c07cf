/**
 * `npm run bench`: load on the search API (PostgreSQL and the embedded database) against a
 * bare route, plus the size of what /search downloads. Prints figures beside their targets.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BOOKING_STEPS,
  type BookingResult,
  describeBooking,
  extendWaitFigures,
  measureBooking,
  percentile,
} from './booking.ts';
import { type BundleReport, bundleFigures, measureBundle } from './bundle.ts';
import {
  type ScratchPostgres,
  connectPostgres,
  createScratchPostgres,
  openPGliteInMemory,
  seedForBench,
} from './databases.ts';
import type { LoadResult } from './load.ts';
import { describeImport, importFigures, measureImport } from './fleet-import.ts';
import { formatLighthouse, lighthouseFigures, measureLighthouse } from './lighthouse.ts';
import { lighthouseOptions } from './lighthouse-options.ts';
import {
  type LoadSettings,
  type Rounds,
  type SearchMeasurement,
  measureRounds,
  measureSearch,
  startBareServer,
  startSearchServer,
} from './measure.ts';
import { newRecord, setMedian } from './record.ts';
import { type Row, describeLoad, kb, summarizeAndRecord, table } from './report.ts';
import { measureStart, startFigures, startPort } from './start.ts';
import { ALWAYS_SHOWN, TARGETS } from './targets.ts';

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min}.`);
  return value;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const settings: LoadSettings = {
  seconds: envInt('BENCH_SECONDS', 10, 1),
  connections: envInt('BENCH_CONNECTIONS', 50, 1),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
};
const size = { vehicles: envInt('BENCH_VEHICLES', 20_000, 1), locations: envInt('BENCH_LOCATIONS', 200, 5) };
const booking = {
  renters: envInt('BENCH_RENTERS', 20, 1),
  rounds: envInt('BENCH_BOOKING_ROUNDS', 3, 1),
  warmupRounds: envInt('BENCH_BOOKING_WARMUP_ROUNDS', 1, 0),
};
/** Bare then search, this many times over (the ratio's median and spread). */
const rounds = envInt('BENCH_ROUNDS', 3, 1);
const withStart = process.env.BENCH_START !== 'off';
/** Cars in the fleet CSV import measured on each engine. */
const importRows = envInt('BENCH_IMPORT_ROWS', 10_000, 1);
const lighthouse = lighthouseOptions();

// Bounded in time whatever happens: seeding and builds are generous, load runs are fixed, a
// Lighthouse audit takes well under a minute (six pages), and each start is given three minutes.
const LIMIT_MS =
  (15 * 60 +
    (2 * rounds + 3) * (settings.seconds + settings.warmupSeconds + 60) +
    6 * lighthouse.runs * 60 +
    (withStart ? 6 * 60 : 0)) *
  1000;
let scratch: ScratchPostgres | null = null;
const watchdog = setTimeout(() => {
  console.error(`The benchmark ran past ${Math.round(LIMIT_MS / 60_000)} minutes and stops here.`);
  void (scratch?.drop() ?? Promise.resolve()).finally(() => process.exit(2));
}, LIMIT_MS);
watchdog.unref();

function printBundle(b: BundleReport): void {
  console.log('\n/search before the map (gzip):');
  for (const f of b.files) console.log(`  ${f.file.padEnd(48)} ${kb(f.gzipBytes)}`);
  console.log(`  total ${kb(b.totalGzipBytes)} (target ≤ ${TARGETS.searchBundleKb} KB)`);
  if (b.map) {
    console.log('Map chunk, loaded when a map is shown (gzip):');
    for (const f of b.map) console.log(`  ${f.file.padEnd(48)} ${kb(f.gzipBytes)}`);
  } else {
    console.log('Map chunk: not in the build (no page renders the map yet).');
  }
}

function printSearch(label: string, m: SearchMeasurement): void {
  console.log(
    `  typical response: ${kb(m.averageBytes)} on average, ${m.averageItems.toFixed(0)} cars (sampled ${m.sampleFailures ? `with ${m.sampleFailures} failures` : 'without failures'})`,
  );
  console.log(describeLoad(label, m.load));
}

function printBooking(b: BookingResult): void {
  for (const line of describeBooking(b)) console.log(line);
}

// autocannon counts a timeout as a connection error too, so errors already include them.
const failedRequests = (r: LoadResult) => r.non2xx + r.errors;

async function main(): Promise<void> {
  const record = newRecord(ROOT, 'bench', {
    ...settings,
    ...size,
    ...booking,
    rounds,
    importRows,
    lighthouseRuns: lighthouse.runs,
  });
  console.log(
    `Ampere benchmark: ${settings.connections} connections, ${settings.seconds} s per run (after ${settings.warmupSeconds} s warm-up), ${rounds} rounds of bare then search, ${size.vehicles} cars over ${size.locations} locations.`,
  );
  console.log(
    `The API and the load generator share this machine (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}): figures are a floor, not a capacity.`,
  );

  if (withStart) {
    // First, while nothing else of the benchmark runs: it rebuilds the checkout's build output.
    console.log('\n`npm start` to healthy (the build output is removed first, then rebuilt):');
    Object.assign(record.figures, startFigures(await measureStart(ROOT, startPort(), (l) => console.log(l))));
  }

  console.log('\nBuilding the web app…');
  const bundle = measureBundle(ROOT);
  printBundle(bundle);
  Object.assign(record.figures, bundleFigures(bundle));

  console.log('\nPostgreSQL: creating a scratch database…');
  scratch = await createScratchPostgres(ADMIN_URL);
  let pg: { rounds: Rounds; booking: BookingResult; averageBytes: number; averageItems: number };
  try {
    const handle = await connectPostgres(scratch.url);
    try {
      const seeded = await seedForBench(handle, size, new Date());
      console.log(
        `  seeded ${seeded.vehicles} cars over ${seeded.locations} locations in ${seeded.seedSeconds.toFixed(1)} s (database ${scratch.name})`,
      );
      record.figures['pg.seed'] = seeded.seedSeconds;
      const search = await startSearchServer(handle, seeded.options, scratch.url);
      let measured: Rounds;
      try {
        console.log(
          `  typical response: ${kb(search.averageBytes)} on average, ${search.averageItems.toFixed(0)} cars (sampled ${search.sampleFailures ? `with ${search.sampleFailures} failures` : 'without failures'})`,
        );
        const bare = await startBareServer(search.typicalBody);
        try {
          console.log(
            `Search and a bare route with a ${kb(Buffer.byteLength(search.typicalBody))} JSON body, ${rounds} rounds of bare then search:`,
          );
          measured = await measureRounds(search, bare, settings, rounds, (l) => console.log(l));
        } finally {
          await bare.close();
        }
      } finally {
        await search.close();
      }
      for (const r of measured.search) if (r.non2xx + r.errors > 0) console.log(describeLoad('search', r));
      console.log(
        `Booking path: ${booking.renters} renters at once, ${booking.rounds} rounds after ${booking.warmupRounds} unmeasured (sign in → create → add-ons → agreements → payment → card confirm → confirm → extend → cancel):`,
      );
      const booked = await measureBooking(handle, { ...booking, databaseUrl: scratch.url });
      printBooking(booked);
      pg = { rounds: measured, booking: booked, averageBytes: search.averageBytes, averageItems: search.averageItems };
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
    scratch = null;
  }
  const { search: searchRuns, bare: bareRuns, ratios } = pg.rounds;
  setMedian(
    record,
    'pg.search.rps',
    searchRuns.map((r) => r.requestsPerSecond),
  );
  setMedian(
    record,
    'pg.search.p50',
    searchRuns.map((r) => r.p50),
  );
  setMedian(
    record,
    'pg.search.p99',
    searchRuns.map((r) => r.p99),
  );
  setMedian(
    record,
    'bare.rps',
    bareRuns.map((r) => r.requestsPerSecond),
  );
  setMedian(
    record,
    'bare.p99',
    bareRuns.map((r) => r.p99),
  );
  setMedian(record, 'pg.search.ratio', ratios);
  for (const step of BOOKING_STEPS) {
    record.figures[`booking.${step}.p50`] = percentile(pg.booking.samples[step], 50);
    record.figures[`booking.${step}.p99`] = percentile(pg.booking.samples[step], 99);
  }
  Object.assign(record.figures, extendWaitFigures('booking', pg.booking));
  if (pg.booking.databaseCpuMs !== undefined)
    record.figures['booking.database-cpu-per-trip'] = pg.booking.databaseCpuMs / (booking.renters * booking.rounds);
  if (pg.booking.machineCpuMs !== undefined) {
    record.figures['booking.machine-cpu-per-trip'] = pg.booking.machineCpuMs / (booking.renters * booking.rounds);
  }

  console.log('\nPGlite (embedded, in memory): seeding…');
  const lite = await openPGliteInMemory();
  let pglite: SearchMeasurement;
  try {
    const seeded = await seedForBench(lite, size, new Date());
    console.log(
      `  seeded ${seeded.vehicles} cars over ${seeded.locations} locations in ${seeded.seedSeconds.toFixed(1)} s`,
    );
    record.figures['pglite.seed'] = seeded.seedSeconds;
    pglite = await measureSearch(lite, seeded.options, settings);
    printSearch('search', pglite);
  } finally {
    await lite.close();
  }
  record.figures['pglite.search.rps'] = pglite.load.requestsPerSecond;
  record.figures['pglite.search.p99'] = pglite.load.p99;

  console.log(`\nFleet CSV import, ${importRows} cars through the API (a dry run, then the import):`);
  scratch = await createScratchPostgres(ADMIN_URL);
  try {
    const handle = await connectPostgres(scratch.url, 5);
    try {
      const m = await measureImport(handle, importRows, scratch.url);
      console.log(describeImport('PostgreSQL', m));
      Object.assign(record.figures, importFigures('pg', m));
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
    scratch = null;
  }
  const importLite = await openPGliteInMemory();
  try {
    const m = await measureImport(importLite, importRows);
    console.log(describeImport('PGlite', m));
    Object.assign(record.figures, importFigures('pglite', m));
  } finally {
    await importLite.close();
  }

  console.log(`\nLighthouse (mobile, simulated throttling), ${lighthouse.runs} run(s) per page:`);
  const audits = await measureLighthouse(ROOT, lighthouse);
  console.log(formatLighthouse(audits, false));
  Object.assign(record.figures, lighthouseFigures(audits));

  const sum = (f: (r: LoadResult) => number) => searchRuns.reduce((s, r) => s + f(r), 0);
  const checks: Row[] = [
    {
      measure: 'PostgreSQL search non-2xx / errors (timeouts), all rounds',
      value: `${sum((r) => r.non2xx)} / ${sum((r) => r.errors)} (${sum((r) => r.timeouts)})`,
      target: '0',
      met: sum(failedRequests) === 0,
    },
    {
      measure: 'PGlite search non-2xx / errors (timeouts)',
      value: `${pglite.load.non2xx} / ${pglite.load.errors} (${pglite.load.timeouts})`,
      target: '0',
      met: failedRequests(pglite.load) === 0,
    },
    {
      measure: 'Booking: trips booked, paid, extended and cancelled',
      value: `${pg.booking.completed} of ${booking.renters * booking.rounds}`,
      target: 'all',
      met: pg.booking.completed === booking.renters * booking.rounds,
    },
    { measure: 'Typical search response', value: `${kb(pg.averageBytes)}, ${pg.averageItems.toFixed(0)} cars` },
  ];
  console.log(
    `\nSummary (${settings.connections} connections, ${settings.seconds} s per run, ${rounds} rounds; medians with the lowest–highest in brackets; API and load generator on one ${os.cpus().length}-core machine)\n`,
  );
  console.log(table(checks));
  console.log('');
  summarizeAndRecord(ROOT, record, ALWAYS_SHOWN);
  // A non-2xx answer means the load measured errors, not searches: make that visible to CI.
  // Timeouts under overload are a figure (shown above), not a broken benchmark.
  const non2xx = sum((r) => r.non2xx) + pglite.load.non2xx + bareRuns.reduce((s, r) => s + r.non2xx, 0);
  if (non2xx > 0 || pg.booking.failures.length > 0) process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => {
    clearTimeout(watchdog);
    // Stop even if a library keeps a handle open.
    setTimeout(() => process.exit(), 100).unref();
  });
