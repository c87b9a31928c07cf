import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/db/connect.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { userChannel } from '@ampere/domain/realtime';
import { expireUnpaidHolds } from '../src/features/trips/expire-holds.ts';
import { advanceTripStatus } from '../src/features/trips/trip-status.ts';
import { Realtime } from '../src/features/realtime/service.ts';
import { pruneIdempotencyKeys } from '../src/http/idempotency.ts';
import { JobRunner } from '../src/jobs/queue.ts';
import { startedTrip } from './factories.ts';
import { TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

const minutes = (n: number) => new Date(TEST_NOW.getTime() + n * 60_000);

describe.each(engines())('background jobs on %s', (engine) => {
  let ctx: TestContext;
  /** What the app sent to renters' channels, and which trips had a ride recorded at that moment. */
  const sent: { channel: string; event: string; ridden: string[] }[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { JOBS: 'in-process' },
      providers: (db) => ({
        realtime: new Realtime(db, {
          kind: 'builtin',
          key: 'test',
          secret: 's'.repeat(32),
          send: async (channel, event) => {
            const rides = await db.selectFrom('rides').select('reservation_id').execute();
            sent.push({ channel, event, ridden: rides.map((r) => r.reservation_id) });
          },
        }),
      }),
    });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const status = async (id: string) =>
    (await db().selectFrom('reservations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const noop = async () => {};

  it(`an unpaid booking lapses ${UNPAID_HOLD_MINUTES} minutes after it was made; a paid one and a fresh one stay`, async () => {
    const who = await signInAs(ctx);
    const old = await startedTrip(db(), who.userId, TEST_NOW);
    const paid = await startedTrip(db(), who.userId, TEST_NOW);
    await db().updateTable('reservations').set({ status: 'Pending' }).where('id', '=', paid.id).execute();
    const fresh = await startedTrip(db(), who.userId, TEST_NOW);
    await db().updateTable('reservations').set({ created_at: TEST_NOW }).where('id', 'in', [old.id, paid.id]).execute();
    await db()
      .updateTable('reservations')
      .set({ created_at: minutes(UNPAID_HOLD_MINUTES - 5) })
      .where('id', '=', fresh.id)
      .execute();
    const at = (m: number) => ({ db: db(), clock: () => minutes(m), cancelRetired: noop });
    expect(await expireUnpaidHolds(at(UNPAID_HOLD_MINUTES - 1))).toEqual([]);
    expect(await expireUnpaidHolds(at(UNPAID_HOLD_MINUTES))).toEqual([old.id]);
    expect([await status(old.id), await status(paid.id), await status(fresh.id)]).toEqual([
      'Canceled',
      'Pending',
      'Started',
    ]);
    const items = await db().selectFrom('transactions').select('status').where('reservation_id', '=', old.id).execute();
    expect(items.every((t) => t.status === 'Canceled')).toBe(true);
    // Run again (or by another process at once): nothing more to do.
    expect(await expireUnpaidHolds(at(UNPAID_HOLD_MINUTES))).toEqual([]);
  });

  it('the queue runs the job: a lapsed hold is released without anyone asking', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    await db()
      .updateTable('reservations')
      .set({ created_at: minutes(-UNPAID_HOLD_MINUTES - 1) })
      .where('id', '=', trip.id)
      .execute();
    await ctx.app.jobs.runSoon('expire-unpaid-holds');
    await expect.poll(() => status(trip.id), { timeout: 20_000, interval: 250 }).toBe('Canceled');
  });

  it('a renter may hold three unpaid bookings at once; the fourth is refused with the reason', async () => {
    const who = await signInAs(ctx);
    for (let i = 0; i < 3; i++) await startedTrip(db(), who.userId, TEST_NOW);
    const car = await db()
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .select(['v.vin', 'l.timezone'])
      .where('v.is_self_serve_booking_allowed', '=', true)
      .orderBy('v.id')
      .executeTakeFirstOrThrow();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: who.headers,
      payload: {
        vehicleVin: car.vin,
        pickupDate: '2027-03-01',
        pickupTime: '10:00',
        returnDate: '2027-03-04',
        returnTime: '10:00',
        addonIds: [],
        vehicleTimezone: car.timezone,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^You already have 3 unpaid bookings\./);
  });

  it('a paid trip goes On Rent at its pickup time, and is flagged late once its return time has passed', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { days: 2 });
    await db().updateTable('reservations').set({ status: 'Pending' }).where('id', '=', trip.id).execute();
    const unpaid = await startedTrip(db(), who.userId, TEST_NOW, { days: 2 });
    const row = await db()
      .selectFrom('reservations')
      .select(['pickup_at', 'return_at'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    const told: string[] = [];
    const at = (d: Date) => ({ db: db(), clock: () => d, publish: async (userId: string) => void told.push(userId) });
    const minuteBefore = new Date(row.pickup_at.getTime() - 60_000);
    expect((await advanceTripStatus(at(minuteBefore))).onRent).not.toContain(trip.id);
    expect((await advanceTripStatus(at(row.pickup_at))).onRent).toContain(trip.id);
    expect([await status(trip.id), await status(unpaid.id)]).toEqual(['On Rent', 'Started']);
    expect(told).toContain(who.userId);
    expect((await advanceTripStatus(at(row.return_at))).late).not.toContain(trip.id);
    const afterReturn = new Date(row.return_at.getTime() + 60_000);
    expect((await advanceTripStatus(at(afterReturn))).late).toContain(trip.id);
    expect((await advanceTripStatus(at(afterReturn))).late).not.toContain(trip.id);
    const flagged = await db()
      .selectFrom('reservations')
      .select(['on_rent_at', 'late_flagged_at', 'status'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    expect(flagged).toEqual({ on_rent_at: row.pickup_at, late_flagged_at: afterReturn, status: 'On Rent' });
  });

  it('the queue puts a paid trip On Rent; its renter hears REFRESH once, after the car’s reading is recorded', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { days: 2 });
    const row = await db()
      .updateTable('reservations')
      .set({ status: 'Pending' })
      .where('id', '=', trip.id)
      .returning('pickup_at')
      .executeTakeFirstOrThrow();
    const { stytch_user_id } = await db()
      .selectFrom('users')
      .select('stytch_user_id')
      .where('id', '=', who.userId)
      .executeTakeFirstOrThrow();
    const heard = () => sent.filter((m) => m.channel === userChannel(stytch_user_id));
    const saved = ctx.clock.now;
    ctx.clock.now = new Date(row.pickup_at.getTime() + 60_000);
    try {
      await ctx.app.jobs.runSoon('advance-trip-status');
      await expect.poll(() => heard().length, { timeout: 20_000, interval: 250 }).toBe(1);
      expect(await status(trip.id)).toBe('On Rent');
      // The page reloaded on that REFRESH finds the ride: Vehicle metrics show at once.
      expect(heard()[0]).toMatchObject({ event: 'REFRESH' });
      expect(heard()[0]!.ridden).toContain(trip.id);
      // Once for the run, though two of its steps changed the trip (its status, then its ride).
      await new Promise((r) => setTimeout(r, 1_000));
      expect(heard()).toHaveLength(1);
    } finally {
      ctx.clock.now = saved;
    }
  });

  it('idempotency keys older than a day are pruned', async () => {
    const who = await signInAs(ctx);
    const row = {
      user_id: who.userId,
      method: 'POST',
      path: '/api/v1/reservations',
      request_hash: 'h',
      status_code: 201,
      response_body: '{}',
    };
    await db()
      .insertInto('idempotency_keys')
      .values([
        { ...row, key: 'old', created_at: minutes(-25 * 60) },
        { ...row, key: 'new', created_at: minutes(-60) },
      ])
      .execute();
    expect(await pruneIdempotencyKeys(db(), TEST_NOW)).toBe(1);
    expect(
      (await db().selectFrom('idempotency_keys').select('key').where('user_id', '=', who.userId).execute()).map(
        (k) => k.key,
      ),
    ).toEqual(['new']);
  });

  it('wake-ups for a run already queued and not yet started queue nothing more: one run answers them all', async () => {
    const runs: number[] = [];
    const runner = new JobRunner(db(), [{ name: 'nudged', cron: '0 0 1 1 *', run: async () => void runs.push(1) }], {
      error: () => {},
    });
    await runner.start();
    try {
      // Ten webhook events written in a burst, each asking for a delivery pass in a second.
      for (let i = 0; i < 10; i++) runner.wake('nudged', 1_000);
      await expect.poll(() => runs.length, { timeout: 20_000, interval: 100 }).toBe(1);
      // A wake-up after that run started is a new one.
      runner.wake('nudged', 0);
      await expect.poll(() => runs.length, { timeout: 20_000, interval: 100 }).toBe(2);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(runs).toHaveLength(2);
    } finally {
      await runner.stop();
    }
  }, 60_000);

  // Two operating-system processes, each running the job runner on the same PostgreSQL database (the embedded database serves one process).
  if (engine === 'postgres')
    it('two processes: every job runs exactly once, and both take their share', async () => {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'ampere_jobs');
      const children: ChildProcess[] = [];
      const admin = await connectPostgres(scratch.url, 2);
      try {
        await sql`create table job_probe (id serial primary key, pid integer not null)`.execute(admin.db);
        const fixture = fileURLToPath(new URL('./fixtures/job-process.ts', import.meta.url));
        for (let i = 0; i < 2; i++) {
          const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
            env: { ...process.env, DATABASE_URL: scratch.url },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
        }
        // Both start at once (their setup races, as two API processes' do) and must both come up.
        await Promise.all(
          children.map(
            (c) =>
              new Promise<void>((resolve, reject) => {
                let err = '';
                c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
                c.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
                c.on('exit', (code) => reject(new Error(`a job process exited with ${code}: ${err}`)));
              }),
          ),
        );
        const sender = new JobRunner(admin.db, [], { error: () => {} });
        await sender.start();
        try {
          for (let i = 0; i < 40; i++) await sender.runSoon('probe');
        } finally {
          await sender.stop();
        }
        const runs = async () => (await sql<{ pid: number }>`select pid from job_probe`.execute(admin.db)).rows;
        await expect.poll(async () => (await runs()).length, { timeout: 60_000, interval: 250 }).toBe(40);
        await new Promise((r) => setTimeout(r, 3000));
        const done = await runs();
        expect(done).toHaveLength(40);
        expect(new Set(done.map((r) => r.pid))).toEqual(new Set(children.map((c) => c.pid)));
      } finally {
        await Promise.all(
          children.map(
            (c) =>
              new Promise<void>((resolve) => {
                if (c.exitCode !== null) return resolve();
                c.on('exit', () => resolve());
                c.kill('SIGTERM');
              }),
          ),
        );
        await admin.close();
        await scratch.drop();
      }
    }, 90_000);

  // Two queue runners with their own connections in one process: a cheaper check of the same, with twenty jobs.
  if (engine === 'postgres')
    it('two runners: every job runs exactly once', async () => {
      const seen: string[] = [];
      const job = (name: string) => ({ name: 'count-once', cron: '0 0 1 1 *', run: async () => void seen.push(name) });
      const a = new JobRunner(db(), [job('a')], { error: () => {} });
      const b = new JobRunner(db(), [job('b')], { error: () => {} });
      await Promise.all([a.start(), b.start()]);
      try {
        for (let i = 0; i < 20; i++) await (i % 2 ? a : b).runSoon('count-once');
        await expect.poll(() => seen.length, { timeout: 30_000, interval: 250 }).toBe(20);
        await new Promise((r) => setTimeout(r, 1000));
        expect(seen).toHaveLength(20);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
});
