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

/** The real API over the given database, on a free port of 127.0.0.1, loaded with varied searches. */
export async function measureSearch(
  handle: DatabaseHandle,
  options: SearchOptionRef[],
  settings: LoadSettings,
  databaseUrl?: string,
): Promise<SearchMeasurement> {
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
    const origin = originOf(app.server.address());
    if (settings.warmupSeconds > 0)
      await runLoad({ origin, paths, connections: settings.connections, seconds: settings.warmupSeconds });
    const load = await runLoad({ origin, paths, connections: settings.connections, seconds: settings.seconds });
    return { load, averageBytes, averageItems, typicalBody: typical.body, sampleFailures: failures };
  } finally {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The floor to compare with: a bare Fastify route sending a fixed JSON body of the same size. */
export async function measureBare(body: string, settings: LoadSettings): Promise<LoadResult> {
  const app = Fastify({ logger: false });
  app.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = originOf(app.server.address());
    if (settings.warmupSeconds > 0)
      await runLoad({ origin, paths: ['/bare'], connections: settings.connections, seconds: settings.warmupSeconds });
    return await runLoad({ origin, paths: ['/bare'], connections: settings.connections, seconds: settings.seconds });
  } finally {
    await app.close();
  }
}
