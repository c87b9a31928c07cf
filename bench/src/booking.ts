/**
 * The booking path under concurrency: renters at once, each signing in and going create →
 * add-ons → agreements → payment → confirm → extend a day (paid) → cancel against the real API on a port, with the built-in
 * SMS sender and sandbox gateway. Prints p50/p99 per step.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildApp } from '@ampere/api/src/app.ts';
import { sql } from 'kysely';
import { loadConfig } from '@ampere/api/src/config.ts';
import { VERIFY_ATTEMPTS_PER_IP_PER_HOUR } from '@ampere/api/src/features/auth/service.ts';
import type { DatabaseHandle } from '@ampere/api/src/db/connect.ts';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { addDays, todayIn } from '@ampere/domain/time';
import { ms } from './report.ts';
import { BOOKING_STEPS, type BookingStep, EXTEND_WAITS, type ExtendWait, TARGETS } from './targets.ts';

export { BOOKING_STEPS, type BookingStep };

export interface BookingResult {
  renters: number;
  rounds: number;
  completed: number;
  failures: string[];
  /** Milliseconds per step, every sample. */
  samples: Record<BookingStep, number[]>;
  /** Milliseconds per wait within extend, every sample (decision 111). */
  extendWaits: Record<ExtendWait, number[]>;
  wallSeconds: number;
  /** CPU the API's own process spent on the run (user + system), when it ran apart. */
  apiCpuMs?: number;
  /**
   * CPU the whole machine spent on the run (every process: the API, PostgreSQL, the renters'
   * clients, the kernel), where the system says (Linux's /proc/stat).
   */
  machineCpuMs?: number;
  /**
   * CPU PostgreSQL's sessions on the bench's database spent on the run (a local server on Linux):
   * unlike the machine's, not swayed by other work on the machine.
   */
  databaseCpuMs?: number;
  /** CPU the bench's own process (the renters' clients) spent on the run, when the API ran apart. */
  clientsCpuMs?: number;
}

/**
 * CPU time so far of the database server's processes serving this database (user + system, ms, by
 * process id), read from /proc: a local PostgreSQL on Linux only, else undefined.
 */
