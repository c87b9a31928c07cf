/**
 * `npm run bench:scale`: search at 20,000, 200,000 and 1,000,000 cars on PostgreSQL (issue 27
 * item 5), side by side — seed time, search index load, search throughput, p50 and p99 at 50
 * connections, and the API process's resident memory — beside the previous record and the targets.
 */
import os from 'node:os';
import path from 'node:path';
import { newRecord } from './record.ts';
import { grid, summarizeAndRecord } from './report.ts';
import { type ScaleResult, measureScale } from './scale.ts';
import { SCALE_SIZES, TARGETS } from './targets.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number.`);
  return value;
};
const wanted = (process.env.BENCH_SCALE_SIZES ?? SCALE_SIZES.map((s) => s.label).join(','))
  .split(',')
  .map((s) => s.trim());
const sizes = SCALE_SIZES.filter((s) => wanted.includes(s.label));
if (sizes.length === 0)
  throw new Error(`BENCH_SCALE_SIZES names none of ${SCALE_SIZES.map((s) => s.label).join(', ')}.`);
const settings = {
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  connections: num('BENCH_CONNECTIONS', 50),
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 2),
};

async function main(): Promise<void> {
  const record = newRecord(root, 'scale', {
    sizes: sizes.map((s) => s.label),
    connections: settings.connections,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
  });
  console.log(
    `Search at scale on PostgreSQL, ${settings.connections} connections, ${settings.seconds} s after ${settings.warmupSeconds} s warm-up (${os.cpus().length} cores; API, PostgreSQL and the load generator share them).`,
  );
  const results: { label: string; result: ScaleResult }[] = [];
  for (const size of sizes) {
    console.log(
      `\n${size.vehicles.toLocaleString('en-US')} cars over ${size.locations.toLocaleString('en-US')} locations:`,
    );
    const result = await measureScale(size, settings, (line) => console.log(line));
    results.push({ label: size.label, result });
    const { load } = result;
    console.log(
      `  search: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms; ${load.non2xx} non-2xx, ${load.errors} errors (${load.timeouts} timeouts); API resident ${result.rssAfterLoadMb.toFixed(0)} MB, peak ${result.rssPeakMb.toFixed(0)} MB; load average ${result.loadAverage.end.toFixed(2)}`,
    );
    Object.assign(record.figures, {
      [`scale.${size.label}.seed`]: result.seedSeconds,
      [`scale.${size.label}.index`]: result.indexSeconds,
      [`scale.${size.label}.rps`]: load.requestsPerSecond,
      [`scale.${size.label}.p50`]: load.p50,
      [`scale.${size.label}.p99`]: load.p99,
      [`scale.${size.label}.rss`]: result.rssPeakMb,
    });
    if (load.non2xx > 0) process.exitCode = 1;
  }

  const row = (measure: string, f: (r: ScaleResult) => string) => [measure, ...results.map((r) => f(r.result))];
  console.log('\nSide by side (a search reads its metro: about 500 cars at every size):\n');
  console.log(
    grid(
      ['', ...results.map((r) => `${r.result.vehicles.toLocaleString('en-US')} cars`)],
      [
        row('locations', (r) => r.locations.toLocaleString('en-US')),
        row('cars per metro', (r) => String(r.carsPerMetro)),
        row('seed time', (r) => `${r.seedSeconds.toFixed(1)} s`),
        row('search index load', (r) => `${r.indexSeconds.toFixed(1)} s`),
        row('search throughput', (r) => `${r.load.requestsPerSecond.toFixed(0)} req/s`),
        row('search p50', (r) => `${r.load.p50.toFixed(1)} ms`),
        row('search p99', (r) => `${r.load.p99.toFixed(1)} ms`),
        row('API resident, index loaded', (r) => `${r.rssAfterIndexMb.toFixed(0)} MB`),
        row('API resident, after the load', (r) => `${r.rssAfterLoadMb.toFixed(0)} MB`),
        row('API resident, peak', (r) => `${r.rssPeakMb.toFixed(0)} MB`),
        row('JS heap used / typed arrays', (r) => `${r.heapUsedMb.toFixed(0)} / ${r.arrayBuffersMb.toFixed(0)} MB`),
        row(
          'GC pauses during the load: count, sum, longest',
          (r) => `${r.gc.count}, ${r.gc.totalMs.toFixed(0)} ms, ${r.gc.maxMs.toFixed(0)} ms`,
        ),
        row('non-2xx / errors', (r) => `${r.load.non2xx} / ${r.load.errors}`),
        row('load average (start → end)', (r) => `${r.loadAverage.start.toFixed(2)} → ${r.loadAverage.end.toFixed(2)}`),
      ],
    ),
  );
  console.log(
    `\nTargets at 1,000,000 cars: search p99 ≤ ${TARGETS.scaleSearchP99Ms} ms, API resident memory ≤ ${TARGETS.scaleApiRssMb} MB. A figure taken under load (load average above the core count) is the machine's, not a target miss.\n`,
  );
  summarizeAndRecord(root, record);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
