/**
 * `npm run bench:ops-day`: the console's today board and lookups at scale (issue 29): 200,000
 * cars over 2,000 locations on a scratch PostgreSQL database, their trips given renters and the
 * cars battery readings; each call loaded in turn, p50 and p99 printed beside the target and
 * recorded in bench/results/.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectPostgres, createScratchPostgres, seedForBench } from './databases.ts';
import { addRentersAndBatteries, measureOpsDay, opsDayPaths, secondsSince } from './ops-day.ts';
import { newRecord } from './record.ts';
import { describeLoad, summarizeAndRecord } from './report.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  vehicles: num('BENCH_OPS_VEHICLES', 200_000),
  locations: num('BENCH_OPS_LOCATIONS', 2_000),
  renters: num('BENCH_OPS_RENTERS', 50_000),
  connections: num('BENCH_OPS_CONNECTIONS', 10),
  seconds: num('BENCH_OPS_SECONDS', 5),
  warmupSeconds: num('BENCH_OPS_WARMUP_SECONDS', 1),
};
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const record = newRecord(root, 'ops-day', settings);
  const scratch = await createScratchPostgres(ADMIN_URL);
  try {
    const handle = await connectPostgres(scratch.url, 20);
    try {
      const started = performance.now();
      const seeded = await seedForBench(handle, settings, new Date());
      await addRentersAndBatteries(handle, settings.renters);
      const seedSeconds = secondsSince(started);
      record.figures['ops-day.seed'] = seedSeconds;
      console.log(
        `Seeded ${seeded.vehicles} cars over ${seeded.locations} locations and ${settings.renters} renters in ${seedSeconds.toFixed(1)} s.`,
      );
      const paths = await opsDayPaths(handle, 2_000);
      await measureOpsDay(handle, paths, { ...settings, databaseUrl: scratch.url }, ({ call, load }) => {
        console.log(describeLoad(`${call} (${settings.connections} connections)`, load));
        record.figures[`ops-day.${call}.p50`] = load.p50;
        record.figures[`ops-day.${call}.p99`] = load.p99;
        if (load.non2xx > 0 || load.errors > 0) {
          console.log(`  ${call}: ${load.non2xx} non-2xx and ${load.errors} errors`, load.statusCounts);
          process.exitCode = 1;
        }
      });
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
  }
  console.log('');
  summarizeAndRecord(root, record);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
