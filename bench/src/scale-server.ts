/**
 * The API alone in its own process, for `npm run bench:scale`: its resident memory is then the
 * API's, not the load generator's. Started with `fork` and the database's URL as its argument;
 * it loads the search index, listens on a free port of 127.0.0.1 and sends
 * `{ port, indexSeconds, memory }`. Asked `'memory'`, it sends `process.memoryUsage()` again and
 * the garbage collector's pauses since.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { buildApp } from '@ampere/api/src/app.ts';
import { loadConfig } from '@ampere/api/src/config.ts';
import { connectPostgres } from '@ampere/api/src/db/connect.ts';

/** Garbage collection since the index was loaded: how many pauses, their sum and the longest (ms). */
export interface GcPauses {
  count: number;
  totalMs: number;
  maxMs: number;
}

export interface ScaleServerReady {
  port: number;
  /** The search index's first read of the fleet and reservations. */
  indexSeconds: number;
  memory: NodeJS.MemoryUsage;
}

async function main(): Promise<void> {
  const databaseUrl = process.argv[2];
  if (!databaseUrl || !process.send) throw new Error('Start this with fork(), the database URL as the argument.');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-scale-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: scratch,
    WEB_DIST: path.join(scratch, 'no-web'),
    DATABASE_URL: databaseUrl,
  });
  const handle = await connectPostgres(databaseUrl, 20);
  const app = await buildApp({ config, db: handle.db, clock: () => new Date() });
  const started = performance.now();
  await app.searchIndex.ensureFresh();
  const indexSeconds = (performance.now() - started) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const gc: GcPauses = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no TCP address.');
  const stop = async () => {
    await app.close();
    await handle.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'memory') process.send!({ memory: process.memoryUsage(), gc });
    if (message === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  const ready: ScaleServerReady = { port: address.port, indexSeconds, memory: process.memoryUsage() };
  process.send(ready);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
