import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@ampere/domain/time';
import { engines } from './harness.ts';
import { unbookedCar } from './factories.ts';
import { offeredAddons } from './trips.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/**
 * A coupon is claimed in the database when a trip's payment is prepared (decision 052): a
 * first-trip code pays for one trip of a renter whatever the order of charges, deposits and calls,
 * a code refused comes off before anything is charged, and max_redemptions holds under a race.
 */

const GOOD_CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
const FIRST_TRIP_REFUSAL =
  'The coupon code WELCOME10 is only for your first trip with us. It has been taken off this trip: check the new total, then pay again.';

interface Trip {
  id: string;
  platformId: string;
}

describe.each(engines())('coupon claims on %s', (engine) => {
  let ctx: SandboxContext;
  const usedCars = new Set<string>();

  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  async function renter(): Promise<SignedIn> {
    const who = await signInAs(ctx);
    await ctx.handle.db
      .updateTable('users')
      .set({ first_name: 'Ada', last_name: 'Okafor', email: `ada.${who.userId}@example.com`, birthday: '1988-03-09' })
      .where('id', '=', who.userId)
      .execute();
    return who;
  }

  const inject = (who: SignedIn, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url, headers: who.headers, payload });

  /** A three-day trip on a car no other test here uses, booked through the API. */
  async function book(who: SignedIn, pickupDate: string): Promise<Trip> {
    const car = await unbookedCar(ctx.handle.db, usedCars);
    const res = await inject(who, '/api/v1/reservations', {
      vehicleVin: car.vin,
      vehicleTimezone: car.timezone,
      pickupDate,
      pickupTime: '10:00',
      returnDate: addDays(pickupDate, 3),
      returnTime: '10:00',
      addonIds: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    const platformId = res.json().reservation.platform_id as string;
    const { id } = await ctx.handle.db
      .selectFrom('reservations')
      .select('id')
      .where('platform_id', '=', platformId)
      .executeTakeFirstOrThrow();
    return { id, platformId };
  }

  const apply = (who: SignedIn, trip: Trip, code: string) =>
    inject(who, '/api/v1/discounts/apply', { code, platform_id: trip.platformId });
  const pay = (who: SignedIn, trip: Trip) => inject(who, '/api/v1/payments', { platform_id: trip.platformId });
  const confirmTrip = (who: SignedIn, trip: Trip) =>
    inject(who, '/api/v1/reservations/confirm', { platform_id: trip.platformId });
  const confirmWithCard = (clientSecret: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, card: GOOD_CARD },
    });

  /** The secrets to pay with; a refused coupon answers 409 first, and paying again is at full price. */
  async function secretsFor(who: SignedIn, trip: Trip) {
    let res = await pay(who, trip);
    if (res.statusCode === 409) res = await pay(who, trip);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().stripe as { client_secret: string; deposit_client_secret: string };
  }

  async function takenByProvider(trip: Trip): Promise<number> {
    const rows = await ctx.handle.db
      .selectFrom('sandbox_payment_intents')
      .select(['amount_received', 'amount_refunded'])
      .where(sql<string>`metadata->>'reservation_id'`, '=', trip.id)
      .where('status', '=', 'succeeded')
      .execute();
    return rows.reduce((sum, r) => sum + r.amount_received - r.amount_refunded, 0);
  }

  async function paidPerLedger(trip: Trip): Promise<number> {
    const rows = await ctx.handle.db
      .selectFrom('transactions')
      .select('captured_amount')
      .where('reservation_id', '=', trip.id)
      .where('status', 'in', ['Successful', 'Captured'])
      .execute();
    return rows.reduce((sum, r) => sum + r.captured_amount, 0);
  }

  /** What the renter got off the trip's rental days, as its paid rows record it. */
  async function discountPaid(trip: Trip): Promise<number> {
    const rows = await ctx.handle.db
      .selectFrom('transactions')
      .select('discount_amount')
      .where('reservation_id', '=', trip.id)
      .where('status', '=', 'Successful')
      .execute();
    return rows.reduce((sum, r) => sum + r.discount_amount, 0);
  }

  /** A new marketing code, 20 % off, that can be redeemed once in all. */
  async function onceOnlyCode(prefix: string): Promise<string> {
    const code = `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`;
    await ctx.handle.db
      .insertInto('discounts')
      .values({
        code,
        kind: 'MARKETING',
        percent: 20,
        description: '20% off, once',
        starts_at: null,
        ends_at: null,
        max_redemptions: 1,
      })
      .execute();
    return code;
  }

  const codeOn = async (trip: Trip) =>
    (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('discount_code')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).discount_code;

  const statusOf = async (trip: Trip) =>
    (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('status')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).status;

  it('three trips with WELCOME10, charges confirmed before any deposit: one keeps it, the others are told and pay full price', async () => {
    const who = await renter();
    const trips = [await book(who, '2027-03-01'), await book(who, '2027-04-05'), await book(who, '2027-05-10')];
    for (const t of trips) expect((await apply(who, t, 'WELCOME10')).statusCode).toBe(200);

    const first = await pay(who, trips[0]!);
    expect(first.statusCode, first.body).toBe(200);
    const told = [];
    for (const t of trips.slice(1)) told.push(await pay(who, t));
    expect(told.map((r) => [r.statusCode, r.json().message])).toEqual([
      [409, FIRST_TRIP_REFUSAL],
      [409, FIRST_TRIP_REFUSAL],
    ]);

    const secrets = [first.json().stripe, ...(await Promise.all(trips.slice(1).map((t) => secretsFor(who, t))))];
    for (const s of secrets) expect((await confirmWithCard(s.client_secret)).statusCode).toBe(200);
    for (const t of trips) await confirmTrip(who, t);
    for (const s of secrets) expect((await confirmWithCard(s.deposit_client_secret)).statusCode).toBe(200);
    for (const t of trips) await confirmTrip(who, t);

    expect(await Promise.all(trips.map(statusOf))).toEqual(['Pending', 'Pending', 'Pending']);
    expect(await Promise.all(trips.map(codeOn))).toEqual(['WELCOME10', null, null]);
    const discounts = await Promise.all(trips.map(discountPaid));
    expect(discounts[0]).toBeGreaterThan(0);
    expect(discounts.slice(1)).toEqual([0, 0]);
    for (const t of trips) {
      expect(await takenByProvider(t)).toBe(await paidPerLedger(t));
      expect(await paidPerLedger(t)).toBeGreaterThan(0);
    }
  });

  it('two trips paid at once with WELCOME10: exactly one payment keeps it, and the provider takes what the ledger says', async () => {
    const who = await renter();
    const trips = [await book(who, '2027-03-01'), await book(who, '2027-04-05')];
    for (const t of trips) expect((await apply(who, t, 'WELCOME10')).statusCode).toBe(200);

    const answers = await Promise.all(trips.map((t) => pay(who, t)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().message).toBe(FIRST_TRIP_REFUSAL);

    const secrets = await Promise.all(trips.map((t) => secretsFor(who, t)));
    await Promise.all(secrets.map((s) => confirmWithCard(s.client_secret)));
    await Promise.all(trips.map((t) => confirmTrip(who, t)));
    await Promise.all(secrets.map((s) => confirmWithCard(s.deposit_client_secret)));
    await Promise.all(trips.map((t) => confirmTrip(who, t)));

    const kept = (await Promise.all(trips.map(discountPaid))).filter((d) => d > 0);
    expect(kept).toHaveLength(1);
    expect((await Promise.all(trips.map(codeOn))).filter((c) => c === 'WELCOME10')).toHaveLength(1);
    for (const t of trips) expect(await takenByProvider(t)).toBe(await paidPerLedger(t));
  });

  it('a trip whose payment claimed WELCOME10 keeps it when another trip of the renter is paid before it', async () => {
    const who = await renter();
    const [a, b] = [await book(who, '2027-03-01'), await book(who, '2027-04-05')];
    await apply(who, a, 'WELCOME10');
    const [sa, sb] = [await secretsFor(who, a), await secretsFor(who, b)];
    await confirmWithCard(sb.client_secret);
    await confirmWithCard(sb.deposit_client_secret);
    expect((await confirmTrip(who, b)).json().reservation.status).toBe('Pending');
    await confirmWithCard(sa.client_secret);
    await confirmWithCard(sa.deposit_client_secret);
    expect((await confirmTrip(who, a)).json().reservation.status).toBe('Pending');

    expect(await codeOn(a)).toBe('WELCOME10');
    expect(await discountPaid(a)).toBeGreaterThan(0);
    for (const t of [a, b]) expect(await takenByProvider(t)).toBe(await paidPerLedger(t));
  });

  it('a claim is given back when its trip is cancelled unpaid or the code is replaced, so another trip can use it', async () => {
    const who = await renter();
    const [a, b, c] = [await book(who, '2027-03-01'), await book(who, '2027-04-05'), await book(who, '2027-05-10')];
    for (const t of [a, b, c]) await apply(who, t, 'WELCOME10');
    expect((await pay(who, a)).statusCode).toBe(200);
    expect((await inject(who, `/api/v1/reservations/${a.platformId}/cancel`, {})).statusCode).toBe(200);

    expect((await pay(who, b)).statusCode).toBe(200);
    expect((await apply(who, b, 'EVENT15')).statusCode).toBe(200);

    const last = await pay(who, c);
    expect(last.statusCode, last.body).toBe(200);
    expect(await codeOn(c)).toBe('WELCOME10');
  });

  it('changing add-ons after paying has claimed a once-only code gives it back, so another renter can use it', async () => {
    const code = await onceOnlyCode('BACK');
    const redemptions = async () =>
      (
        await ctx.handle.db
          .selectFrom('discounts')
          .select('redemptions')
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).redemptions;
    const [x, y] = [await renter(), await renter()];
    const [tx, ty] = [await book(x, '2027-06-01'), await book(y, '2027-06-01')];
    expect((await apply(x, tx, code)).statusCode).toBe(200);
    expect((await apply(y, ty, code)).statusCode).toBe(200);
    expect((await pay(x, tx)).statusCode).toBe(200);
    expect(await redemptions()).toBe(1);

    // The renter adds Collision Protection before confirming the card: the charge is retired and the claim given back.
    const { vin } = await ctx.handle.db
      .selectFrom('reservations as r')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select('v.vin')
      .where('r.id', '=', tx.id)
      .executeTakeFirstOrThrow();
    const [addon] = await offeredAddons(ctx, vin, {
      pickupAt: '2027-06-01T18:00:00Z',
      returnAt: '2027-06-04T18:00:00Z',
    });
    const changed = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/reservations/addons',
      headers: x.headers,
      payload: { platform_id: tx.platformId, addon_ids: [addon!.id] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await redemptions()).toBe(0);

    // The other renter's payment now claims it; the first renter's next payment is told it is used up.
    expect((await pay(y, ty)).statusCode).toBe(200);
    expect(await redemptions()).toBe(1);
    const refused = await pay(x, tx);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `The coupon code ${code} has already been used the maximum number of times. It has been taken off this trip: check the new total, then pay again.`,
    );
    expect(await codeOn(tx)).toBeNull();
    expect(await codeOn(ty)).toBe(code);
  });

  it('a code with max_redemptions 1 paid by two renters at once is redeemed once; the other is told and pays full price', async () => {
    const code = await onceOnlyCode('ONCE');
    const [x, y] = [await renter(), await renter()];
    const [tx, ty] = [await book(x, '2027-03-01'), await book(y, '2027-03-01')];
    expect((await apply(x, tx, code)).statusCode).toBe(200);
    expect((await apply(y, ty, code)).statusCode).toBe(200);

    const answers = await Promise.all([pay(x, tx), pay(y, ty)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().message).toBe(
      `The coupon code ${code} has already been used the maximum number of times. It has been taken off this trip: check the new total, then pay again.`,
    );
    const pairs: [SignedIn, Trip][] = [
      [x, tx],
      [y, ty],
    ];
    for (const [who, t] of pairs) {
      const s = await secretsFor(who, t);
      await confirmWithCard(s.client_secret);
      await confirmWithCard(s.deposit_client_secret);
      await confirmTrip(who, t);
      expect(await takenByProvider(t)).toBe(await paidPerLedger(t));
    }
    expect((await Promise.all([tx, ty].map(discountPaid))).filter((d) => d > 0)).toHaveLength(1);
    const { redemptions } = await ctx.handle.db
      .selectFrom('discounts')
      .select('redemptions')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(redemptions).toBe(1);
  });
});
