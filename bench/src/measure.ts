import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '@ampere/api/src/app.ts';
import { loadConfig } from '@ampere/api/src/config.ts';
import type { DatabaseHandle } from '@ampere/api/src/db/connect.ts';
import { type LoadResult, runLoad } from './load.ts';
import type { SearchOptionRef } from './requests.ts';
import { searchPaths, seededRandom } from './requests.ts';

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface SearchMeasurement {
  load: LoadResult;
  averageBytes: number;
  averageItems: number;
  /** A real response whose size is closest to the average, for the bare route. */
  typicalBody: string;
  sampleFailures: number;
}

const PATH_COUNT = 4000;
const SAMPLE_COUNT = 100;

function originOf(address: string | { port: number } | null): string {
  if (!address || typeof address === 'string') throw new Error('The server has no TCP address.');
  return `http://127.0.0.1:${address.port}`;
}

export interface SearchServer {
  origin: string;
  paths: string[];
  averageBytes: number;
  averageItems: number;
  /** A real response whose size is closest to the average, for the bare route. */
  typicalBody: string;
  sampleFailures: number;
  close: () => Promise<void>;
}

/** The real API over the given database, listening on a free port of 127.0.0.1, its typical response sized. */
export async function startSearchServer(
  handle: DatabaseHandle,
  options: SearchOptionRef[],
  databaseUrl?: string,
): Promise<SearchServer> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-api-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: scratch,
    // No built web app is served here: only the API is measured.
    WEB_DIST: path.join(scratch, 'no-web'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ config, db: handle.db, clock: () => new Date() });
  const close = async () => {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const paths = searchPaths(options, new Date(), PATH_COUNT, seededRandom(20261122));
    // Size a typical response first (this also warms the caches the way a running server has them).
    let failures = 0;
    const bodies: { body: string; items: number }[] = [];
    for (const url of paths.slice(0, SAMPLE_COUNT)) {
      const res = await app.inject({ method: 'GET', url });
      if (res.statusCode !== 200) {
        failures += 1;
        if (failures === 1) console.log(`  sample request failed: ${res.statusCode} ${url} ${res.body.slice(0, 200)}`);
        continue;
      }
      bodies.push({ body: res.body, items: (JSON.parse(res.body) as { items: unknown[] }).items.length });
    }
    if (bodies.length === 0) throw new Error('Every sampled search failed; nothing to measure.');
    const averageBytes = bodies.reduce((s, b) => s + Buffer.byteLength(b.body), 0) / bodies.length;
    const averageItems = bodies.reduce((s, b) => s + b.items, 0) / bodies.length;
    const typical = bodies.reduce((best, b) =>
      Math.abs(Buffer.byteLength(b.body) - averageBytes) < Math.abs(Buffer.byteLength(best.body) - averageBytes)
        ? b
        : best,
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      origin: originOf(app.server.address()),
      paths,
      averageBytes,
      averageItems,
      typicalBody: typical.body,
      sampleFailures: failures,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The real API over the given database, loaded with varied searches once (after its warm-up). */
export async function measureSearch(
  handle: DatabaseHandle,
  options: SearchOptionRef[],
  settings: LoadSettings,
  databaseUrl?: string,
): Promise<SearchMeasurement> {
  const server = await startSearchServer(handle, options, databaseUrl);
  try {
    const { origin, paths } = server;
    if (settings.warmupSeconds > 0)
      await runLoad({ origin, paths, connections: settings.connections, seconds: settings.warmupSeconds });
    const load = await runLoad({ origin, paths, connections: settings.connections, seconds: settings.seconds });
    return { load, ...server };
  } finally {
    await server.close();
  }
}

/** The floor to compare with: a bare Fastify route sending a fixed JSON body of the same size. */
export async function startBareServer(body: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { origin: originOf(app.server.address()), close: () => app.close() };
}

export interface Rounds {
  search: LoadResult[];
  bare: LoadResult[];
  /** Search over bare throughput, round by round. */
  ratios: number[];
}

/**
 * The bare route's own figure swings by a third from one run to the next, so one ratio says
 * little: bare, then search, `rounds` times over, each after one warm-up of both.
 */
export async function measureRounds(
  search: Pick<SearchServer, 'origin' | 'paths'>,
  bare: { origin: string },
  settings: LoadSettings,
  rounds: number,
  log: (line: string) => void,
): Promise<Rounds> {
  const load = (origin: string, paths: string[], seconds: number) =>
    runLoad({ origin, paths, connections: settings.connections, seconds });
  if (settings.warmupSeconds > 0) {
    await load(bare.origin, ['/bare'], settings.warmupSeconds);
    await load(search.origin, search.paths, settings.warmupSeconds);
  }
  const result: Rounds = { search: [], bare: [], ratios: [] };
  for (let round = 1; round <= rounds; round++) {
    const b = await load(bare.origin, ['/bare'], settings.seconds);
    const s = await load(search.origin, search.paths, settings.seconds);
    result.bare.push(b);
    result.search.push(s);
    result.ratios.push(s.requestsPerSecond / b.requestsPerSecond);
    log(
      `  round ${round}: bare ${b.requestsPerSecond.toFixed(0)} req/s (p99 ${b.p99.toFixed(1)} ms), search ${s.requestsPerSecond.toFixed(0)} req/s (p99 ${s.p99.toFixed(1)} ms), ratio ${(s.requestsPerSecond / b.requestsPerSecond).toFixed(3)}`,
    );
  }
  return result;
}
