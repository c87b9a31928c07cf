import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LATE_FEE_CENTS,
  LATE_RETURN_GRACE_MINUTES,
  MILEAGE_OVERAGE_CENTS_PER_MILE,
  RECHARGE_BANDS,
} from '@ampere/domain/end-trip';
import { returnSummary } from '@ampere/domain/return-summary';
import { previewEndTrip } from '../src/features/trips/end-trip-preview.ts';
import { CarUnreachableError, type VehicleAccess } from '../src/features/vehicle-access/provider.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { TEST_NOW, engines } from './harness.ts';
import { startedTrip } from './factories.ts';
import { onRentTrip as startOnRent } from './on-rent.ts';
import { type SandboxContext, createSandboxContext, payTrip, reviewEnds } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const MINUTE = 60_000;

describe.each(engines())('previewing the end of a trip on %s', (engine) => {
  let ctx: SandboxContext;
  let fleet: SimulatedFleet;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
    fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const preview = (who: SignedIn, platformId: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${platformId}/end/preview`, headers: who.headers });
  /** Ends the trip, then its deposit review ends (decision 092): the hold is settled as staff settle it. */
  const end = async (who: SignedIn, platformId: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${platformId}/end`,
      headers: who.headers,
    });
    if (res.statusCode === 200) await reviewEnds(ctx, platformId);
    return res;
  };
  const onRentTrip = (who: SignedIn, days = 1) => startOnRent(ctx, fleet, who, { days });
  /** What a preview could have changed: the trip, its rows, its ride's return, its key, its hold. */
  const snapshot = async (tripId: string) => ({
    trip: await db().selectFrom('reservations').select(['status', 'returned_at']).where('id', '=', tripId).execute(),
    rows: await db()
      .selectFrom('transactions')
      .select(['category', 'status', 'amount'])
      .where('reservation_id', '=', tripId)
      .orderBy('id')
      .execute(),
    ride: await db()
      .selectFrom('rides')
      .select(['mileage_in', 'vehicle_return_at'])
      .where('reservation_id', '=', tripId)
      .execute(),
    keys: await db().selectFrom('digital_keys').select('status').where('reservation_id', '=', tripId).execute(),
    hold: await db()
      .selectFrom('payments')
      .select(['status', 'amount_captured'])
      .where('reservation_id', '=', tripId)
      .where('kind', '=', 'DEPOSIT_HOLD')
      .execute(),
  });

  it('all fine: the car’s readings, no fees, the whole deposit to be released; nothing changes', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    await fleet.drive(trip.car, { miles: 120, battery_level: 0.64 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 2 * 60 * MINUTE);
    const before = await snapshot(trip.id);
    const res = await preview(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      as_of: ctx.clock.now.toISOString(),
      return_at: trip.returnAt.toISOString(),
      timezone: expect.any(String),
      minutes_late: 0,
      grace_minutes: LATE_RETURN_GRACE_MINUTES,
      car: { battery_level: 0.64, charging_minimum: 0.1, low_at_pickup: false, miles_driven: 120, included_miles: 200 },
      car_message: null,
      fees: [],
      total: 0,
      deposit: { held: 20_000, kept: 0, released: 20_000 },
      due: 0,
      waived: 0,
    });
    expect(await snapshot(trip.id)).toEqual(before);
  });

  it('5% battery and miles over the allowance: each fee, taken from the deposit, and ending then charges exactly that', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    await fleet.drive(trip.car, { miles: 250, battery_level: 0.05 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 10 * MINUTE);
    const before = await snapshot(trip.id);
    const p = (await preview(who, trip.platformId)).json();
    const recharge = RECHARGE_BANDS[0].cents;
    const miles = 50 * MILEAGE_OVERAGE_CENTS_PER_MILE;
    expect(p.car).toMatchObject({ battery_level: 0.05, miles_driven: 250, included_miles: 200 });
    expect(p.fees).toEqual([
      {
        kind: 'recharge',
        description: 'Recharge Fee (0–20%)',
        amount: recharge,
        from_deposit: recharge,
        due: 0,
        waived: 0,
      },
      {
        kind: 'mileage',
        description: 'Mileage Overage (50 mi)',
        amount: miles,
        from_deposit: miles,
        due: 0,
        waived: 0,
      },
    ]);
    expect(p.total).toBe(recharge + miles);
    expect(p.deposit).toEqual({ held: 20_000, kept: recharge + miles, released: 20_000 - recharge - miles });
    expect(p.due).toBe(0);
    expect(await snapshot(trip.id)).toEqual(before);

    const ended = await end(who, trip.platformId);
    expect(ended.statusCode, ended.body).toBe(200);
    // What the renter is told was taken, fee by fee, is what the preview said ending would take.
    const taken = returnSummary(ended.json().reservation.transactions).fees;
    expect(taken.map((f) => [f.description, f.amount, f.source])).toEqual(
      p.fees.map((f: { description: string; amount: number }) => [f.description, f.amount, 'deposit']),
    );
    const [hold] = (await snapshot(trip.id)).hold;
    expect(hold).toEqual({ status: 'succeeded', amount_captured: p.deposit.kept });
  });

  it('handed over nearly flat and brought back no lower: no Recharge Fee (decision 103), only the miles over', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    // The ride recorded the car at 6% when it went out.
    await db().updateTable('rides').set({ battery_out: 0.06 }).where('reservation_id', '=', trip.id).execute();
    await fleet.drive(trip.car, { miles: 210, battery_level: 0.06 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 10 * MINUTE);
    const p = (await preview(who, trip.platformId)).json();
    // The least to bring it back with is the charge it went out with, and the dialog says why.
    expect(p.car).toMatchObject({ battery_level: 0.06, charging_minimum: 0.06, low_at_pickup: true });
    expect(p.fees.map((f: { description: string }) => f.description)).toEqual(['Mileage Overage (10 mi)']);
    const ended = await end(who, trip.platformId);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(returnSummary(ended.json().reservation.transactions).fees.map((f) => f.description)).toEqual([
      'Mileage Overage (10 mi)',
    ]);
  });

  it('late past the grace, beyond the deposit: the late fees, the part the hold cannot cover due by card, as End Trip then splits it', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    await fleet.drive(trip.car, { miles: 700, battery_level: 0.05 });
    ctx.clock.now = new Date(trip.returnAt.getTime() + 3 * 60 * MINUTE);
    const p = (await preview(who, trip.platformId)).json();
    expect(p.minutes_late).toBe(180);
    expect(p.fees.map((f: { kind: string; amount: number }) => [f.kind, f.amount])).toEqual([
      ['recharge', RECHARGE_BANDS[0].cents],
      ['mileage', 500 * MILEAGE_OVERAGE_CENTS_PER_MILE],
      ['late', LATE_FEE_CENTS],
      ['lateRack', trip.car.rack_rate],
    ]);
    const total = RECHARGE_BANDS[0].cents + 500 * MILEAGE_OVERAGE_CENTS_PER_MILE + LATE_FEE_CENTS + trip.car.rack_rate;
    expect(p.total).toBe(total);
    expect(p.deposit).toEqual({ held: 20_000, kept: 20_000, released: 0 });
    expect(p.due).toBe(total - 20_000);
    for (const f of p.fees) expect(f.from_deposit + f.due + f.waived).toBe(f.amount);

    const ended = (await end(who, trip.platformId)).json().reservation;
    expect(ended.payment_balance).toBe(p.due);
  });

  it('back within the grace: late by the clock, but no late fee', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    await fleet.drive(trip.car, { miles: 10, battery_level: 0.9 });
    ctx.clock.now = new Date(trip.returnAt.getTime() + LATE_RETURN_GRACE_MINUTES * MINUTE);
    const p = (await preview(who, trip.platformId)).json();
    expect(p.minutes_late).toBe(LATE_RETURN_GRACE_MINUTES);
    expect(p.fees).toEqual([]);
  });

  it('a car that does not answer: no readings and a message, only what the clock decides, still nothing written', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    ctx.clock.now = new Date(trip.returnAt.getTime() + 60 * MINUTE);
    const asleep: VehicleAccess = {
      kind: 'simulated',
      state: () => Promise.reject(new CarUnreachableError('asleep')),
      command: () => Promise.reject(new CarUnreachableError('asleep')),
      position: () => Promise.reject(new CarUnreachableError('asleep')),
    };
    const before = await snapshot(trip.id);
    const p = await previewEndTrip(
      { db: db(), clock: () => ctx.clock.now, access: asleep },
      who.userId,
      trip.platformId,
    );
    expect(p.car).toBeNull();
    expect(p.car_message).toContain("couldn't read the car");
    expect(p.fees.map((f) => f.kind)).toEqual(['late', 'lateRack']);
    expect(await snapshot(trip.id)).toEqual(before);
  });

  it('only the trip’s renter, and only while on rent', async () => {
    const who = await signInAs(ctx);
    ctx.clock.now = TEST_NOW;
    const upcoming = await startedTrip(db(), who.userId, TEST_NOW);
    await payTrip(ctx, who, upcoming.platformId);
    const early = await preview(who, upcoming.platformId);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Only a trip that is on rent can be ended.');

    const trip = await onRentTrip(who);
    const stranger = await signInAs(ctx);
    const theirs = await preview(stranger, trip.platformId);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('No trip with that id.');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${trip.platformId}/end/preview` })).statusCode,
    ).toBe(401);
    expect((await preview(who, 'not a trip')).statusCode).toBe(400);

    expect((await end(who, trip.platformId)).statusCode).toBe(200);
    const after = await preview(who, trip.platformId);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toBe('This trip has already ended.');
  });
});
