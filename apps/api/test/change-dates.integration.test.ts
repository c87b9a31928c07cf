import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, toInstant, toLocal } from '@ampere/domain/time';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { dateChangeTitle } from '@ampere/domain/booking';
import { KEY_LEAD_MINUTES } from '@ampere/domain/verification';
import { issueKeyIfReady } from '../src/features/trips/keys.ts';
import { expireUnpaidChanges } from '../src/features/trips/change-dates.ts';
import { advanceTripStatus } from '../src/features/trips/trip-status.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { type SandboxContext, createSandboxContext, payBalance, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { keepSignedIn, offeredAddons } from './trips.ts';

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

  async function paidTrip(who: SignedIn, opts: { returnTime?: string } = {}): Promise<Trip> {
    ctx.clock.now = TEST_NOW;
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { days: 3, returnTime: opts.returnTime });
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
  const rackRate = async (t: Trip) =>
    (await db().selectFrom('vehicles').select('rack_rate').where('vin', '=', t.vin).executeTakeFirstOrThrow())
      .rack_rate;
  const taxRatePpm = async (t: Trip) =>
    (
      await db()
        .selectFrom('reservations as r')
        .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
        .select('l.tax_rate_ppm')
        .where('r.id', '=', t.id)
        .executeTakeFirstOrThrow()
    ).tax_rate_ppm;
  /** The trip's charges as the provider holds them: what it took, and what it gave back. */
  const charges = (t: Trip) =>
    db()
      .selectFrom('payments')
      .select(['amount_captured', 'amount_refunded', 'provider_intent_id'])
      .where('reservation_id', '=', t.id)
      .where('kind', '=', 'CHARGE')
      .where('status', '=', 'succeeded')
      .execute();
  const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((n, r) => n + f(r), 0);

  it('extending by two days: previewed, held at once, paid to the cent, and then the trip’s return and key move', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    await verifiedRenter(db(), who.userId, TEST_NOW);
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

    const paid = await payBalance(ctx, who, t.platformId, t.id);
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

  it('moving the pickup a day earlier: one day at the daily rate plus its tax, paid to the cent; the pickup moves when paid', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    const earlier = body(t, { pickupDate: addDays(t.pickup.date, -1) });
    const p = (await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, earlier)).json();
    const rate = await rackRate(t);
    const tax = Math.round((rate * (await taxRatePpm(t))) / 1_000_000);
    expect(p).toMatchObject({ is_available: true, added_days: 1, tax, total: rate + tax });
    expect(p.items).toEqual([{ description: 'Daily Rate', amount: rate }]);

    const res = await post(who, `/api/v1/reservations/${t.platformId}/change`, earlier);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(r.payment_balance).toBe(rate + tax);
    const added = r.transactions.filter(
      (x: { category: string; status: string }) => x.category === 'Rack' && x.status === 'Pending',
    );
    expect(added.map((x: { effective_date: string }) => x.effective_date)).toEqual([addDays(t.pickup.date, -1)]);
    const paid = await payBalance(ctx, who, t.platformId, t.id);
    expect(paid.payment_balance).toBe(0);
    expect(toLocal(new Date(paid.pickup_at), t.tz).date).toBe(addDays(t.pickup.date, -1));
    expect(toLocal(new Date(paid.return_at), t.tz).date).toBe(t.ret.date);
    expect(paid.last_change).toMatchObject({ pickup_at: toInstant(t.pickup, t.tz).toISOString() });
    expect(dateChangeTitle(paid)).toBe('Your trip has been modified!');
    // The provider took the booking and the day before it, to the cent, and the ledger says the same.
    const taken = await charges(t);
    expect(taken).toHaveLength(2);
    expect(sum(taken, (c) => c.amount_captured)).toBe(t.due + rate + tax);
    const settled = (paid.transactions as { category: string; status: string; captured_amount: number }[]).filter(
      (x) => x.category !== 'Deposit' && x.status === 'Successful',
    );
    expect(sum(settled, (x) => x.captured_amount)).toBe(t.due + rate + tax);
  });

  it('a trip already On Rent extended by a day: the day paid to the cent, then its return and the key’s window move', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    await verifiedRenter(db(), who.userId, TEST_NOW);
    expect(await issueKeyIfReady({ db: db(), clock: () => ctx.clock.now }, t.id)).toBe(true);
    await keepSignedIn(db(), who.userId);
    const pickupAt = toInstant(t.pickup, t.tz);
    ctx.clock.now = new Date(pickupAt.getTime() + 60_000);
    await advanceTripStatus({ db: db(), clock: () => ctx.clock.now });
    const before = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${t.platformId}`, headers: who.headers })
    ).json().reservation;
    expect(before.status).toBe('On Rent');
    const later = body(t, { returnDate: addDays(t.ret.date, 1) });

    const p = (await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, later)).json();
    const rate = await rackRate(t);
    const tax = Math.round((rate * (await taxRatePpm(t))) / 1_000_000);
    expect(p).toMatchObject({ is_available: true, added_days: 1, total: rate + tax });
    const res = await post(who, `/api/v1/reservations/${t.platformId}/change`, later);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reservation.payment_balance).toBe(rate + tax);
    // Until paid, the trip's return (and the key) stay where they were.
    expect(res.json().reservation.key.valid_until).toBe(before.return_at);

    const paid = await payBalance(ctx, who, t.platformId, t.id);
    expect(paid.status).toBe('On Rent');
    expect(paid.payment_balance).toBe(0);
    expect(toLocal(new Date(paid.return_at), t.tz)).toEqual({ date: later.returnDate, time: t.ret.time });
    expect(paid.key.valid_from).toBe(before.key.valid_from);
    expect(paid.key.valid_until).toBe(paid.return_at);
    expect(sum(await charges(t), (c) => c.amount_captured)).toBe(t.due + rate + tax);
  });

  it('a later return within the last rental day adds nothing to pay: the trip and its key move at once, no payment asked', async () => {
    const who = await signInAs(ctx);
    // Three rental days, returned at 08:00: the last day has two hours left.
    const t = await paidTrip(who, { returnTime: '08:00' });
    await verifiedRenter(db(), who.userId, TEST_NOW);
    expect(await issueKeyIfReady({ db: db(), clock: () => ctx.clock.now }, t.id)).toBe(true);
    const later = body(t, { returnTime: '09:30' });
    const p = (await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, later)).json();
    expect(p).toMatchObject({ is_available: true, added_days: 0, items: [], total: 0 });

    const res = await post(who, `/api/v1/reservations/${t.platformId}/change`, later);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(r.requested_change).toBeNull();
    expect(r.payment_balance).toBe(0);
    expect(toLocal(new Date(r.return_at), t.tz)).toEqual({ date: t.ret.date, time: '09:30' });
    expect(r.key.valid_until).toBe(r.return_at);
    // The trip keeps what it was before, so the confirmation can say the return moved.
    expect(r.last_change).toMatchObject({ pickup_at: r.pickup_at, return_at: toInstant(t.ret, t.tz).toISOString() });
    expect(dateChangeTitle(r)).toBe('Your trip has been extended!');

    // A pickup a quarter of an hour earlier still fits the three days: applied at once too, and it reads 'modified'.
    const earlier = { ...later, pickupTime: '09:45' };
    expect((await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, earlier)).json().added_days).toBe(0);
    const moved = (await post(who, `/api/v1/reservations/${t.platformId}/change`, earlier)).json().reservation;
    expect(toLocal(new Date(moved.pickup_at), t.tz)).toEqual({ date: t.pickup.date, time: '09:45' });
    expect(moved.last_change).toMatchObject({ pickup_at: r.pickup_at, return_at: r.return_at });
    expect(dateChangeTitle(moved)).toBe('Your trip has been modified!');
    expect(moved.key.valid_from).toBe(new Date(Date.parse(moved.pickup_at) - KEY_LEAD_MINUTES * 60_000).toISOString());
    // Nothing to pay, and nothing asked of the card.
    const payments = await db().selectFrom('payments').select('id').where('reservation_id', '=', t.id).execute();
    expect(payments).toHaveLength(2);
    expect(sum(await charges(t), (c) => c.amount_captured)).toBe(t.due);
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

  it('asked again before paying, with an add-on added since the booking was paid: the first change’s items go, the second’s are priced with the add-on, taxed once with it and paid to the cent', async () => {
    const who = await signInAs(ctx);
    const t = await paidTrip(who);
    const offered = await offeredAddons(ctx, t.vin, {
      pickupAt: toInstant(t.pickup, t.tz).toISOString(),
      returnAt: toInstant(t.ret, t.tz).toISOString(),
    });
    const daily = await db()
      .selectFrom('addons')
      .select(['id', 'amount'])
      .where(
        'id',
        'in',
        offered.map((a) => a.id),
      )
      .where('charge_frequency', '=', 'DAY')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/reservations/addons',
      headers: who.headers,
      payload: { platform_id: t.platformId, addon_ids: [daily.id] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    type Row = { category: string; status: string; amount: number };
    const forTrip = (patched.json().reservation.transactions as Row[]).find(
      (x) => x.category === 'Addon' && x.status === 'Pending',
    )!.amount;

    // A change's items are told apart by the moment it was asked: each step a minute after the last.
    ctx.clock.now = new Date(TEST_NOW.getTime() + 60_000);
    const twoDays = body(t, { returnDate: addDays(t.ret.date, 2) });
    expect((await post(who, `/api/v1/reservations/${t.platformId}/change`, twoDays)).statusCode).toBe(200);
    ctx.clock.now = new Date(TEST_NOW.getTime() + 2 * 60_000);
    const oneDay = body(t, { returnDate: addDays(t.ret.date, 1) });
    const rate = await rackRate(t);
    const preview = (await post(who, `/api/v1/reservations/${t.platformId}/change/preview`, oneDay)).json();
    expect(preview).toMatchObject({ is_available: true, added_days: 1 });
    expect(preview.items.map((i: { amount: number }) => i.amount)).toEqual([rate, daily.amount]);

    const res = await post(who, `/api/v1/reservations/${t.platformId}/change`, oneDay);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().reservation;
    expect(toLocal(new Date(r.requested_change.return_at), t.tz).date).toBe(oneDay.returnDate);
    const rows = r.transactions as Row[];
    // The first change's two days and their add-on are canceled; one Tax row is left pending, on
    // the add-on for the trip's own days and the added day with its add-on.
    expect(rows.filter((x) => x.category === 'Rack' && x.status === 'Canceled')).toHaveLength(2);
    const pending = rows.filter((x) => x.status === 'Pending' && x.category !== 'Deposit');
    const taxable = forTrip + rate + daily.amount;
    const tax = Math.round((taxable * (await taxRatePpm(t))) / 1_000_000);
    expect(pending.filter((x) => x.category === 'Tax').map((x) => x.amount)).toEqual([tax]);
    const byAmount = (a: number, b: number) => a - b;
    expect(
      pending
        .filter((x) => x.category !== 'Tax')
        .map((x) => x.amount)
        .sort(byAmount),
    ).toEqual([forTrip, rate, daily.amount].sort(byAmount));
    expect(r.payment_balance).toBe(taxable + tax);

    const paid = await payBalance(ctx, who, t.platformId, t.id);
    expect(paid.payment_balance).toBe(0);
    expect(toLocal(new Date(paid.return_at), t.tz).date).toBe(oneDay.returnDate);
    expect(sum(await charges(t), (c) => c.amount_captured)).toBe(t.due + taxable + tax);
  });
});
