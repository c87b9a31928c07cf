import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReservationStatus, SECURITY_DEPOSIT_CENTS, UNDERAGE_FEE_CENTS_PER_DAY } from '@ampere/domain/constants';
import type { Reservation, Transaction } from '@ampere/domain/contract/booking';
import {
  ConflictCheckResult,
  ReservationLists,
  ReservationResult,
  ReservationWithSecret,
} from '@ampere/domain/contract/booking';
import { type PricedAddon, quoteTrip } from '@ampere/domain/pricing';
import { toInstant } from '@ampere/domain/time';
import { transact } from '../src/db/transact.ts';
import { VEHICLE_UNAVAILABLE } from '../src/features/trips/book.ts';
import { syncUnderageFeesOfRenter } from '../src/features/trips/line-items.ts';
import { IDEMPOTENCY_MISMATCH } from '../src/http/idempotency.ts';
import { TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const CHICAGO = 'America/Chicago';
const TRIP_NOT_FOUND = 'No trip with that id.';

interface Car {
  vin: string;
  rack_rate: number;
  tax_rate_ppm: number;
  model_id: number;
  slug: string;
  timezone: string;
}

describe.each(engines())('reservations on %s', (engine) => {
  let ctx: TestContext;
  const used = new Set<string>();

  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
  });

  /** A car no other test in this file books and the seed left free, in a zone, bookable online or not. */
  async function car(timezone = CHICAGO, selfServe = true): Promise<Car> {
    const rows = await ctx.handle.db
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
      .select(['v.vin', 'v.rack_rate', 'l.tax_rate_ppm', 'v.model_id', 'm.slug', 'l.timezone'])
      .where('l.timezone', '=', timezone)
      .where('v.is_self_serve_booking_allowed', '=', selfServe)
      // Cars the demo seed put no holds on, so any dates a test picks are free.
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('reservations as r').select('r.id').whereRef('r.vehicle_id', '=', 'v.id'))),
      )
      .orderBy('v.id')
      .execute();
    const row = rows.find((r) => !used.has(r.vin))!;
    used.add(row.vin);
    return row;
  }

  async function renter(
    profile: { first_name?: string; last_name?: string; birthday?: string } = {},
  ): Promise<SignedIn> {
    const who = await signInAs(ctx);
    if (Object.keys(profile).length > 0)
      await ctx.handle.db.updateTable('users').set(profile).where('id', '=', who.userId).execute();
    return who;
  }

  const tripBody = (c: Pick<Car, 'vin' | 'timezone'>, over: Record<string, unknown> = {}) => ({
    vehicleVin: c.vin,
    pickupDate: '2027-01-11',
    pickupTime: '10:00',
    returnDate: '2027-01-14',
    returnTime: '10:00',
    addonIds: [] as string[],
    vehicleTimezone: c.timezone,
    ...over,
  });

  const post = (who: SignedIn | null, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...(who?.headers ?? {}), ...headers },
      payload: payload as object,
    });
  const book = (who: SignedIn, payload: unknown, headers: Record<string, string> = {}) =>
    post(who, '/api/v1/reservations', payload, headers);

  async function booked(who: SignedIn, payload: unknown): Promise<Reservation> {
    const res = await book(who, payload);
    expect(res.statusCode, res.body).toBe(201);
    return ReservationResult.parse(res.json()).reservation;
  }

  const pending = (r: Reservation, category?: string) =>
    r.transactions.filter((t) => t.status === 'Pending' && (!category || t.category === category));
  const net = (list: Transaction[]) => list.reduce((s, t) => s + t.amount - t.discount_amount, 0);
  const addonsOf = async (c: Car) =>
    (
      await post(null, '/api/v1/addons/related', {
        vehicleVin: c.vin,
        pickupAt: '2027-01-11T16:00:00Z',
        returnAt: '2027-01-14T16:00:00Z',
      })
    ).json().addons as {
      id: string;
      type: PricedAddon['type'];
      amount: number;
      charge_frequency: PricedAddon['frequency'];
    }[];

  it('signed out, every reservation call is a 401', async () => {
    const c = await car();
    expect((await book({ userId: '', token: '', headers: {} }, tripBody(c))).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/v1/reservations' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/v1/reservations/AMP-0000-0000' })).statusCode).toBe(401);
  });

  it('books a car: one Rack row per day, the add-ons, the tax and the $200 deposit, adding up to the quoted total', async () => {
    const c = await car();
    const who = await renter({ first_name: 'Ada', last_name: 'Lovelace', birthday: '1990-05-01' });
    const offered = await addonsOf(c);
    expect(offered.map((a) => a.type).sort()).toEqual(['DAMAGE_WAIVER', 'PREPAID_EV_CHARGING', 'UNLIMITED_MILES']);
    const r = await booked(who, { ...tripBody(c, { addonIds: offered.map((a) => a.id) }), gclid: 'gclid-123' });

    expect(r.platform_id).toMatch(/^AMP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(r.id).toBe(r.platform_id);
    expect(r.status).toBe('Started');
    expect(r.pickup_at).toBe(toInstant({ date: '2027-01-11', time: '10:00' }, CHICAGO).toISOString());
    expect(r.return_at).toBe('2027-01-14T16:00:00.000Z');
    expect(r.timezone).toBe(CHICAGO);
    expect(r.vehicle.vin).toBe(c.vin);
    expect(r.vehicle.images.map((i) => i.view)).toContain('MONEYSHOT');
    expect(r.pickup_location.timezone).toBe(CHICAGO);
    expect(r.key).toBeNull();
    expect(r.damage_waiver).toBe(true);
    expect(r.agreements).toEqual([]);
    expect(r.rides).toEqual([]);

    const rack = pending(r, 'Rack');
    expect(rack.map((t) => [t.effective_date, t.amount, t.number_of_days])).toEqual([
      ['2027-01-11', c.rack_rate, 1],
      ['2027-01-12', c.rack_rate, 1],
      ['2027-01-13', c.rack_rate, 1],
    ]);
    expect(
      pending(r, 'Addon')
        .map((t) => t.addon!.type)
        .sort(),
    ).toEqual(['DAMAGE_WAIVER', 'PREPAID_EV_CHARGING', 'UNLIMITED_MILES']);
    const quote = quoteTrip({
      rackRateCents: c.rack_rate,
      days: 3,
      taxRatePpm: c.tax_rate_ppm,
      addons: offered.map((a) => ({ ...a, frequency: a.charge_frequency })),
    });
    expect(pending(r, 'Tax').map((t) => t.amount)).toEqual([quote.taxCents]);
    expect(pending(r, 'Deposit').map((t) => t.amount)).toEqual([SECURITY_DEPOSIT_CENTS]);
    expect(r.payment_balance).toBe(quote.totalCents);
    expect(net(r.transactions)).toBe(quote.totalCents + SECURITY_DEPOSIT_CENTS);

    const row = await ctx.handle.db
      .selectFrom('reservations')
      .select(['user_id', 'gclid', 'status'])
      .where('platform_id', '=', r.platform_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: who.userId, gclid: 'gclid-123', status: 'Started' });

    // The same trip read back, by its id in any case.
    const again = await ctx.app.inject({
      url: `/api/v1/reservations/${r.platform_id.toLowerCase()}`,
      headers: who.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().reservation).toEqual(r);
  });

  it('the booked car leaves vehicle search for those dates at once', async () => {
    const c = await car();
    const option = await ctx.handle.db
      .selectFrom('search_options as o')
      .innerJoin('locations as l', 'l.region_id', 'o.region_id')
      .innerJoin('vehicles as v', 'v.location_id', 'l.id')
      .select('o.id')
      .where('v.vin', '=', c.vin)
      .where('o.type', '=', 'CITY')
      .executeTakeFirstOrThrow();
    const search = async () =>
      (
        await ctx.app.inject({
          url: `/api/v1/vehicles/search/${option.id}?pickupDate=2027-01-11&returnDate=2027-01-14&limit=100`,
        })
      )
        .json()
        .items.map((i: { vin: string }) => i.vin);
    expect(await search()).toContain(c.vin);
    await booked(await renter(), tripBody(c));
    expect(await search()).not.toContain(c.vin);
  });

  it('a trip across the March daylight-saving change counts wall-clock days', async () => {
    const c = await car();
    const r = await booked(await renter(), tripBody(c, { pickupDate: '2027-03-10', returnDate: '2027-03-17' }));
    expect(pending(r, 'Rack')).toHaveLength(7);
    expect(pending(r, 'Rack').at(-1)!.effective_date).toBe('2027-03-16');
    expect(r.pickup_at).toBe('2027-03-10T16:00:00.000Z');
    expect(r.return_at).toBe('2027-03-17T15:00:00.000Z');
    expect(r.payment_balance).toBe(
      quoteTrip({ rackRateCents: c.rack_rate, days: 7, taxRatePpm: c.tax_rate_ppm }).totalCents,
    );
  });

  it('Phoenix: no daylight saving, the same local times are the same UTC hours all year', async () => {
    const c = await car('America/Phoenix');
    const r = await booked(await renter(), tripBody(c, { pickupDate: '2027-03-10', returnDate: '2027-03-17' }));
    expect(r.timezone).toBe('America/Phoenix');
    expect(r.pickup_at).toBe('2027-03-10T17:00:00.000Z');
    expect(r.return_at).toBe('2027-03-17T17:00:00.000Z');
    expect(pending(r, 'Rack')).toHaveLength(7);
    expect(pending(r, 'Tax')[0]!.amount).toBe(
      quoteTrip({ rackRateCents: c.rack_rate, days: 7, taxRatePpm: c.tax_rate_ppm }).taxCents,
    );
  });

  it('refuses every bad request with a 4xx naming the field, never a 500, and books nothing', async () => {
    const c = await car();
    const other = await car('America/Los_Angeles');
    const closed = await car(CHICAGO, false);
    const who = await renter();
    const cases: [string, unknown, number, string][] = [
      ['unknown VIN', tripBody({ vin: '5YJ3E1EA0PF999999', timezone: CHICAGO }), 404, 'vehicleVin'],
      ['malformed VIN', tripBody({ vin: 'NOT-A-VIN', timezone: CHICAGO }), 400, 'vehicleVin'],
      ['wrong vehicleTimezone', tripBody({ vin: other.vin, timezone: CHICAGO }), 422, 'vehicleTimezone'],
      ['unknown time zone', tripBody(c, { vehicleTimezone: 'Mars/Olympus' }), 422, 'vehicleTimezone'],
      ['return before pickup', tripBody(c, { returnDate: '2027-01-10' }), 422, 'returnDate'],
      ['same-day return', tripBody(c, { returnDate: '2027-01-11', returnTime: '18:00' }), 422, 'returnDate'],
      ['longer than 28 days', tripBody(c, { returnDate: '2027-02-10' }), 422, 'returnDate'],
      ['past date', tripBody(c, { pickupDate: '2026-11-20', returnDate: '2026-11-25' }), 422, 'pickupDate'],
      [
        'too soon today',
        tripBody(c, { pickupDate: '2026-11-22', pickupTime: '10:00', returnDate: '2026-11-25' }),
        422,
        'pickupTime',
      ],
      [
        'more than 365 days ahead',
        tripBody(c, { pickupDate: '2027-11-25', returnDate: '2027-11-28' }),
        422,
        'pickupDate',
      ],
      ['not bookable online', tripBody(closed), 422, 'vehicleVin'],
      ['unknown add-on', tripBody(c, { addonIds: ['free-pony'] }), 422, 'addonIds'],
      ['bad time', tripBody(c, { pickupTime: '25:00' }), 400, 'pickupTime'],
      ['missing date', { ...tripBody(c), pickupDate: undefined }, 400, 'pickupDate'],
    ];
    for (const [what, payload, status, field] of cases) {
      const res = await book(who, payload);
      expect([what, res.statusCode, res.json().field]).toEqual([what, status, field]);
      expect(res.json().message.length).toBeGreaterThan(0);
    }
    const idempotencyKey = await book(who, tripBody(c), { 'idempotency-key': 'x'.repeat(201) });
    expect([idempotencyKey.statusCode, idempotencyKey.json().field]).toEqual([400, 'Idempotency-Key']);

    const young = await renter({ birthday: '2009-03-01' }); // 17 on 11 January 2027
    const underage = await book(young, tripBody(c));
    expect([underage.statusCode, underage.json().field, underage.json().message]).toEqual([
      422,
      'birthday',
      'You must be at least 18 years old at pickup to rent with us.',
    ]);
    const rows = await ctx.handle.db
      .selectFrom('reservations')
      .select('id')
      .where('user_id', 'in', [who.userId, young.userId])
      .execute();
    expect(rows).toEqual([]);
  });

  it('under 25 at pickup pays the Underage User Fee per day; 25 does not', async () => {
    const r24 = await booked(await renter({ birthday: '2002-01-12' }), tripBody(await car())); // 24 on 11 Jan 2027
    const fee = r24.transactions.filter((t) => t.description === 'Underage User Fee');
    expect(fee.map((t) => [t.category, t.cost, t.amount, t.number_of_days])).toEqual([
      ['Additional', UNDERAGE_FEE_CENTS_PER_DAY, 3 * UNDERAGE_FEE_CENTS_PER_DAY, 3],
    ]);
    const c = await car();
    const r25 = await booked(await renter({ birthday: '2002-01-11' }), tripBody(c)); // 25 that day
    expect(r25.transactions.some((t) => t.description === 'Underage User Fee')).toBe(false);
    expect(r25.payment_balance).toBe(
      quoteTrip({ rackRateCents: c.rack_rate, days: 3, taxRatePpm: c.tax_rate_ppm }).totalCents,
    );
  });

  it('a birthday given after booking: the fee is added before payment, and removed again after a correction', async () => {
    const c = await car();
    const who = await renter();
    const r = await booked(who, tripBody(c));
    expect(r.transactions.some((t) => t.description === 'Underage User Fee')).toBe(false);
    // What a birthday change runs over the renter's open trips; true when this trip's fee changed.
    const sync = async () =>
      (await transact(ctx.handle.db, (trx) => syncUnderageFeesOfRenter(trx, who.userId, ctx.clock.now))).length > 0;
    const read = async () =>
      ReservationResult.parse(
        (await ctx.app.inject({ url: `/api/v1/reservations/${r.platform_id}`, headers: who.headers })).json(),
      ).reservation;

    await ctx.handle.db.updateTable('users').set({ birthday: '2004-06-01' }).where('id', '=', who.userId).execute();
    expect(await sync()).toBe(true);
    expect(await sync()).toBe(false);
    const young = await read();
    expect(pending(young, 'Additional').map((t) => [t.description, t.amount])).toEqual([
      ['Underage User Fee', 3 * UNDERAGE_FEE_CENTS_PER_DAY],
    ]);
    const withFee = c.rack_rate * 3 + 3 * UNDERAGE_FEE_CENTS_PER_DAY;
    expect(pending(young, 'Tax').map((t) => t.amount)).toEqual([
      quoteTrip({ rackRateCents: withFee, days: 1, taxRatePpm: c.tax_rate_ppm }).taxCents,
    ]);
    expect(young.payment_balance).toBe(
      quoteTrip({ rackRateCents: withFee, days: 1, taxRatePpm: c.tax_rate_ppm }).totalCents,
    );

    await ctx.handle.db.updateTable('users').set({ birthday: '1990-06-01' }).where('id', '=', who.userId).execute();
    expect(await sync()).toBe(true);
    expect((await read()).payment_balance).toBe(r.payment_balance);
  });

  it('a car taken for overlapping dates, or within the turnaround after its return, is a 409 with the spec message; a pickup one turnaround later is fine', async () => {
    const c = await car();
    await booked(await renter(), tripBody(c));
    const res = await book(await renter(), tripBody(c, { pickupDate: '2027-01-13', returnDate: '2027-01-16' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(VEHICLE_UNAVAILABLE);
    // The first trip returns at 10:00 on the 14th; the car is cleaned and charged for 60 minutes.
    const tooSoon = await book(
      await renter(),
      tripBody(c, { pickupDate: '2027-01-14', pickupTime: '10:45', returnDate: '2027-01-16' }),
    );
    expect([tooSoon.statusCode, tooSoon.json().message]).toEqual([409, VEHICLE_UNAVAILABLE]);
    await booked(
      await renter(),
      tripBody(c, { pickupDate: '2027-01-14', pickupTime: '11:00', returnDate: '2027-01-16' }),
    );
  });

  it("the renter's own unpaid booking of the car is replaced by a new one for overlapping dates", async () => {
    const c = await car();
    const who = await renter();
    const first = await booked(who, tripBody(c));
    const second = await booked(who, tripBody(c, { returnDate: '2027-01-15' }));
    const list = ReservationLists.parse(
      (await ctx.app.inject({ url: '/api/v1/reservations', headers: who.headers })).json(),
    );
    expect(list.upcoming.map((r) => r.platform_id)).toEqual([second.platform_id]);
    expect(list.canceled.map((r) => r.platform_id)).toEqual([first.platform_id]);
    expect(pending(list.canceled[0]!)).toEqual([]);
  });

  it("another renter's trip is a 404 on every route that takes a platform id", async () => {
    const c = await car();
    const owner = await renter({ first_name: 'Ada', last_name: 'Lovelace' });
    const r = await booked(owner, tripBody(c));
    const stranger = await renter({ first_name: 'Eve', last_name: 'Smith' });
    const calls = [
      ctx.app.inject({ url: `/api/v1/reservations/${r.platform_id}`, headers: stranger.headers }),
      ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/reservations/addons',
        headers: stranger.headers,
        payload: { platform_id: r.platform_id, addon_ids: [] },
      }),
      post(stranger, '/api/v1/reservations/eligibility-check', { platform_id: r.platform_id }),
      post(stranger, '/api/v1/discounts/apply', { code: 'EVENT15', platform_id: r.platform_id }),
      post(stranger, '/api/v1/reservations/conflict-check', { ...tripBody(c), platform_id: r.platform_id }),
      ctx.app.inject({ url: '/api/v1/reservations/AMP-ZZZZ-ZZZZ', headers: owner.headers }),
    ];
    for (const res of await Promise.all(calls))
      expect([res.statusCode, res.json().message]).toEqual([404, TRIP_NOT_FOUND]);
    const after = await ctx.app.inject({ url: `/api/v1/reservations/${r.platform_id}`, headers: owner.headers });
    expect(after.json().reservation).toEqual(r);
  });

  it('lists the renter’s trips by section, each sorted, and only theirs', async () => {
    const who = await renter();
    const make = async (pickupDate: string, returnDate: string, status?: ReservationStatus) => {
      const r = await booked(who, tripBody(await car(), { pickupDate, returnDate }));
      if (status)
        await ctx.handle.db
          .updateTable('reservations')
          .set({ status })
          .where('platform_id', '=', r.platform_id)
          .execute();
      return r.platform_id;
    };
    const started = await make('2027-02-01', '2027-02-03');
    const upcomingSoon = await make('2027-01-20', '2027-01-22', 'Pending');
    const active = await make('2027-01-05', '2027-01-08', 'On Rent');
    const pastOld = await make('2026-12-01', '2026-12-03', 'Returned');
    const pastRecent = await make('2026-12-10', '2026-12-12', 'Returned');
    const canceled = await make('2027-03-01', '2027-03-03', 'Canceled');
    await booked(await renter(), tripBody(await car()));
    const res = await ctx.app.inject({ url: '/api/v1/reservations', headers: who.headers });
    expect(res.statusCode).toBe(200);
    const lists = ReservationLists.parse(res.json());
    const ids = (l: Reservation[]) => l.map((r) => r.platform_id);
    expect(ids(lists.upcoming)).toEqual([upcomingSoon, started]);
    expect(ids(lists.active)).toEqual([active]);
    expect(ids(lists.past)).toEqual([pastRecent, pastOld]);
    expect(ids(lists.canceled)).toEqual([canceled]);
    // No key before the license, insurance and deposit are in place (keys.integration.test.ts).
    expect(lists.upcoming.map((r) => r.key)).toEqual([null, null]);
  });

  it('add-ons: the pending add-ons become exactly the list, paid ones stay, and the tax follows', async () => {
    const c = await car();
    const who = await renter();
    const r = await booked(who, tripBody(c));
    const offered = await addonsOf(c);
    const waiver = offered.find((a) => a.type === 'DAMAGE_WAIVER')!;
    const miles = offered.find((a) => a.type === 'UNLIMITED_MILES')!;
    const patch = (addon_ids: string[]) =>
      ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/reservations/addons',
        headers: who.headers,
        payload: { platform_id: r.platform_id, addon_ids },
      });
    const quoted = (...addons: typeof offered) =>
      quoteTrip({
        rackRateCents: c.rack_rate,
        days: 3,
        taxRatePpm: c.tax_rate_ppm,
        addons: addons.map((a) => ({ ...a, frequency: a.charge_frequency })),
      });

    const withWaiver = ReservationWithSecret.parse((await patch([waiver.id])).json());
    expect(withWaiver.stripe).toBeNull();
    expect(withWaiver.reservation.damage_waiver).toBe(true);
    expect(pending(withWaiver.reservation, 'Addon').map((t) => [t.addon!.id, t.amount])).toEqual([
      [waiver.id, 3 * waiver.amount],
    ]);
    expect(pending(withWaiver.reservation, 'Tax').map((t) => t.amount)).toEqual([quoted(waiver).taxCents]);
    expect(withWaiver.reservation.payment_balance).toBe(quoted(waiver).totalCents);

    const swapped = ReservationWithSecret.parse((await patch([miles.id, miles.id])).json()).reservation;
    expect(pending(swapped, 'Addon').map((t) => t.addon!.id)).toEqual([miles.id]);
    expect(swapped.damage_waiver).toBe(false);
    expect(
      swapped.transactions.filter((t) => t.category === 'Addon' && t.status === 'Canceled').map((t) => t.addon!.id),
    ).toEqual([waiver.id]);
    expect(swapped.payment_balance).toBe(quoted(miles).totalCents);

    // A paid add-on stays when left out of the list.
    await ctx.handle.db
      .updateTable('transactions')
      .set({ status: 'Successful' })
      .where('addon_id', '=', miles.id)
      .where('status', '=', 'Pending')
      .execute();
    const paidKept = ReservationWithSecret.parse((await patch([])).json()).reservation;
    expect(
      paidKept.transactions.filter((t) => t.category === 'Addon' && t.status === 'Successful').map((t) => t.addon!.id),
    ).toEqual([miles.id]);
    expect(pending(paidKept, 'Tax').map((t) => t.amount)).toEqual([quoted().taxCents]);

    const bad = await patch(['free-pony']);
    expect([bad.statusCode, bad.json().field]).toEqual([422, 'addon_ids']);
    await ctx.handle.db
      .updateTable('reservations')
      .set({ status: 'On Rent' })
      .where('platform_id', '=', r.platform_id)
      .execute();
    const late = await patch([waiver.id]);
    expect([late.statusCode, late.json().field]).toEqual([422, 'platform_id']);
  });

  it('discounts: a valid code takes its percent off each rental day and the tax follows; a new code replaces it', async () => {
    const c = await car();
    const who = await renter();
    const r = await booked(who, tripBody(c));
    const apply = (code: string) => post(who, '/api/v1/discounts/apply', { code, platform_id: r.platform_id });
    const expectDiscount = (res: Reservation, percent: number) => {
      const perDay = Math.round((c.rack_rate * percent) / 100);
      expect(pending(res, 'Rack').map((t) => t.discount_amount)).toEqual([perDay, perDay, perDay]);
      const taxable = 3 * (c.rack_rate - perDay);
      expect(pending(res, 'Tax').map((t) => t.amount)).toEqual([
        quoteTrip({ rackRateCents: taxable, days: 1, taxRatePpm: c.tax_rate_ppm }).taxCents,
      ]);
      expect(res.payment_balance).toBe(
        quoteTrip({ rackRateCents: taxable, days: 1, taxRatePpm: c.tax_rate_ppm }).totalCents,
      );
    };

    const welcome = await apply(' welcome10 ');
    expect(welcome.statusCode, welcome.body).toBe(200);
    const w = ReservationWithSecret.parse(welcome.json());
    expect(w.reservation.discount_code).toBe('WELCOME10');
    expectDiscount(w.reservation, 10);

    const same = ReservationWithSecret.parse((await apply('WELCOME10')).json()).reservation;
    expect(same.transactions).toEqual(w.reservation.transactions);

    const event = ReservationWithSecret.parse((await apply('EVENT15')).json()).reservation;
    expect(event.discount_code).toBe('EVENT15');
    expectDiscount(event, 15);

    const unknown = await apply('NOPE');
    expect([unknown.statusCode, unknown.json().field, unknown.json().message]).toEqual([
      422,
      'code',
      'NOPE is not a valid coupon code.',
    ]);

    // Once everything is paid there is nothing to discount.
    await ctx.handle.db
      .updateTable('transactions')
      .set({ status: 'Successful' })
      .where('status', '=', 'Pending')
      .where('category', '!=', 'Deposit')
      .where(
        'reservation_id',
        '=',
        ctx.handle.db.selectFrom('reservations').select('id').where('platform_id', '=', r.platform_id),
      )
      .execute();
    const paid = await apply('WELCOME10');
    expect([paid.statusCode, paid.json().field]).toEqual([422, 'code']);
  });

  it('discounts: a new-renters-only code is refused to a renter with an earlier paid trip; expired and inactive codes too', async () => {
    const who = await renter();
    const earlier = await booked(who, tripBody(await car(), { pickupDate: '2026-12-01', returnDate: '2026-12-03' }));
    await ctx.handle.db
      .updateTable('reservations')
      .set({ status: 'Returned' })
      .where('platform_id', '=', earlier.platform_id)
      .execute();
    const r = await booked(who, tripBody(await car()));
    const apply = (code: string) => post(who, '/api/v1/discounts/apply', { code, platform_id: r.platform_id });
    const refused = await apply('WELCOME10');
    expect([refused.statusCode, refused.json().field, refused.json().message]).toEqual([
      422,
      'code',
      'The coupon code WELCOME10 is only for your first trip with us.',
    ]);

    await ctx.handle.db
      .insertInto('discounts')
      .values([
        {
          code: `OLD${engine.length}`,
          kind: 'MARKETING',
          percent: 20,
          description: 'old',
          ends_at: new Date(TEST_NOW.getTime() - 1000),
          starts_at: null,
          max_redemptions: null,
        },
        {
          code: `OFF${engine.length}`,
          kind: 'MARKETING',
          percent: 20,
          description: 'off',
          active: false,
          starts_at: null,
          ends_at: null,
          max_redemptions: null,
        },
      ])
      .execute();
    expect((await apply(`old${engine.length}`)).json().message).toBe(
      `The coupon code OLD${engine.length} has expired.`,
    );
    expect((await apply(`OFF${engine.length}`)).json().message).toBe(
      `The coupon code OFF${engine.length} is no longer active.`,
    );
    const current = await ctx.app.inject({ url: `/api/v1/reservations/${r.platform_id}`, headers: who.headers });
    expect(current.json().reservation.discount_code).toBeNull();
    expect(pending(current.json().reservation, 'Rack').every((t: Transaction) => t.discount_amount === 0)).toBe(true);
  });

  it('eligibility: the built-in soft credit check passes a renter and declines the last name Decline, once per trip', async () => {
    const check = (who: SignedIn, platform_id: string) =>
      post(who, '/api/v1/reservations/eligibility-check', { platform_id });
    const good = await renter({ first_name: 'Ada', last_name: 'Lovelace' });
    const goodTrip = await booked(good, tripBody(await car()));
    expect((await check(good, goodTrip.platform_id)).json()).toEqual({ is_eligible: true });

    const declined = await renter({ first_name: 'Dee', last_name: ' decline ' });
    const declinedTrip = await booked(declined, tripBody(await car()));
    expect((await check(declined, declinedTrip.platform_id)).json()).toEqual({ is_eligible: false });
    // Run once: renaming afterwards does not change the answer.
    await ctx.handle.db.updateTable('users').set({ last_name: 'Smith' }).where('id', '=', declined.userId).execute();
    expect((await check(declined, declinedTrip.platform_id)).json()).toEqual({ is_eligible: false });
    const stored = await ctx.app.inject({
      url: `/api/v1/reservations/${declinedTrip.platform_id}`,
      headers: declined.headers,
    });
    expect(stored.json().reservation.is_eligible).toBe(false);

    const nameless = await renter();
    const namelessTrip = await booked(nameless, tripBody(await car()));
    const refused = await check(nameless, namelessTrip.platform_id);
    expect([refused.statusCode, refused.json().field]).toEqual([422, 'last_name']);
  });

  it('conflict check: overlapping active reservations of the car, leaving out the renter’s own trip', async () => {
    const c = await car();
    const who = await renter();
    const mine = await booked(who, tripBody(c));
    const check = (over: Record<string, unknown> = {}) =>
      post(who, '/api/v1/reservations/conflict-check', { ...tripBody(c), ...over });
    const busy = ConflictCheckResult.parse(
      (await check({ pickupDate: '2027-01-13', returnDate: '2027-01-15' })).json(),
    );
    expect(busy).toEqual({
      is_available: false,
      conflicts: [{ pickup_at: mine.pickup_at, return_at: mine.return_at }],
    });
    expect(ConflictCheckResult.parse((await check({ platform_id: mine.platform_id })).json())).toEqual({
      is_available: true,
      conflicts: [],
    });
    expect(
      ConflictCheckResult.parse((await check({ pickupDate: '2027-01-14', returnDate: '2027-01-16' })).json())
        .is_available,
    ).toBe(false);
    expect(
      ConflictCheckResult.parse(
        (await check({ pickupDate: '2027-01-14', pickupTime: '11:00', returnDate: '2027-01-16' })).json(),
      ).is_available,
    ).toBe(true);
    const wrongZone = await check({ vehicleTimezone: 'America/Denver' });
    expect([wrongZone.statusCode, wrongZone.json().field]).toEqual([422, 'vehicleTimezone']);
    // The period asked about is bounded like any trip: a return years away is refused, naming the limit.
    for (const over of [{ returnDate: '2031-01-15' }, { pickupDate: '2027-01-13', returnDate: '2027-02-11' }]) {
      const tooLong = await check(over);
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.json()).toMatchObject({
        field: 'returnDate',
        message: 'The return must be within 28 days of the pickup.',
      });
    }
    expect((await check({ pickupDate: '2027-01-13', returnDate: '2027-02-10' })).statusCode).toBe(200);
    const backwards = await check({ pickupDate: '2027-01-15', returnDate: '2027-01-13' });
    expect([backwards.statusCode, backwards.json().message]).toEqual([422, 'The return must be after the pickup.']);
  });

  describe('Idempotency-Key', () => {
    it('a retry with the same key and body answers the first response and books once', async () => {
      const c = await car();
      const who = await renter();
      const headers = { 'idempotency-key': 'booking-attempt-1' };
      const first = await book(who, tripBody(c), headers);
      const second = await book(who, tripBody(c), headers);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.body).toBe(first.body);
      ReservationResult.parse(first.json());
      const rows = await ctx.handle.db
        .selectFrom('reservations')
        .select('id')
        .where('user_id', '=', who.userId)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('the same key with another body is refused and changes nothing', async () => {
      const c = await car();
      const who = await renter();
      const headers = { 'idempotency-key': 'booking-attempt-2' };
      expect((await book(who, tripBody(c), headers)).statusCode).toBe(201);
      const other = await book(who, tripBody(c, { returnDate: '2027-01-15' }), headers);
      expect([other.statusCode, other.json().message]).toEqual([422, IDEMPOTENCY_MISMATCH]);
      expect(
        await ctx.handle.db.selectFrom('reservations').select('id').where('user_id', '=', who.userId).execute(),
      ).toHaveLength(1);
    });

    it('a refused first attempt is stored: the retry gets the same 409 even after the car frees up', async () => {
      const c = await car();
      const holder = await renter();
      const taken = await booked(holder, tripBody(c));
      const who = await renter();
      const headers = { 'idempotency-key': 'booking-attempt-3' };
      const first = await book(who, tripBody(c), headers);
      expect([first.statusCode, first.json().message]).toEqual([409, VEHICLE_UNAVAILABLE]);
      await ctx.handle.db
        .updateTable('reservations')
        .set({ status: 'Canceled' })
        .where('platform_id', '=', taken.platform_id)
        .execute();
      const retry = await book(who, tripBody(c), headers);
      expect(retry.statusCode).toBe(409);
      expect(retry.body).toBe(first.body);
      // A new key is a new request.
      expect((await book(who, tripBody(c), { 'idempotency-key': 'booking-attempt-4' })).statusCode).toBe(201);
    });

    it('keys are per renter: two renters may use the same key', async () => {
      const headers = { 'idempotency-key': 'same-key' };
      expect((await book(await renter(), tripBody(await car()), headers)).statusCode).toBe(201);
      expect((await book(await renter(), tripBody(await car()), headers)).statusCode).toBe(201);
    });
  });
});