async function databaseCpuMs(handle: DatabaseHandle): Promise<Map<number, number> | undefined> {
  if (handle.kind !== 'postgres') return undefined;
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database()`.execute(handle.db);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields after the command's closing parenthesis: state is the 1st, utime and stime the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      return undefined;
    }
  }
  return out;
}

/** Busy CPU time of the whole machine so far, in ms (Linux), or undefined elsewhere. */
export function machineCpuMs(): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal …, in clock ticks (USER_HZ, 100 a second on Linux).
  const fields = stat.split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return (user + nice + system + irq + softirq) * 10;
}

interface Json {
  [key: string]: unknown;
}

/** One connection kept open per renter, as a phone's browser keeps one to the API. */
const keepAlive = new http.Agent({ keepAlive: true });

/**
 * A renter's calls to the API over node's own HTTP client: the load generator shares the machine's
 * two cores with the API and PostgreSQL, and fetch cost about five times its CPU a request (decision
 * 102). Answers are asked for compressed, as browsers ask, and decoded here.
 */
class Client {
  token: string | null = null;
  constructor(private readonly origin: string) {}

  call<T = Json>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<T>((resolve, reject) => {
      const req = http.request(
        `${this.origin}${url}`,
        {
          method,
          agent: keepAlive,
          headers: {
            'accept-encoding': 'br, gzip',
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            ...(this.token ? { [SESSION_HEADER]: this.token } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            try {
              const raw = Buffer.concat(chunks);
              const encoding = res.headers['content-encoding'];
              const text = (
                encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
              ).toString();
              const status = res.statusCode ?? 0;
              if (status < 200 || status >= 300)
                throw new Error(`${method} ${url.split('?')[0]} → ${status}: ${text.slice(0, 200)}`);
              resolve((text ? JSON.parse(text) : {}) as T);
            } catch (err) {
              reject(err instanceof Error ? err : new Error(String(err)));
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
}

async function timed<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await fn();
  samples.push(performance.now() - started);
  return value;
}

/** Each renter books a different car: the cars of the demo cities, in turn. */
async function carsToBook(handle: DatabaseHandle, count: number) {
  return handle.db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['v.vin', 'l.timezone'])
    .where('v.is_self_serve_booking_allowed', '=', true)
    .orderBy('v.id')
    .limit(count)
    .execute();
}

/** The API's settings for the booking load: every renter signs in from one address, so the per-address limits are lifted. */
export function bookingConfig(scratchDir: string, databaseUrl?: string) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: scratchDir,
    WEB_DIST: path.join(scratchDir, 'no-web'),
    // Every renter signs in from this one address.
    SMS_SENDS_PER_IP_PER_HOUR: '100000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
    // The load is the point here, not the per-renter request limits.
    RATE_LIMIT_WRITES_PER_MINUTE: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

/** Where the renters send their requests, and how to stop it. */
export interface BookingApi {
  origin: string;
  close(): Promise<void>;
  /** CPU used by the API's process so far (ms), when it has one of its own. */
  cpuMs?(): Promise<number>;
}

/** The API in this process, on a free port: the renters' fetch clients share its event loop. */
export async function startBookingApiInProcess(handle: DatabaseHandle, databaseUrl?: string): Promise<BookingApi> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-booking-'));
  const app = await buildApp({ config: bookingConfig(scratch, databaseUrl), db: handle.db, clock: () => new Date() });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The API has no TCP address.');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * The API in a process of its own (`booking-server.ts`), as a deployment runs it: the renters'
 * clients no longer take turns with it on one event loop. `BENCH_API_NODE_ARGS` (e.g.
 * `--cpu-prof --cpu-prof-dir=prof`) passes flags to that process.
 */
export function startBookingApiProcess(databaseUrl: string): Promise<BookingApi> {
  const child = fork(new URL('./booking-server.ts', import.meta.url), [databaseUrl], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const limit = setTimeout(() => {
      child.kill();
      reject(new Error('The API process did not start within 2 minutes.'));
    }, 120_000);
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`The API process exited with ${code} before listening.`));
    });
    child.once('message', (message) => {
      clearTimeout(limit);
      const { port } = message as { port: number };
      resolve({
        origin: `http://127.0.0.1:${port}`,
        cpuMs: () =>
          new Promise((answer) => {
            child.once('message', (m) => {
              const { cpu } = m as { cpu: NodeJS.CpuUsage };
              answer((cpu.user + cpu.system) / 1000);
            });
            child.send('cpu');
          }),
        close: async () => {
          child.send('stop');
          await exited;
        },
      });
    });
  });
}

