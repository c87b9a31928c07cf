import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATE_FEE_CENTS, MILEAGE_OVERAGE_CENTS_PER_MILE, RECHARGE_BANDS } from '@ampere/domain/end-trip';
import { addDays, toLocal } from '@ampere/domain/time';
import { DEPOSIT_REVIEW_HOURS } from '@ampere/domain/charges';
import { settleReturnedDeposits } from '../src/features/trips/settle-deposit.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip } from './factories.ts';
import { onRentTrip as startOnRent } from './on-rent.ts';
import { type SandboxContext, askLaterReturn, createSandboxContext, payTrip, reviewEnds } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const MINUTE = 60_000;

describe.each(engines())('ending a trip on %s', (engine) => {
  let ctx: SandboxContext;
  let fleet: SimulatedFleet;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
    fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
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
  const syncDeps = () => ({ db: db(), gateway: ctx.gateway, clock: () => ctx.clock.now });

  const onRentTrip = (who: SignedIn, opts: Parameters<typeof startOnRent>[3] = {}) =>
    startOnRent(ctx, fleet, who, opts);

  const hold = async (trip: StartedTrip) =>
    db()
      .selectFrom('payments')
      .select(['status', 'amount', 'amount_captured', 'provider_intent_id'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'DEPOSIT_HOLD')
      .executeTakeFirstOrThrow();
  /** Spec 4: the trip_ended events recorded for the renter. */
  const endedEvents = (who: SignedIn) =>
    db()
      .selectFrom('analytics_events')
      .select('properties')
      .where('user_id', '=', who.userId)
      .where('name', '=', 'trip_ended')
      .execute()
      .then((found) => found.map((e) => e.properties));
  const rows = (trip: StartedTrip) =>
    db()
      .selectFrom('transactions')
      .select(['category', 'status', 'description', 'amount', 'captured_amount', 'reserve_applied_payment_id'])
      .where('reservation_id', '=', trip.id)
      .execute();

  it('on time, within the miles and charged: Returned, the ride recorded, the whole deposit released, the key stops working', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    const out = await fleet.state(trip.car);
    await fleet.drive(trip.car, { miles: 150, battery_level: 0.6 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 30 * MINUTE);
    const res = await end(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(r.status).toBe('Returned');
    expect(r.key).toBeNull();
    expect(r.rides).toEqual([
      {
        vin: trip.car.vin,
        mileage_out: out.odometer_miles,
        battery_out: out.battery_level,
        mileage_in: out.odometer_miles + 150,
        battery_in: 0.6,
        vehicle_pickup_at: new Date(trip.pickupAt.getTime() + MINUTE).toISOString(),
        vehicle_return_at: ctx.clock.now.toISOString(),
      },
    ]);
    expect(r.transactions.filter((t: { category: string }) => t.category === 'Incidental')).toEqual([]);
    expect(r.payment_balance).toBe(0);
    const h = await hold(trip);
    expect(h.status).toBe('canceled');
    expect(h.amount_captured).toBe(0);
    expect((await rows(trip)).find((t) => t.category === 'Deposit')!.status).toBe('Canceled');
    const keys = await db().selectFrom('digital_keys').select('status').where('reservation_id', '=', trip.id).execute();
    expect(keys.map((k) => k.status)).toEqual(['revoked']);
    // Ending twice is refused, and takes nothing.
    const again = await end(who, trip.platformId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This trip has already ended.');
    // Ending the trip emitted its event once, with nothing charged.
    expect(await endedEvents(who)).toEqual([{ platform_id: trip.platformId, fees: 0 }]);
  });

  it('fees within the deposit: recharge and mileage taken from the hold by a partial capture, the rest released; provider and ledger agree', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who, { days: 3 });
    await fleet.drive(trip.car, { miles: 650, battery_level: 0.05 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 5 * MINUTE);
    const res = await end(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    const fees = RECHARGE_BANDS[0].cents + 50 * MILEAGE_OVERAGE_CENTS_PER_MILE;
    const h = await hold(trip);
    expect(h.status).toBe('succeeded');
    expect(h.amount_captured).toBe(fees);
    expect(await endedEvents(who)).toEqual([{ platform_id: trip.platformId, fees }]);
    const intent = await ctx.gateway.retrievePaymentIntent(h.provider_intent_id!);
    expect(intent.amount_received).toBe(fees);
    expect(intent.amount_capturable).toBe(0);
    const ledger = await rows(trip);
    const incidentals = ledger.filter((t) => t.category === 'Incidental');
    expect(incidentals.map((t) => [t.description, t.status, t.amount, t.captured_amount])).toEqual([
      ['Recharge Fee (0–20%)', 'Successful', RECHARGE_BANDS[0].cents, RECHARGE_BANDS[0].cents],
      [
        'Mileage Overage (50 mi)',
        'Successful',
        50 * MILEAGE_OVERAGE_CENTS_PER_MILE,
        50 * MILEAGE_OVERAGE_CENTS_PER_MILE,
      ],
    ]);
    // The deposit row says how much of the hold was taken; the fee rows say what it paid for.
    const deposit = ledger.find((t) => t.category === 'Deposit')!;
    expect(deposit.status).toBe('Captured');
    expect(deposit.captured_amount).toBe(fees);
    expect(incidentals.every((t) => t.reserve_applied_payment_id !== null)).toBe(true);
    const seen = res.json().reservation.transactions.filter((t: { category: string }) => t.category === 'Incidental');
    expect(
      seen.every(
        (t: { stripe_reserve_applied_payment_intent_id: string }) =>
          t.stripe_reserve_applied_payment_intent_id === h.provider_intent_id,
      ),
    ).toBe(true);
  });

  it('late, and fees beyond the deposit: the whole hold is taken, the rest is a balance the renter pays by card, to the cent', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who, { days: 3 });
    await fleet.drive(trip.car, { miles: 900, battery_level: 0.05 });
    ctx.clock.now = new Date(trip.returnAt.getTime() + 3 * 60 * MINUTE);
    const res = await end(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    const total = RECHARGE_BANDS[0].cents + 300 * MILEAGE_OVERAGE_CENTS_PER_MILE + LATE_FEE_CENTS + trip.car.rack_rate;
    expect(total).toBeGreaterThan(20_000);
    const h = await hold(trip);
    expect(h.amount_captured).toBe(20_000);
    const r = res.json().reservation;
    expect(r.payment_balance).toBe(total - 20_000);
    const incidentals = (await rows(trip)).filter((t) => t.category === 'Incidental');
    expect(incidentals.reduce((s, t) => s + t.amount, 0)).toBe(total);
    expect(incidentals.filter((t) => t.status === 'Successful').reduce((s, t) => s + t.captured_amount, 0)).toBe(
      20_000,
    );

    // The balance is paid with the saved card; then everything the return cost is paid, once.
    const pay = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: who.headers,
      payload: { platform_id: trip.platformId },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    const secrets = pay.json().stripe;
    expect(secrets.deposit_client_secret).toBeNull();
    const charge = await db()
      .selectFrom('payments')
      .select(['amount', 'payment_method_id'])
      .where('client_secret', '=', secrets.client_secret)
      .executeTakeFirstOrThrow();
    expect(charge.amount).toBe(total - 20_000);
    const pm = (
      await db()
        .selectFrom('payments')
        .select('payment_method_id')
        .where('reservation_id', '=', trip.id)
        .where('kind', '=', 'CHARGE')
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow()
    ).payment_method_id!;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: secrets.client_secret, payment_method: pm },
    });
    const after = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/reservations/confirm',
        headers: who.headers,
        payload: { platform_id: trip.platformId },
      })
    ).json().reservation;
    expect(after.payment_balance).toBe(0);
    expect(after.status).toBe('Returned');
    const paidFees = (await rows(trip))
      .filter((t) => t.category === 'Incidental' && t.status === 'Successful')
      .reduce((s, t) => s + t.captured_amount, 0);
    expect(paidFees).toBe(total);
    const provider = await db()
      .selectFrom('payments')
      .select(['kind', 'amount_captured', 'amount_refunded'])
      .where('reservation_id', '=', trip.id)
      .execute();
    const takenForFees = provider.reduce((s, p) => s + p.amount_captured - p.amount_refunded, 0) - trip.due;
    expect(takenForFees).toBe(total);
  });

  it('across the spring DST change: the booked wall-clock days give the miles, and a return at the booked local time is not late', async () => {
    const who = await signInAs(ctx);
    // Booked Friday 10:00 to Monday 10:00 in Chicago, across Sunday 2027-03-14: 71 hours, 3 rental days, 600 miles.
    const trip = await onRentTrip(who, { days: 3, timezone: 'America/Chicago', now: new Date('2027-03-10T18:00:00Z') });
    expect(trip.returnAt.getTime() - trip.pickupAt.getTime()).toBe(71 * 60 * MINUTE);
    await fleet.drive(trip.car, { miles: 600, battery_level: 0.5 });
    ctx.clock.now = new Date(trip.returnAt.getTime() + 29 * MINUTE);
    const res = await end(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().reservation.transactions.filter((t: { category: string }) => t.category === 'Incidental'),
    ).toEqual([]);
  });

  it('ending a trip with an unpaid change of dates drops the change: nothing owed for it, and the car free again for those days', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who, { days: 3 });
    const tz = (
      await db().selectFrom('reservations').select('timezone').where('id', '=', trip.id).executeTakeFirstOrThrow()
    ).timezone;
    const ret = toLocal(trip.returnAt, tz);
    const asked = await askLaterReturn(ctx, who, trip, 2);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().reservation.payment_balance).toBeGreaterThan(0);

    ctx.clock.now = new Date(trip.returnAt.getTime() - 30 * MINUTE);
    const res = await end(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(r.status).toBe('Returned');
    expect(r.requested_change).toBeNull();
    expect(r.payment_balance).toBe(0);
    expect(r.return_at).toBe(trip.returnAt.toISOString());
    // The change's days were never paid: their items are canceled, not owed.
    const rack = (await rows(trip)).filter((t) => t.category === 'Rack');
    const paidRack = rack.filter((t) => t.status === 'Successful');
    expect(paidRack.reduce((n, t) => n + t.amount, 0)).toBe(3 * trip.car.rack_rate);
    expect(rack.filter((t) => t.status === 'Canceled').map((t) => t.amount)).toEqual([
      trip.car.rack_rate,
      trip.car.rack_rate,
    ]);
    expect((await rows(trip)).filter((t) => t.status === 'Pending')).toEqual([]);
    // Someone else can book the car for the days the change had held.
    const other = await signInAs(ctx);
    const booked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: other.headers,
      payload: {
        vehicleVin: trip.car.vin,
        pickupDate: addDays(ret.date, 1),
        pickupTime: '10:00',
        returnDate: addDays(ret.date, 2),
        returnTime: '10:00',
        vehicleTimezone: tz,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
  });

  it('only a trip on rent can be ended, and only by its renter', async () => {
    const who = await signInAs(ctx);
    ctx.clock.now = TEST_NOW;
    const upcoming = await startedTrip(db(), who.userId, TEST_NOW);
    await payTrip(ctx, who, upcoming.platformId);
    const early = await end(who, upcoming.platformId);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Only a trip that is on rent can be ended.');
    const trip = await onRentTrip(who);
    const stranger = await signInAs(ctx);
    expect((await end(stranger, trip.platformId)).statusCode).toBe(404);
    expect(
      (await db().selectFrom('reservations').select('status').where('id', '=', trip.id).executeTakeFirstOrThrow())
        .status,
    ).toBe('On Rent');
  });

  it('a settle cut off after the trip ended is finished by the job: captured once', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(who);
    await fleet.drive(trip.car, { battery_level: 0.02 });
    // As if the process stopped between the commit and the provider call: the trip Returned, the fee linked, the hold untouched.
    const h = await hold(trip);
    ctx.clock.now = new Date(trip.returnAt.getTime() - MINUTE);
    await db()
      .updateTable('reservations')
      .set({ status: 'Returned', returned_at: ctx.clock.now })
      .where('id', '=', trip.id)
      .execute();
    const holdRow = await db()
      .selectFrom('payments')
      .select('id')
      .where('provider_intent_id', '=', h.provider_intent_id)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('transactions')
      .values({
        reservation_id: trip.id,
        category: 'Incidental',
        status: 'Pending',
        description: 'Recharge Fee (0–20%)',
        cost: 4_500,
        amount: 4_500,
        discount_amount: 0,
        number_of_days: null,
        effective_date: null,
        initiated_at: ctx.clock.now,
        payment_id: holdRow.id,
        reserve_applied_payment_id: holdRow.id,
      })
      .execute();
    const told: string[] = [];
    const publish = async (userId: string) => void told.push(userId);
    // Within the review window (decision 092) the job leaves the hold; after it, it settles it once.
    await settleReturnedDeposits(syncDeps(), publish);
    expect((await hold(trip)).status).toBe('requires_capture');
    ctx.clock.now = new Date(ctx.clock.now.getTime() + DEPOSIT_REVIEW_HOURS * 3_600_000);
    await settleReturnedDeposits(syncDeps(), publish);
    await settleReturnedDeposits(syncDeps(), publish);
    // The renter's open pages reload once: the deposit now shows what was taken.
    expect(told.filter((u) => u === who.userId)).toEqual([who.userId]);
    const settled = await hold(trip);
    expect(settled.status).toBe('succeeded');
    expect(settled.amount_captured).toBe(4_500);
    expect((await ctx.gateway.retrievePaymentIntent(h.provider_intent_id!)).amount_received).toBe(4_500);
  });
});
