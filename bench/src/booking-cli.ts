/**
 * `npm run bench:booking`: the booking path alone (part 4 of `npm run bench`) on a scratch
 * PostgreSQL database with a smaller synthetic fleet: renters at once through sign in → create →
 * add-ons → agreements → payment → card confirm → confirm → extend → cancel, p50 and p99 of each
 * step printed beside the target and recorded in bench/results/.
 */
import os from 'node:os';
import path from 'node:path';
import { describeBooking, extendWaitFigures, measureBooking, percentile } from './booking.ts';
import { connectPostgres, createScratchPostgres, seedForBench } from './databases.ts';
import { newRecord } from './record.ts';
import { summarizeAndRecord } from './report.ts';
import { BOOKING_STEPS } from './targets.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min}.`);
  return value;
}
const api = process.env.BENCH_BOOKING_API ?? 'in-process';
if (api !== 'in-process' && api !== 'process') throw new Error('BENCH_BOOKING_API is `in-process` or `process`.');
const settings = {
  vehicles: envInt('BENCH_VEHICLES', 2_000, 1),
  locations: envInt('BENCH_LOCATIONS', 20, 5),
  renters: envInt('BENCH_RENTERS', 20, 1),
  rounds: envInt('BENCH_BOOKING_ROUNDS', 3, 1),
  warmupRounds: envInt('BENCH_BOOKING_WARMUP_ROUNDS', 1, 0),
  api,
};
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const record = newRecord(root, 'booking', settings);
  const scratch = await createScratchPostgres(ADMIN_URL);
  try {
    const handle = await connectPostgres(scratch.url);
    try {
      const seeded = await seedForBench(handle, settings, new Date());
      console.log(
        `Seeded ${seeded.vehicles} cars over ${seeded.locations} locations in ${seeded.seedSeconds.toFixed(1)} s.`,
      );
      console.log(
        `Booking path: ${settings.renters} renters at once, ${settings.rounds} rounds after ${settings.warmupRounds} unmeasured, the API ${api === 'process' ? 'in a process of its own' : 'in this process (as `npm run bench`)'}; ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}:`,
      );
      const booked = await measureBooking(handle, {
        ...settings,
        databaseUrl: scratch.url,
        apiProcess: api === 'process',
      });
      for (const line of describeBooking(booked)) console.log(line);
      const prefix = api === 'process' ? 'booking-apart' : 'booking';
      for (const step of BOOKING_STEPS) {
        record.figures[`${prefix}.${step}.p50`] = percentile(booked.samples[step], 50);
        record.figures[`${prefix}.${step}.p99`] = percentile(booked.samples[step], 99);
      }
      if (prefix === 'booking') Object.assign(record.figures, extendWaitFigures(prefix, booked));
      if (booked.apiCpuMs !== undefined)
        record.figures['booking-apart.cpu-per-trip'] = booked.apiCpuMs / (settings.renters * settings.rounds);
      if (booked.databaseCpuMs !== undefined)
        record.figures[`${prefix}.database-cpu-per-trip`] = booked.databaseCpuMs / (settings.renters * settings.rounds);
      if (booked.machineCpuMs !== undefined)
        record.figures[`${prefix}.machine-cpu-per-trip`] = booked.machineCpuMs / (settings.renters * settings.rounds);
      if (booked.failures.length > 0) process.exitCode = 1;
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
