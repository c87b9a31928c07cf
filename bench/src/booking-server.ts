/**
 * The API alone in its own process for the booking load (`npm run bench:booking` with
 * `BENCH_BOOKING_API=process`): started with `fork` and the database's URL as its argument, it
 * listens on a free port of 127.0.0.1 with the booking load's settings and sends `{ port }`.
 * Asked `'cpu'`, it sends `{ cpu: process.cpuUsage() }`. Told `'stop'` (or when its parent goes), it
 * closes and exits, writing a CPU profile if asked to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@ampere/api/src/app.ts';
import { connectPostgres } from '@ampere/api/src/db/connect.ts';
import { bookingConfig } from './booking.ts';

async function main(): Promise<void> {
  const databaseUrl = process.argv[2];
  if (!databaseUrl || !process.send) throw new Error('Start this with fork(), the database URL as the argument.');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-booking-api-'));
  const config = bookingConfig(scratch, databaseUrl);
  // The pool a deployment gets by default (DATABASE_POOL_SIZE).
  const handle = await connectPostgres(databaseUrl, config.databasePoolSize);
  const app = await buildApp({ config, db: handle.db, clock: () => new Date() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no TCP address.');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await handle.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
    if (message === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.send({ port: address.port });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
