/**
 * `npm run bench`: load on the search API (PostgreSQL and the embedded database) against a
 * bare route, plus the size of what /search downloads. Prints figures beside their targets.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOKING_STEPS, type BookingResult, measureBooking, percentile } from './booking.ts';
import { type BundleReport, measureBundle } from './bundle.ts';
import {
  type ScratchPostgres,
  connectPostgres,
  createScratchPostgres,
  openPGliteInMemory,
  seedForBench,
} from './databases.ts';
import type { LoadResult } from './load.ts';
import { LIGHTHOUSE_TARGETS, formatLighthouse, measureLighthouse } from './lighthouse.ts';
import { lighthouseOptions } from './lighthouse-options.ts';
import { type LoadSettings, type SearchMeasurement, measureBare, measureSearch } from './measure.ts';
import { type Row, describeLoad, kb, ms, rps, table } from './report.ts';

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
const booking = { renters: envInt('BENCH_RENTERS', 20, 1), rounds: envInt('BENCH_BOOKING_ROUNDS', 3, 1) };
const TARGETS = { ratio: 0.25, p99Ms: 100, bundleKb: LIGHTHOUSE_TARGETS.searchBundleKb };
const lighthouse = lighthouseOptions();

// Bounded in time whatever happens: seeding and builds are generous, load runs are fixed, and a
// Lighthouse audit takes well under a minute (six pages).
const LIMIT_MS = (15 * 60 + 4 * (settings.seconds + settings.warmupSeconds + 60) + 6 * lighthouse.runs * 60) * 1000;
let scratch: ScratchPostgres | null = null;
const watchdog = setTimeout(() => {
  console.error(`The benchmark ran past ${Math.round(LIMIT_MS / 60_000)} minutes and stops here.`);
  void (scratch?.drop() ?? Promise.resolve()).finally(() => process.exit(2));
}, LIMIT_MS);
watchdog.unref();

function printBundle(b: BundleReport): void {
  console.log('\n/search before the map (gzip):');
  for (const f of b.files) console.log(`  ${f.file.padEnd(48)} ${kb(f.gzipBytes)}`);
  console.log(`  total ${kb(b.totalGzipBytes)} (target ≤ ${TARGETS.bundleKb} KB)`);
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
  console.log(
    `  ${b.completed} of ${b.renters * b.rounds} trips booked, paid, extended and cancelled in ${b.wallSeconds.toFixed(1)} s`,
  );
  for (const f of b.failures.slice(0, 5)) console.log(`  failed: ${f}`);
  for (const step of BOOKING_STEPS) {
    const v = b.samples[step];
    console.log(
      `  ${step.padEnd(14)} p50 ${ms(percentile(v, 50)).padStart(9)}  p99 ${ms(percentile(v, 99)).padStart(9)}  (${v.length} samples)`,
    );
  }
}

// autocannon counts a timeout as a connection error too, so errors already include them.
const failedRequests = (r: LoadResult) => r.non2xx + r.errors;

async function main(): Promise<void> {
  console.log(
    `Ampere benchmark: ${settings.connections} connections, ${settings.seconds} s per run (after ${settings.warmupSeconds} s warm-up), ${size.vehicles} cars over ${size.locations} locations.`,
  );
  console.log(
    `The API and the load generator share this machine (${os.cpus().length} cores): figures are a floor, not a capacity.`,
  );

  console.log('\nBuilding the web app…');
  const bundle = measureBundle(ROOT);
  printBundle(bundle);

  console.log('\nPostgreSQL: creating a scratch database…');
  scratch = await createScratchPostgres(ADMIN_URL);
  let pg: {
    seedSeconds: number;
    vehicles: number;
    locations: number;
    search: SearchMeasurement;
    bare: LoadResult;
    booking: BookingResult;
  };
  try {
    const handle = await connectPostgres(scratch.url, 20);
    try {
      const seeded = await seedForBench(handle, size, new Date());
      console.log(
        `  seeded ${seeded.vehicles} cars over ${seeded.locations} locations in ${seeded.seedSeconds.toFixed(1)} s (database ${scratch.name})`,
      );
      const search = await measureSearch(handle, seeded.options, settings, scratch.url);
      printSearch('search', search);
      console.log(`Bare route with a ${kb(Buffer.byteLength(search.typicalBody))} JSON body:`);
      const bare = await measureBare(search.typicalBody, settings);
      console.log(describeLoad('bare', bare));
      console.log(
        `Booking path: ${booking.renters} renters at once, ${booking.rounds} rounds (sign in → create → add-ons → agreements → payment → card confirm → confirm → extend → cancel):`,
      );
      const booked = await measureBooking(handle, { ...booking, databaseUrl: scratch.url });
      printBooking(booked);
      pg = {
        seedSeconds: seeded.seedSeconds,
        vehicles: seeded.vehicles,
        locations: seeded.locations,
        search,
        bare,
        booking: booked,
      };
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
    scratch = null;
  }

  console.log('\nPGlite (embedded, in memory): seeding…');
  const lite = await openPGliteInMemory();
  let pglite: { seedSeconds: number; search: SearchMeasurement };
  try {
    const seeded = await seedForBench(lite, size, new Date());
    console.log(
      `  seeded ${seeded.vehicles} cars over ${seeded.locations} locations in ${seeded.seedSeconds.toFixed(1)} s`,
    );
    const search = await measureSearch(lite, seeded.options, settings);
    printSearch('search', search);
    pglite = { seedSeconds: seeded.seedSeconds, search };
  } finally {
    await lite.close();
  }

  console.log(`\nLighthouse (mobile, simulated throttling), ${lighthouse.runs} run(s) per page:`);
  const audits = await measureLighthouse(ROOT, lighthouse);
  console.log(formatLighthouse(audits, false));

  const ratio = pg.search.load.requestsPerSecond / pg.bare.requestsPerSecond;
  const rows: Row[] = [
    {
      measure: 'PostgreSQL seed time',
      value: `${pg.seedSeconds.toFixed(1)} s (${pg.vehicles} cars, ${pg.locations} locations)`,
    },
    { measure: 'PostgreSQL search throughput', value: rps(pg.search.load.requestsPerSecond) },
    { measure: 'PostgreSQL search p50', value: ms(pg.search.load.p50) },
    {
      measure: 'PostgreSQL search p99',
      value: ms(pg.search.load.p99),
      target: `≤ ${TARGETS.p99Ms} ms`,
      met: pg.search.load.p99 <= TARGETS.p99Ms,
    },
    {
      measure: 'PostgreSQL search non-2xx / errors (timeouts)',
      value: `${pg.search.load.non2xx} / ${pg.search.load.errors} (${pg.search.load.timeouts})`,
      target: '0',
      met: failedRequests(pg.search.load) === 0,
    },
    { measure: 'Bare route throughput (same body size)', value: rps(pg.bare.requestsPerSecond) },
    { measure: 'Bare route p50 / p99', value: `${ms(pg.bare.p50)} / ${ms(pg.bare.p99)}` },
    {
      measure: 'Throughput ratio search / bare',
      value: ratio.toFixed(3),
      target: `≥ ${TARGETS.ratio}`,
      met: ratio >= TARGETS.ratio,
    },
    ...BOOKING_STEPS.map((step) => ({
      measure: `Booking: ${step} p50 / p99 (${booking.renters} at once)`,
      value: `${ms(percentile(pg.booking.samples[step], 50))} / ${ms(percentile(pg.booking.samples[step], 99))}`,
    })),
    {
      measure: 'Booking: trips booked, paid, extended and cancelled',
      value: `${pg.booking.completed} of ${booking.renters * booking.rounds}`,
      target: 'all',
      met: pg.booking.completed === booking.renters * booking.rounds,
    },
    {
      measure: 'Typical search response',
      value: `${kb(pg.search.averageBytes)}, ${pg.search.averageItems.toFixed(0)} cars`,
    },
    { measure: 'PGlite seed time', value: `${pglite.seedSeconds.toFixed(1)} s` },
    { measure: 'PGlite search throughput', value: rps(pglite.search.load.requestsPerSecond) },
    { measure: 'PGlite search p50 / p99', value: `${ms(pglite.search.load.p50)} / ${ms(pglite.search.load.p99)}` },
    {
      measure: 'PGlite search non-2xx / errors (timeouts)',
      value: `${pglite.search.load.non2xx} / ${pglite.search.load.errors} (${pglite.search.load.timeouts})`,
      target: '0',
      met: failedRequests(pglite.search.load) === 0,
    },
    {
      measure: '/search JS + CSS before the map (gzip)',
      value: kb(bundle.totalGzipBytes),
      target: `≤ ${TARGETS.bundleKb} KB`,
      met: bundle.totalGzipBytes <= TARGETS.bundleKb * 1024,
    },
    ...audits.pages.map((p) => ({
      measure: `Lighthouse ${p.page}: performance (LCP, TBT, CLS)`,
      value: `${p.median.performance} (${(p.median.lcpMs / 1000).toFixed(2)} s, ${Math.round(p.median.tbtMs)} ms, ${p.median.cls.toFixed(3)})`,
      target: `≥ ${LIGHTHOUSE_TARGETS.performance}`,
      met: p.median.performance >= LIGHTHOUSE_TARGETS.performance,
    })),
    {
      measure: 'Map chunk + CSS + basemap data (gzip)',
      value: bundle.map ? kb(bundle.map.reduce((s, f) => s + f.gzipBytes, 0)) : 'not in the build',
    },
  ];
  console.log(
    `\nSummary (${settings.connections} connections, ${settings.seconds} s per run, API and load generator on one ${os.cpus().length}-core machine)\n`,
  );
  console.log(table(rows));
  // A non-2xx answer means the load measured errors, not searches: make that visible to CI.
  // Timeouts under overload are a figure (shown above), not a broken benchmark.
  if (pg.search.load.non2xx + pglite.search.load.non2xx + pg.bare.non2xx > 0 || pg.booking.failures.length > 0)
    process.exitCode = 1;
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