export async function measureBooking(
  handle: DatabaseHandle,
  opts: { renters: number; rounds: number; warmupRounds?: number; databaseUrl?: string; apiProcess?: boolean },
): Promise<BookingResult> {
  const warmupRounds = opts.warmupRounds ?? 0;
  // Every renter signs in from this one address, which the API lets check codes only so often an
  // hour: beyond that the later rounds would measure refusals (429), not bookings.
  const signIns = opts.renters * (warmupRounds + opts.rounds);
  if (signIns > VERIFY_ATTEMPTS_PER_IP_PER_HOUR)
    throw new Error(
      `${opts.renters} renters × ${warmupRounds + opts.rounds} rounds sign in ${signIns} times from one address; the API checks at most ${VERIFY_ATTEMPTS_PER_IP_PER_HOUR} codes an hour from one (BENCH_RENTERS, BENCH_BOOKING_ROUNDS, BENCH_BOOKING_WARMUP_ROUNDS).`,
    );
  const api =
    opts.apiProcess && opts.databaseUrl
      ? await startBookingApiProcess(opts.databaseUrl)
      : await startBookingApiInProcess(handle, opts.databaseUrl);
  const noSamples = () =>
    Object.fromEntries(BOOKING_STEPS.map((s) => [s, [] as number[]])) as unknown as Record<BookingStep, number[]>;
  const noWaits = () =>
    Object.fromEntries(EXTEND_WAITS.map((w) => [w, [] as number[]])) as unknown as Record<ExtendWait, number[]>;
  const samples = noSamples();
  const extendWaits = noWaits();
  // The warm-up rounds' timings go here and are dropped.
  let into = samples;
  let intoWaits = extendWaits;
  const failures: string[] = [];
  let completed = 0;
  let apiCpuMs: number | undefined;
  let machineMs: number | undefined;
  let databaseMs: number | undefined;
  let clientsMs: number | undefined;
  const started = performance.now();
  try {
    const origin = api.origin;
    const bookings = opts.renters * (warmupRounds + opts.rounds);
    const cars = await carsToBook(handle, bookings);
    if (cars.length < bookings) throw new Error(`Only ${cars.length} bookable cars for ${bookings} bookings.`);

    const journey = async (renter: number, round: number) => {
      const car = cars[round * opts.renters + renter]!;
      const client = new Client(origin);
      const phone = `+1615${String(2_000_000 + round * 100_000 + renter * 37 + (process.pid % 1000) * 97).padStart(7, '0')}`;
      await timed(into['sign in'], async () => {
        await client.call('POST', '/api/v1/auth/sms/send', { phone });
        const outbox = await client.call<{ messages: { body: string }[] }>(
          'GET',
          `/api/dev/sms?phone=${encodeURIComponent(phone)}`,
        );
        const code = /\d{6}/.exec(outbox.messages[0]?.body ?? '')?.[0];
        if (!code) throw new Error('No code in the outbox.');
        const session = await client.call<{ session_token: string }>('POST', '/api/v1/auth/sms/verify', {
          phone,
          code,
        });
        client.token = session.session_token;
        await client.call('PATCH', '/api/v1/users/profile', {
          first_name: 'Bench',
          last_name: `Renter${renter}`,
          email: `bench${renter}@example.com`,
          birthday: '1990-04-12',
        });
      });
      // Far ahead, where the seeded fleet has no bookings: every 409 here would be a real failure.
      const pickupDate = addDays(todayIn(new Date(), car.timezone), 300 + round * 6);
      const returnDate = addDays(pickupDate, 4);
      const created = await timed(into.create, () =>
        client.call<{ reservation: { platform_id: string } }>(
          'POST',
          '/api/v1/reservations',
          {
            vehicleVin: car.vin,
            pickupDate,
            pickupTime: '10:00',
            returnDate,
            returnTime: '10:00',
            addonIds: [],
            vehicleTimezone: car.timezone,
          },
          { 'idempotency-key': `bench-${process.pid}-${round}-${renter}` },
        ),
      );
      const platformId = created.reservation.platform_id;
      await timed(into['add-ons'], async () => {
        const pickupAt = new Date().toISOString();
        const related = await client.call<{ addons: { id: string; type: string }[] }>(
          'POST',
          '/api/v1/addons/related',
          { vehicleVin: car.vin, pickupAt, returnAt: new Date(Date.now() + 4 * 86_400_000).toISOString() },
        );
        const waiver = related.addons.find((a) => a.type === 'DAMAGE_WAIVER');
        await client.call('PATCH', '/api/v1/reservations/addons', {
          platform_id: platformId,
          addon_ids: waiver ? [waiver.id] : [],
        });
      });
      await timed(into.agreements, async () => {
        const date = todayIn(new Date(), car.timezone);
        const signature = `Bench Renter${renter}`;
        // Both at once, as the signature page sends them.
        await Promise.all(
          (['RENTAL_AGREEMENT', 'DAMAGE_WAIVER'] as const).map((type) =>
            client.call('POST', '/api/v1/agreements', {
              type,
              platform_id: platformId,
              signature,
              date,
              rental_type: 'LEISURE',
            }),
          ),
        );
      });
      const payment = await timed(into.payment, async () => {
        await client.call('POST', '/api/v1/reservations/eligibility-check', { platform_id: platformId });
        return client.call<{ stripe: { client_secret: string | null; deposit_client_secret: string | null } | null }>(
          'POST',
          '/api/v1/payments',
          { platform_id: platformId },
        );
      });
      let paymentMethod = '';
      await timed(into['card confirm'], async () => {
        const secrets = payment.stripe;
        if (!secrets?.client_secret) throw new Error('No charge to confirm.');
        const card = {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 5,
          cvc: '123',
          postal_code: '37203',
        };
        const charge = await client.call<{ payment_method: string }>(
          'POST',
          '/api/sandbox/v1/payment_intents/confirm',
          { client_secret: secrets.client_secret, card },
        );
        paymentMethod = charge.payment_method;
        if (secrets.deposit_client_secret) {
          await client.call('POST', '/api/sandbox/v1/payment_intents/confirm', {
            client_secret: secrets.deposit_client_secret,
            payment_method: charge.payment_method,
          });
        }
      });
      const confirmed = await timed(into.confirm, () =>
        client.call<{ reservation: { status: string } }>('POST', '/api/v1/reservations/confirm', {
          platform_id: platformId,
        }),
      );
      if (confirmed.reservation.status !== 'Pending')
        throw new Error(`Trip ${platformId} is ${confirmed.reservation.status} after paying.`);
      // A day more: previewed, asked, paid with the saved card, confirmed.
      await timed(into.extend, async () => {
        const dates = { pickupDate, pickupTime: '10:00', returnDate: addDays(returnDate, 1), returnTime: '10:00' };
        await timed(intoWaits['new dates priced'], () =>
          client.call('POST', `/api/v1/reservations/${platformId}/change/preview`, dates),
        );
        const pay = await timed(intoWaits['to the pay page'], async () => {
          await client.call('POST', `/api/v1/reservations/${platformId}/change`, dates);
          return client.call<{ stripe: { client_secret: string | null } | null }>('POST', '/api/v1/payments', {
            platform_id: platformId,
          });
        });
        const secret = pay.stripe?.client_secret;
        if (!secret) throw new Error('No charge for the extension.');
        const extended = await timed(intoWaits['paid and confirmed'], async () => {
          await client.call('POST', '/api/sandbox/v1/payment_intents/confirm', {
            client_secret: secret,
            payment_method: paymentMethod,
          });
          return client.call<{ reservation: { return_at: string; payment_balance: number } }>(
            'POST',
            '/api/v1/reservations/confirm',
            { platform_id: platformId },
          );
        });
        if (extended.reservation.payment_balance !== 0)
          throw new Error(`Trip ${platformId} still owes ${extended.reservation.payment_balance} after the extension.`);
      });
      const canceled = await timed(into.cancel, () =>
        client.call<{ reservation: { status: string } }>('POST', `/api/v1/reservations/${platformId}/cancel`),
      );
      if (canceled.reservation.status !== 'Canceled')
        throw new Error(`Trip ${platformId} is ${canceled.reservation.status} after cancelling.`);
      completed += 1;
    };

    const runRound = async (round: number) => {
      const results = await Promise.allSettled(
        Array.from({ length: opts.renters }, (_, renter) => journey(renter, round)),
      );
      for (const r of results)
        if (r.status === 'rejected') failures.push(r.reason instanceof Error ? r.reason.message : String(r.reason));
    };
    // Unmeasured rounds first, as the search load has its warm-up: the API's code compiled, the
    // pool's connections open and their statements prepared, as on a server that has been up a while.
    into = noSamples();
    intoWaits = noWaits();
    for (let round = 0; round < warmupRounds; round++) await runRound(round);
    if (failures.length > 0) throw new Error(`The warm-up failed: ${failures[0]}`);
    into = samples;
    intoWaits = extendWaits;
    completed = 0;
    const cpuBefore = await api.cpuMs?.();
    const machineBefore = machineCpuMs();
    const clientsBefore = process.cpuUsage();
    const databaseBefore = await databaseCpuMs(handle);
    for (let round = warmupRounds; round < warmupRounds + opts.rounds; round++) await runRound(round);
    if (cpuBefore !== undefined && api.cpuMs) apiCpuMs = (await api.cpuMs()) - cpuBefore;
    const machineAfter = machineCpuMs();
    const clientsUsage = process.cpuUsage(clientsBefore);
    clientsMs = (clientsUsage.user + clientsUsage.system) / 1000;
    // Read before the API closes: its pool's sessions end with it.
    const databaseAfter = await databaseCpuMs(handle);
    if (databaseBefore && databaseAfter) {
      databaseMs = 0;
      for (const [pid, ms] of databaseAfter) databaseMs += ms - (databaseBefore.get(pid) ?? 0);
    }
    if (machineBefore !== undefined && machineAfter !== undefined) machineMs = machineAfter - machineBefore;
  } finally {
    await api.close();
  }
  return {
    renters: opts.renters,
    rounds: opts.rounds,
    completed,
    failures,
    samples,
    extendWaits,
    wallSeconds: (performance.now() - started) / 1000,
    ...(apiCpuMs === undefined ? {} : { apiCpuMs }),
    ...(machineMs === undefined ? {} : { machineCpuMs: machineMs }),
    ...(databaseMs === undefined ? {} : { databaseCpuMs: databaseMs }),
    ...(clientsMs === undefined || !opts.apiProcess ? {} : { clientsCpuMs: clientsMs }),
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The record's figures of extend's three waits (decision 111), under `prefix`. */
export function extendWaitFigures(prefix: string, b: BookingResult): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const wait of EXTEND_WAITS) {
    figures[`${prefix}.extend: ${wait}.p50`] = percentile(b.extendWaits[wait], 50);
    figures[`${prefix}.extend: ${wait}.p99`] = percentile(b.extendWaits[wait], 99);
  }
  return figures;
}

