/**
 * Every figure the benchmarks record, what it is called, which way is better and, where there is
 * one, today's target (issue 27). The one place to change a target: the summary, the Lighthouse
 * table, the bundle check and the record all read it from here.
 */

export type Better = 'lower' | 'higher';
export type Unit = 'ms' | 's' | 'req/s' | 'KB' | 'MB' | 'score' | 'ratio';

export interface FigureSpec {
  label: string;
  unit: Unit;
  better: Better;
  /** At most this (better: lower) or at least this (better: higher). */
  target?: number;
}

/** The booking path's steps, in order (bench/src/booking.ts measures each). */
export const BOOKING_STEPS = [
  'sign in',
  'create',
  'add-ons',
  'agreements',
  'payment',
  'card confirm',
  'confirm',
  'extend',
  'cancel',
] as const;
export type BookingStep = (typeof BOOKING_STEPS)[number];

/**
 * The extend step as its renter waits for it: the new dates priced, then "Extend Trip" to the pay page
 * loaded, then paying to the trip confirmed, with a page to read between each (decision 111). Figures
 * only: the step's target stays on the five requests together.
 */
export const EXTEND_WAITS = ['new dates priced', 'to the pay page', 'paid and confirmed'] as const;
export type ExtendWait = (typeof EXTEND_WAITS)[number];

/** The renter pages Lighthouse audits, as labelled in its table. */
export const LIGHTHOUSE_PAGES = [
  '/search',
  '/vehicle/{vin}',
  '/login',
  '/ (signed in)',
  '/trips',
  '/trip/{id}',
] as const;

export const TARGETS = {
  /** PostgreSQL, 20,000 cars, 50 connections. */
  searchP99Ms: 20,
  /** Search throughput over the bare route's with a body of the same size. */
  searchBareRatio: 0.75,
  /** Each booking step, sign-in and card confirm, extend and cancel included. */
  bookingStepP99Ms: 300,
  lighthouse: { performance: 95, lcpMs: 2000, tbtMs: 100, cls: 0.02, accessibility: 100, bestPractices: 100 },
  /** The map's first pin after the results (search) or the trip (trip page), at 1280 px unthrottled (issue 28). */
  pinsAfterResultsMs: 1000,
  /** What /search downloads before the map, gzip. */
  searchBundleKb: 150,
  /** `npm start` to a healthy server, cold (no build) and warm (nothing changed). */
  startToHealthyS: 15,
  /** The fleet's CSV import of 10,000 cars, request to answer (issue 29). */
  fleetImport10kS: 30,
  /** `npm run bench:scale` at 1,000,000 cars over 10,000 locations, 50 connections (issue 27 item 5). */
  scaleSearchP99Ms: 40,
  /** The API process's peak resident memory, same run. */
  scaleApiRssMb: 1536,
  /** The console's today board and lookups, 200,000 cars over 2,000 locations (issue 29, `npm run bench:ops-day`). */
  opsDayP99Ms: 300,
} as const;

/**
 * The fleets `npm run bench:scale` measures side by side: a hundred cars a location and five
 * locations a metro, so a search reads about 500 cars at every size.
 */
export const SCALE_SIZES = [
  { label: '20k', vehicles: 20_000, locations: 200 },
  { label: '200k', vehicles: 200_000, locations: 2_000 },
  { label: '1M', vehicles: 1_000_000, locations: 10_000 },
] as const;
export const SCALE_TARGET_VEHICLES = 1_000_000;

/** The console calls `npm run bench:ops-day` loads, as labelled in its figures. */
export const OPS_DAY_CALLS = [
  'today board',
  'lookup by phone',
  'lookup by name',
  'lookup by email',
  'lookup by VIN end',
  'lookup by reference',
  'trip timeline',
] as const;

const lh = TARGETS.lighthouse;

