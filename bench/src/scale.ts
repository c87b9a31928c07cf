/**
 * One size of `npm run bench:scale`: a scratch PostgreSQL database seeded with the demo catalogue
 * and `seedScale`, the API started in a process of its own (so its resident memory is the API's),
 * then varied searches loaded at 50 connections.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { connectPostgres, createScratchPostgres, seedForBench } from './databases.ts';
import { type LoadResult, runLoad } from './load.ts';
import { type SearchOptionRef, searchPaths, seededRandom } from './requests.ts';
import type { GcPauses, ScaleServerReady } from './scale-server.ts';

export interface ScaleSettings {
  adminUrl: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface ScaleResult {
  vehicles: number;
  locations: number;
  /** Cars a search reads: those of its metro. */
  carsPerMetro: number;
  seedSeconds: number;
  indexSeconds: number;
  load: LoadResult;
  /** The API process's resident memory once the index was loaded, after the load, and its peak (MB). */
  rssAfterIndexMb: number;
  rssAfterLoadMb: number;
  rssPeakMb: number;
  heapUsedMb: number;
  /** Memory outside the JS heap: typed arrays and buffers (MB). */
  arrayBuffersMb: number;
  gc: GcPauses;
  loadAverage: { start: number; end: number };
}

const MB = 1024 * 1024;

/** VmRSS and VmHWM (the peak) of a process, in MB, from /proc. */
export function residentMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function startApi(databaseUrl: string): Promise<{ child: ChildProcess; ready: ScaleServerReady }> {
  const child = fork(new URL('./scale-server.ts', import.meta.url), [databaseUrl], {
    // BENCH_API_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=prof`, profiles the API alone.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const limit = setTimeout(() => {
      child.kill();
      reject(new Error('The API did not load its search index within 10 minutes.'));
    }, 600_000);
    child.once('message', (ready: ScaleServerReady) => {
      clearTimeout(limit);
      resolve({ child, ready });
    });
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`The API stopped before it was ready (exit code ${code}).`));
    });
  });
}

function askMemory(child: ChildProcess): Promise<{ memory: NodeJS.MemoryUsage; gc: GcPauses }> {
  return new Promise((resolve) => {
    child.once('message', (m: { memory: NodeJS.MemoryUsage; gc: GcPauses }) => resolve(m));
    child.send('memory');
  });
}

function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.send('stop');
  });
}

export interface ApiMeasurement {
  indexSeconds: number;
  load: LoadResult;
  rssAfterIndexMb: number;
  rssAfterLoadMb: number;
  rssPeakMb: number;
  heapUsedMb: number;
  arrayBuffersMb: number;
  /** Garbage collection pauses during the warm-up and the load. */
  gc: GcPauses;
}

/** The API in its own process over a seeded database: index load, then searches at `connections`. */
export async function measureApi(
  databaseUrl: string,
  options: SearchOptionRef[],
  settings: Omit<ScaleSettings, 'adminUrl'>,
  log: (line: string) => void,
): Promise<ApiMeasurement> {
  const { child, ready } = await startApi(databaseUrl);
  try {
    const pid = child.pid!;
    const afterIndex = residentMb(pid);
    log(
      `  API (its own process) loaded the search index in ${ready.indexSeconds.toFixed(1)} s: resident ${afterIndex.rss.toFixed(0)} MB, JS heap ${(ready.memory.heapUsed / MB).toFixed(0)} MB, typed arrays and buffers ${(ready.memory.arrayBuffers / MB).toFixed(0)} MB`,
    );
    const origin = `http://127.0.0.1:${ready.port}`;
    const paths = searchPaths(options, new Date(), 4000, seededRandom(20261122));
    const first = await fetch(`${origin}${paths[0]}`);
    if (first.status !== 200) throw new Error(`A search answered ${first.status}: ${await first.text()}`);
    if (settings.warmupSeconds > 0)
      await runLoad({ origin, paths, connections: settings.connections, seconds: settings.warmupSeconds });
    const load = await runLoad({ origin, paths, connections: settings.connections, seconds: settings.seconds });
    const { memory, gc } = await askMemory(child);
    const after = residentMb(pid);
    return {
      indexSeconds: ready.indexSeconds,
      load,
      rssAfterIndexMb: afterIndex.rss,
      rssAfterLoadMb: after.rss,
      rssPeakMb: after.peak,
      heapUsedMb: memory.heapUsed / MB,
      arrayBuffersMb: memory.arrayBuffers / MB,
      gc,
    };
  } finally {
    await stopApi(child);
  }
}

/** One size: a scratch database seeded (timed), the API measured over it, the database dropped. */
export async function measureScale(
  size: { vehicles: number; locations: number },
  settings: ScaleSettings,
  log: (line: string) => void,
): Promise<ScaleResult> {
  const loadStart = os.loadavg()[0]!;
  const scratch = await createScratchPostgres(settings.adminUrl);
  try {
    const handle = await connectPostgres(scratch.url, 5);
    let seeded: Awaited<ReturnType<typeof seedForBench>>;
    try {
      seeded = await seedForBench(handle, size, new Date());
    } finally {
      await handle.close();
    }
    log(
      `  seeded ${seeded.vehicles.toLocaleString('en-US')} cars over ${seeded.locations.toLocaleString('en-US')} locations in ${seeded.seedSeconds.toFixed(1)} s`,
    );
    const api = await measureApi(scratch.url, seeded.options, settings, log);
    return {
      vehicles: seeded.vehicles,
      locations: seeded.locations,
      carsPerMetro: Math.round(size.vehicles / Math.ceil(size.locations / 5)),
      seedSeconds: seeded.seedSeconds,
      ...api,
      loadAverage: { start: loadStart, end: os.loadavg()[0]! },
    };
  } finally {
    await scratch.drop();
  }
}
