import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, toLocal } from '@ampere/domain/time';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { issueKeyIfReady } from '../src/features/keys/service.ts';
import { expireUnpaidChanges } from '../src/features/reservations/change-dates.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip } from './factories.ts';
import { type SandboxContext, confirmIntent, createSandboxContext, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

describe.each(engines())('changing a trip’s dates on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const post = (who: SignedIn, url: string, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

  interface Trip extends StartedTrip {
    tz: string;
    vin: string;
    pickup: { date: string; time: string };
    ret: { date: string; time: string };
  }

  async function paidTrip(who: SignedIn): Promise<Trip> {
    ctx.clock.now = TEST_NOW;
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { days: 3 });
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    const row = await db()
      .selectFrom('reservations as r')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select(['r.pickup_at', 'r.return_at', 'r.timezone', 'v.vin'])
      .where('r.id', '=', trip.id)
      .executeTakeFirstOrThrow();
    return {
      ...trip,
      tz: row.timezone,
      vin: row.vin,
      pickup: toLocal(row.pickup_at, row.timezone),
      ret: toLocal(row.return_at, row.timezone),
    };
  }
  const body = (
    t: Trip,
    change: { pickupDate?: string; pickupTime?: string; returnDate?: string; returnTime?: string },
  ) => ({
    pickupDate: t.pickup.date,
    pickupTime: t.pickup.time,
    returnDate: t.ret.date,
    returnTime: t.ret.time,
    ...change,
  });
  /** Pays what is owed with the card the trip was paid with. */
  async function payBalance(who: SignedIn, t: Trip) {
    const res = await post(who, '/api/v1/payments', { platform_id: t.platformId });
    expect(res.statusCode, res.body).toBe(200);
    const secret = res.json().stripe.client_secret as string;
    const pm = (
      await db()
        .selectFrom('payments')
        .select('payment_method_id')
        .where('reservation_id', '=', t.id)
        .where('kind', '=', 'CHARGE')
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow()
    ).payment_method_id!;
    expect((await confirmIntent(ctx, secret, { pm })).statusCode).toBe(200);
    return (await post(who, '/api/v1/reservations/confirm', { platform_id: t.platformId })).json().reservation;
  }
  const rackRate = async (t: Trip) =>
    (await db().selectFrom('vehicles').select('rack_rate').where('vin', '=', t.vin).executeTakeFirstOrThrow())
      .rack_rate;

  it('extending by two days: previewed, held at once, paid to the cent, and then the trip’s return and key move', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    await db()
      .updateTable('users')
      .set({ license_status: 'approved', license_number: 'D1', license_expiration: '2031-01-01' })
      .where('id', '=', who.userId)
      .execute();
    await db()
      .insertInto('insurance_verifications')
      .values({
        user_id: who.userId,
        reservation_id: null,
        status: 'ACTIVE',
        carrier: 'USAA',
        policy_number: 'US-1',
        created_at: TEST_NOW,
      })
      .execute();
    expect(await issueKeyIfReady({ db: db(), clock: () => ctx.clock.now }, t.id)).toBe(true);
    const newReturn = { returnDate: addDays(t.ret.date, 2) };

    const preview = await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, body(t, newReturn));
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p.is_available).toBe(true);
    expect(p.added_days).toBe(2);
    expect(
      p.items
        .filter((i: { description: string }) => i.description === 'Daily Rate')
        .map((i: { amount: number }) => i.amount),
    ).toEqual([await rackRate(t), await rackRate(t)]);

    const res = await post(who, `/api/v1/reservations/${t.platformId}/change`, body(t, newReturn));
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(r.requested_change).not.toBeNull();
    expect(toLocal(new Date(r.requested_change.return_at), t.tz).date).toBe(newReturn.returnDate);
    expect(r.payment_balance).toBe(p.total);
    // The car is held for the new days at once: nobody else can book them.
    const other = await signInAs(ctx);
    const taken = await post(other, '/api/v1/reservations', {
      vehicleVin: t.vin,
      pickupDate: addDays(t.ret.date, 1),
      pickupTime: '10:00',
      returnDate: addDays(t.ret.date, 3),
      returnTime: '10:00',
      vehicleTimezone: t.tz,
    });
    expect(taken.statusCode).toBe(409);

    const paid = await payBalance(who, t);
    expect(paid.payment_balance).toBe(0);
    expect(paid.requested_change).toBeNull();
    expect(toLocal(new Date(paid.return_at), t.tz)).toEqual({ date: newReturn.returnDate, time: t.ret.time });
    expect(paid.key.valid_until).toBe(paid.return_at);
    // What the provider took for the change is exactly the preview's total.
    const charges = await db()
      .selectFrom('payments')
      .select(['amount_captured'])
      .where('reservation_id', '=', t.id)
      .where('kind', '=', 'CHARGE')
      .where('status', '=', 'succeeded')
      .execute();
    expect(charges.reduce((s, c) => s + c.amount_captured, 0)).toBe(t.due + p.total);
  });

  it('moving the pickup a day earlier: the new day is dated before the pickup, and the pickup moves when paid', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    const res = await post(
      who,
      `/api/v1/reservations/${t.platformId}/change`,
      body(t, { pickupDate: addDays(t.pickup.date, -1) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    const added = r.transactions.filter(
      (x: { category: string; status: string }) => x.category === 'Rack' && x.status === 'Pending',
    );
    expect(added.map((x: { effective_date: string }) => x.effective_date)).toEqual([addDays(t.pickup.date, -1)]);
    const paid = await payBalance(who, t);
    expect(toLocal(new Date(paid.pickup_at), t.tz).date).toBe(addDays(t.pickup.date, -1));
    expect(toLocal(new Date(paid.return_at), t.tz).date).toBe(t.ret.date);
  });

  it('refused with a reason: a shorter trip, another trip in the way, an unpaid trip, someone else’s trip; nothing written', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    const shorter = await post(
      who,
      `/api/v1/reservations/${t.platformId}/change`,
      body(t, { returnDate: addDays(t.ret.date, -1) }),
    );
    expect(shorter.statusCode).toBe(422);
    expect(shorter.json().message).toMatch(/only move later/);

    // Another renter books the days right after this trip (the turnaround leaves them free).
    const other = await signInAs(ctx);
    await db().updateTable('users').set({ birthday: '1990-01-01' }).where('id', '=', other.userId).execute();
    const next = await post(other, '/api/v1/reservations', {
      vehicleVin: t.vin,
      pickupDate: addDays(t.ret.date, 1),
      pickupTime: '12:00',
      returnDate: addDays(t.ret.date, 4),
      returnTime: '12:00',
      vehicleTimezone: t.tz,
    });
    expect(next.statusCode, next.body).toBe(201);
    const preview = await post(
      who,
      `/api/v1/reservations/${t.platformId}/change/preview`,
      body(t, { returnDate: addDays(t.ret.date, 2) }),
    );
    expect(preview.json().is_available).toBe(false);
    const clash = await post(
      who,
      `/api/v1/reservations/${t.platformId}/change`,
      body(t, { returnDate: addDays(t.ret.date, 2) }),
    );
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(
      'The car is booked by someone else for part of those dates. Choose an earlier return or a later pickup.',
    );
    const after = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${t.platformId}`, headers: who.headers })
    ).json().reservation;
    expect(after.requested_change).toBeNull();
    expect(after.payment_balance).toBe(0);

    const unpaid = await startedTrip(db(), who.userId, TEST_NOW);
    const u = await post(
      who,
      `/api/v1/reservations/${unpaid.platformId}/change`,
      body(t, { returnDate: addDays(t.ret.date, 1) }),
    );
    expect(u.statusCode).toBe(422);
    expect(u.json().message).toBe('Pay for this trip before changing its dates.');
    expect(
      (
        await post(
          other,
          `/api/v1/reservations/${t.platformId}/change`,
          body(t, { returnDate: addDays(t.ret.date, 1) }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('an unpaid change lapses after the hold time, and one can be dropped at once: the items go and the car is free again', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    expect(
      (await post(who, `/api/v1/reservations/${t.platformId}/change`, body(t, { returnDate: addDays(t.ret.date, 2) })))
        .statusCode,
    ).toBe(200);
    ctx.clock.now = new Date(TEST_NOW.getTime() + (UNPAID_HOLD_MINUTES - 1) * 60_000);
    expect(await expireUnpaidChanges({ db: db(), clock: () => ctx.clock.now, cancelRetired: async () => {} })).toEqual(
      [],
    );
    ctx.clock.now = new Date(TEST_NOW.getTime() + (UNPAID_HOLD_MINUTES + 1) * 60_000);
    expect(await expireUnpaidChanges({ db: db(), clock: () => ctx.clock.now, cancelRetired: async () => {} })).toEqual([
      t.id,
    ]);
    await db()
      .updateTable('sessions')
      .set({ expires_at: new Date('2030-01-01T00:00:00Z') })
      .where('user_id', '=', who.userId)
      .execute();
    const r = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${t.platformId}`, headers: who.headers })
    ).json().reservation;
    expect(r.requested_change).toBeNull();
    expect(r.payment_balance).toBe(0);
    expect(toLocal(new Date(r.return_at), t.tz).date).toBe(t.ret.date);

    // Asked again, then dropped by the renter.
    expect(
      (await post(who, `/api/v1/reservations/${t.platformId}/change`, body(t, { returnDate: addDays(t.ret.date, 1) })))
        .statusCode,
    ).toBe(200);
    const dropped = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/reservations/${t.platformId}/change`,
      headers: who.headers,
    });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().reservation.requested_change).toBeNull();
    expect(dropped.json().reservation.payment_balance).toBe(0);
    const other = await signInAs(ctx);
    const free = await post(other, '/api/v1/reservations', {
      vehicleVin: t.vin,
      pickupDate: addDays(t.ret.date, 1),
      pickupTime: '10:00',
      returnDate: addDays(t.ret.date, 2),
      returnTime: '10:00',
      vehicleTimezone: t.tz,
    });
    expect(free.statusCode, free.body).toBe(201);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/reservations/${t.platformId}/change`,
      headers: who.headers,
    });
    expect(again.statusCode).toBe(409);
  });
});