function catalogue(): Record<string, FigureSpec> {
  const figures: Record<string, FigureSpec> = {
    'start.cold': {
      label: '`npm start` to healthy, cold (no build, new data)',
      unit: 's',
      better: 'lower',
      target: TARGETS.startToHealthyS,
    },
    'start.warm': {
      label: '`npm start` to healthy, warm (unchanged)',
      unit: 's',
      better: 'lower',
      target: TARGETS.startToHealthyS,
    },
    'start.cold.build': { label: 'cold start: build', unit: 's', better: 'lower' },
    'start.cold.server': { label: 'cold start: server start (its own figure)', unit: 's', better: 'lower' },
    'start.warm.build': { label: 'warm start: build check', unit: 's', better: 'lower' },
    'start.warm.server': { label: 'warm start: server start (its own figure)', unit: 's', better: 'lower' },
    'bundle.search': {
      label: '/search JS + CSS before the map (gzip)',
      unit: 'KB',
      better: 'lower',
      target: TARGETS.searchBundleKb,
    },
    'map.pins./search': {
      label: '/search: first map pin after the results',
      unit: 'ms',
      better: 'lower',
      target: TARGETS.pinsAfterResultsMs,
    },
    'map.pins./trip/{id}': {
      label: '/trip/{id}: first map pin after the trip',
      unit: 'ms',
      better: 'lower',
      target: TARGETS.pinsAfterResultsMs,
    },
    'bundle.map': { label: 'Map chunk + CSS + basemap data (gzip)', unit: 'KB', better: 'lower' },
    'pg.seed': { label: 'PostgreSQL seed time', unit: 's', better: 'lower' },
    'pg.search.rps': { label: 'PostgreSQL search throughput (median of rounds)', unit: 'req/s', better: 'higher' },
    'pg.search.p50': { label: 'PostgreSQL search p50', unit: 'ms', better: 'lower' },
    'pg.search.p99': { label: 'PostgreSQL search p99', unit: 'ms', better: 'lower', target: TARGETS.searchP99Ms },
    'bare.rps': { label: 'Bare route throughput (same body size)', unit: 'req/s', better: 'higher' },
    'bare.p99': { label: 'Bare route p99', unit: 'ms', better: 'lower' },
    'pg.search.ratio': {
      label: 'Throughput ratio search / bare',
      unit: 'ratio',
      better: 'higher',
      target: TARGETS.searchBareRatio,
    },
    'pglite.seed': { label: 'PGlite seed time', unit: 's', better: 'lower' },
    'pglite.search.rps': { label: 'PGlite search throughput', unit: 'req/s', better: 'higher' },
    'pglite.search.p99': { label: 'PGlite search p99', unit: 'ms', better: 'lower' },
    'import.pg.dryRun': { label: 'CSV import, 10,000 cars, PostgreSQL: dry run', unit: 's', better: 'lower' },
    'import.pg.commit': {
      label: 'CSV import, 10,000 cars, PostgreSQL: import',
      unit: 's',
      better: 'lower',
      target: TARGETS.fleetImport10kS,
    },
    'import.pglite.dryRun': { label: 'CSV import, 10,000 cars, PGlite: dry run', unit: 's', better: 'lower' },
    'import.pglite.commit': {
      label: 'CSV import, 10,000 cars, PGlite: import',
      unit: 's',
      better: 'lower',
      target: TARGETS.fleetImport10kS,
    },
  };
  for (const { label, vehicles } of SCALE_SIZES) {
    const at = (what: string, spec: FigureSpec) => {
      figures[`scale.${label}.${what}`] = spec;
    };
    const cars = `${vehicles.toLocaleString('en-US')} cars`;
    const targeted = vehicles === SCALE_TARGET_VEHICLES;
    at('seed', { label: `Scale, ${cars}: seed time`, unit: 's', better: 'lower' });
    at('index', { label: `Scale, ${cars}: search index load`, unit: 's', better: 'lower' });
    at('rps', { label: `Scale, ${cars}: search throughput`, unit: 'req/s', better: 'higher' });
    at('p50', { label: `Scale, ${cars}: search p50`, unit: 'ms', better: 'lower' });
    at('p99', {
      label: `Scale, ${cars}: search p99`,
      unit: 'ms',
      better: 'lower',
      ...(targeted ? { target: TARGETS.scaleSearchP99Ms } : {}),
    });
    at('rss', {
      label: `Scale, ${cars}: API resident memory (peak)`,
      unit: 'MB',
      better: 'lower',
      ...(targeted ? { target: TARGETS.scaleApiRssMb } : {}),
    });
  }
  figures['ops-day.seed'] = { label: 'Console at scale: seed time', unit: 's', better: 'lower' };
  for (const call of OPS_DAY_CALLS) {
    figures[`ops-day.${call}.p50`] = { label: `Console at scale: ${call} p50`, unit: 'ms', better: 'lower' };
    figures[`ops-day.${call}.p99`] = {
      label: `Console at scale: ${call} p99`,
      unit: 'ms',
      better: 'lower',
      target: TARGETS.opsDayP99Ms,
    };
  }
  for (const prefix of ['booking', 'booking-apart'])
    figures[`${prefix}.database-cpu-per-trip`] = {
      label: `Booking${prefix === 'booking' ? '' : ', API in its own process'}: PostgreSQL's CPU per trip`,
      unit: 'ms',
      better: 'lower',
    };
  for (const prefix of ['booking', 'booking-apart'])
    figures[`${prefix}.machine-cpu-per-trip`] = {
      label: `Booking${prefix === 'booking' ? '' : ', API in its own process'}: the whole machine's CPU per trip`,
      unit: 'ms',
      better: 'lower',
    };
  figures['booking-apart.cpu-per-trip'] = {
    label: "Booking, API in its own process: the API's CPU per trip",
    unit: 'ms',
    better: 'lower',
  };
  for (const step of BOOKING_STEPS) {
    figures[`booking.${step}.p50`] = { label: `Booking: ${step} p50`, unit: 'ms', better: 'lower' };
    figures[`booking.${step}.p99`] = {
      label: `Booking: ${step} p99`,
      unit: 'ms',
      better: 'lower',
      target: TARGETS.bookingStepP99Ms,
    };
    // `bench:booking` with the API in a process of its own (the renters' clients off its event loop).
    figures[`booking-apart.${step}.p50`] = {
      label: `Booking, API in its own process: ${step} p50`,
      unit: 'ms',
      better: 'lower',
    };
    figures[`booking-apart.${step}.p99`] = {
      label: `Booking, API in its own process: ${step} p99`,
      unit: 'ms',
      better: 'lower',
      target: TARGETS.bookingStepP99Ms,
    };
  }
  for (const wait of EXTEND_WAITS)
    for (const p of ['p50', 'p99'])
      figures[`booking.extend: ${wait}.${p}`] = {
        label: `Booking: extend, ${wait} ${p}`,
        unit: 'ms',
        better: 'lower',
      };
  figures['lighthouse.benchmarkIndex'] = {
    label: "Lighthouse: the host's CPU (benchmarkIndex; TBT's 4× slowdown is relative to it)",
    unit: 'score',
    better: 'higher',
  };
  for (const page of LIGHTHOUSE_PAGES) {
    const at = (what: string, spec: Omit<FigureSpec, 'label'>) => {
      figures[`lighthouse.${page}.${what}`] = { label: `Lighthouse ${page}: ${what}`, ...spec };
    };
    at('performance', { unit: 'score', better: 'higher', target: lh.performance });
    at('LCP', { unit: 'ms', better: 'lower', target: lh.lcpMs });
    at('TBT', { unit: 'ms', better: 'lower', target: lh.tbtMs });
    at('CLS', { unit: 'score', better: 'lower', target: lh.cls });
    at('accessibility', { unit: 'score', better: 'higher', target: lh.accessibility });
    at('best practices', { unit: 'score', better: 'higher', target: lh.bestPractices });
  }
  return figures;
}

/** Every figure by id, in the order the summary prints them. */
export const FIGURES: Readonly<Record<string, FigureSpec>> = catalogue();

/** Figures every full run prints even when nothing measured them (the scale mode is another run's). */
export const ALWAYS_SHOWN = ['scale.1M.p99', 'scale.1M.rss'];

export function meetsTarget(spec: FigureSpec, value: number): boolean | undefined {
  if (spec.target === undefined) return undefined;
  return spec.better === 'lower' ? value <= spec.target : value >= spec.target;
}