/** The run's lines: trips completed, the first failures, p50 and p99 of each step beside the target. */
export function describeBooking(b: BookingResult): string[] {
  const lines = [
    `  ${b.completed} of ${b.renters * b.rounds} trips booked, paid, extended and cancelled in ${b.wallSeconds.toFixed(1)} s`,
  ];
  if (b.apiCpuMs !== undefined)
    lines.push(
      `  the API's process used ${(b.apiCpuMs / 1000).toFixed(1)} s of CPU: ${ms(b.apiCpuMs / (b.renters * b.rounds))} a trip (less swayed by the machine's load than the timings)`,
    );
  if (b.databaseCpuMs !== undefined)
    lines.push(
      `  PostgreSQL's sessions on the bench's database used ${(b.databaseCpuMs / 1000).toFixed(1)} s of CPU: ${ms(b.databaseCpuMs / (b.renters * b.rounds))} a trip`,
    );
  if (b.clientsCpuMs !== undefined)
    lines.push(
      `  the renters' clients (this process) used ${(b.clientsCpuMs / 1000).toFixed(1)} s of CPU: ${ms(b.clientsCpuMs / (b.renters * b.rounds))} a trip`,
    );
  if (b.machineCpuMs !== undefined)
    lines.push(
      `  the whole machine (API, PostgreSQL, the renters' clients) used ${(b.machineCpuMs / 1000).toFixed(1)} s of CPU: ${ms(b.machineCpuMs / (b.renters * b.rounds))} a trip`,
    );
  for (const f of b.failures.slice(0, 5)) lines.push(`  failed: ${f}`);
  for (const step of BOOKING_STEPS) {
    const v = b.samples[step];
    const p99 = percentile(v, 99);
    lines.push(
      `  ${step.padEnd(14)} p50 ${ms(percentile(v, 50)).padStart(9)}  p99 ${ms(p99).padStart(9)}  (${v.length} samples; target p99 ≤ ${TARGETS.bookingStepP99Ms} ms${p99 <= TARGETS.bookingStepP99Ms ? '' : ', MISSED'})`,
    );
    if (step === 'extend')
      for (const wait of EXTEND_WAITS) {
        const w = b.extendWaits[wait];
        lines.push(
          `    ${wait.padEnd(20)} p50 ${ms(percentile(w, 50)).padStart(9)}  p99 ${ms(percentile(w, 99)).padStart(9)}  (as the renter waits, a page between each)`,
        );
      }
  }
  return lines;
}
