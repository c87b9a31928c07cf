import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDERAGE_FEE_CENTS_PER_DAY } from '@ampere/domain/constants';
import { setAddons } from '../src/features/trips/line-items.ts';
import { addDays } from '@ampere/domain/time';
import { engines } from './harness.ts';
import { unbookedCar } from './factories.ts';
import { offeredAddons, paidPerLedger as ledgerBooks, takenByProvider as providerBooks } from './trips.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/**
 * Money exactly right (decision 018): what the payment provider took for a trip is what the trip's
 * line items say was paid, whatever the renter changes between preparing a payment and confirming
 * it, and a first-trip coupon pays for one trip only.
 */

const GOOD_CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
/** Born 2004: 22 at a 2027 pickup, so the underage fee applies; 1990: 36, so it does not. */
const YOUNG = '2004-06-01';
const OLD = '1990-04-12';

interface Car {
  vin: string;
  timezone: string;
}

interface Trip {
  id: string;
  platformId: string;
}

describe.each(engines())('money: the provider and the ledger agree, on %s', (engine) => {
  let ctx: SandboxContext;
  const usedCars = new Set<string>();

  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  /** A car the seed put no holds on and no other test here uses, so the dates any test picks are free. */
  async function freeCar(): Promise<Car> {
    return unbookedCar(ctx.handle.db, usedCars);
  }

  async function renter(profile: { birthday?: string | null } = { birthday: OLD }): Promise<SignedIn> {
    const who = await signInAs(ctx);
    await ctx.handle.db
      .updateTable('users')
      .set({ first_name: 'Sam', last_name: 'Rivera', email: `sam.${who.userId}@example.com`, ...profile })
      .where('id', '=', who.userId)
      .execute();
    return who;
  }

  const inject = (who: SignedIn, method: 'POST' | 'PATCH', url: string, payload: object) =>
    ctx.app.inject({ method, url, headers: who.headers, payload });

  /** Books the car for three days from `pickupDate` (10:00 local), through the API as the page does. */
  async function book(who: SignedIn, car: Car, pickupDate: string): Promise<Trip> {
    const res = await inject(who, 'POST', '/api/v1/reservations', {
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
    const row = await ctx.handle.db
      .selectFrom('reservations')
      .select('id')
      .where('platform_id', '=', platformId)
      .executeTakeFirstOrThrow();
    return { id: row.id, platformId };
  }

  const addonIds = async (car: Car, pickupDate: string): Promise<string[]> =>
    (
      await offeredAddons(ctx, car.vin, {
        pickupAt: `${pickupDate}T18:00:00Z`,
        returnAt: `${addDays(pickupDate, 3)}T18:00:00Z`,
      })
    ).map((a) => a.id);

  const pay = (who: SignedIn, trip: Trip) => inject(who, 'POST', '/api/v1/payments', { platform_id: trip.platformId });
  const confirmTrip = (who: SignedIn, trip: Trip) =>
    inject(who, 'POST', '/api/v1/reservations/confirm', { platform_id: trip.platformId });
  const patchAddons = (who: SignedIn, trip: Trip, ids: string[]) =>
    inject(who, 'PATCH', '/api/v1/reservations/addons', { platform_id: trip.platformId, addon_ids: ids });
  const applyCoupon = (who: SignedIn, trip: Trip, code: string) =>
    inject(who, 'POST', '/api/v1/discounts/apply', { code, platform_id: trip.platformId });
  const setBirthday = (who: SignedIn, birthday: string) => inject(who, 'PATCH', '/api/v1/users/profile', { birthday });
  /** The browser's half: confirms a client secret with the provider, with a new card. */
  const confirmWithCard = (clientSecret: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, card: GOOD_CARD },
    });

  const takenByProvider = (trip: Trip) => providerBooks(ctx.handle.db, trip.id);
  const paidPerLedger = (trip: Trip) => ledgerBooks(ctx.handle.db, trip.id);

  /** The trip's underage fee rows, as amount and status. */
  const underageFees = (trip: Trip) =>
    ctx.handle.db
      .selectFrom('transactions')
      .select(['amount', 'status'])
      .where('reservation_id', '=', trip.id)
      .where('description', '=', 'Underage User Fee')
      .execute();
  const pendingOwed = async (trip: Trip) => {
    const rows = await ctx.handle.db
      .selectFrom('transactions')
      .select(['amount', 'discount_amount'])
      .where('reservation_id', '=', trip.id)
      .where('status', '=', 'Pending')
      .where('category', '!=', 'Deposit')
      .execute();
    return rows.reduce((sum, r) => sum + r.amount - r.discount_amount, 0);
  };
  const refundsOf = (trip: Trip) =>
    ctx.handle.db
      .selectFrom('payment_refunds')
      .select(['amount', 'reason', 'refunded_at', 'provider_refund_id'])
      .where('reservation_id', '=', trip.id)
      .execute();
  const intentOf = async (clientSecret: string) =>
    ctx.handle.db
      .selectFrom('sandbox_payment_intents')
      .select(['id', 'status', 'amount', 'amount_received', 'amount_refunded'])
      .where('client_secret', '=', clientSecret)
      .executeTakeFirstOrThrow();

  async function secrets(
    who: SignedIn,
    trip: Trip,
  ): Promise<{ client_secret: string | null; deposit_client_secret: string | null } | null> {
    const res = await pay(who, trip);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().stripe;
  }

  it('an add-on changed after POST /payments cancels the charge at the provider at once; its old secret takes nothing, the new one takes the new total', async () => {
    const who = await renter();
    const car = await freeCar();
    const trip = await book(who, car, '2027-01-11');
    const [addon] = await addonIds(car, '2027-01-11');
    const first = (await secrets(who, trip))!;
    const oldAmount = (await intentOf(first.client_secret!)).amount;

    expect((await patchAddons(who, trip, [addon!])).statusCode).toBe(200);
    // Canceled at the provider by the change itself, not by the next payment step.
    expect((await intentOf(first.client_secret!)).status).toBe('canceled');
    const stale = await confirmWithCard(first.client_secret!);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'payment_intent_unexpected_state' });

    const second = (await secrets(who, trip))!;
    expect(second.client_secret).not.toBe(first.client_secret);
    const newAmount = (await intentOf(second.client_secret!)).amount;
    expect(newAmount).toBe(await pendingOwed(trip));
    expect(newAmount).toBeGreaterThan(oldAmount);
    expect((await confirmWithCard(second.client_secret!)).statusCode).toBe(200);
    expect((await confirmTrip(who, trip)).statusCode).toBe(200);
    expect(await takenByProvider(trip)).toBe(newAmount);
    expect(await paidPerLedger(trip)).toBe(newAmount);
  });

  it('a stale charge confirmed before the provider heard of the change settles nothing: it is refunded and recorded, and the trip is paid once at the new total', async () => {
    const who = await renter();
    const car = await freeCar();
    const trip = await book(who, car, '2027-01-11');
    const [addon] = await addonIds(car, '2027-01-11');
    const first = (await secrets(who, trip))!;
    const oldAmount = (await intentOf(first.client_secret!)).amount;

    // The change commits, but the provider is not told (as if the process stopped right after commit).
    await setAddons({ db: ctx.handle.db, clock: () => ctx.clock.now }, who.userId, trip.platformId, [addon!]);
    const stale = await confirmWithCard(first.client_secret!);
    expect(stale.statusCode).toBe(200);
    expect(stale.json().status).toBe('succeeded');

    const confirmed = await confirmTrip(who, trip);
    expect(confirmed.json().reservation.status).toBe('Started');
    // The old amount came back in full; the record says why.
    expect(await intentOf(first.client_secret!)).toMatchObject({
      amount_received: oldAmount,
      amount_refunded: oldAmount,
    });
    const [refund] = await refundsOf(trip);
    expect(refund).toMatchObject({ amount: oldAmount, provider_refund_id: expect.stringMatching(/^re_/) });
    expect(refund!.refunded_at).not.toBeNull();
    expect(refund!.reason).toContain(`received ${oldAmount} cents`);
    expect(await takenByProvider(trip)).toBe(0);
    expect(await paidPerLedger(trip)).toBe(0);
    // The webhook for the same intent, delivered later, changes nothing and refunds nothing more.
    await ctx.gateway.deliverPendingEvents();
    expect(await refundsOf(trip)).toHaveLength(1);

    const second = (await secrets(who, trip))!;
    const owed = await pendingOwed(trip);
    expect((await intentOf(second.client_secret!)).amount).toBe(owed);
    expect((await confirmWithCard(second.client_secret!)).statusCode).toBe(200);
    await confirmTrip(who, trip);
    expect(await takenByProvider(trip)).toBe(owed);
    expect(await paidPerLedger(trip)).toBe(owed);
  });

  it('a birthday given after POST /payments adds the underage fee and cancels the charge for the old amount', async () => {
    const who = await renter({ birthday: null });
    const car = await freeCar();
    const trip = await book(who, car, '2027-01-11');
    const first = (await secrets(who, trip))!;
    const oldAmount = (await intentOf(first.client_secret!)).amount;

    expect((await setBirthday(who, YOUNG)).statusCode).toBe(200);
    expect((await intentOf(first.client_secret!)).status).toBe('canceled');
    expect(await underageFees(trip)).toEqual([{ amount: 3 * UNDERAGE_FEE_CENTS_PER_DAY, status: 'Pending' }]);

    const second = (await secrets(who, trip))!;
    const owed = await pendingOwed(trip);
    expect(owed).toBeGreaterThan(oldAmount + 3 * UNDERAGE_FEE_CENTS_PER_DAY - 1);
    expect((await intentOf(second.client_secret!)).amount).toBe(owed);
    // Setting the same birthday again changes nothing: the charge stays open.
    expect((await setBirthday(who, YOUNG)).statusCode).toBe(200);
    expect((await intentOf(second.client_secret!)).status).toBe('requires_payment_method');
  });

  it('paying adds the underage fee for a birthday the trip was not priced with, and charges it', async () => {
    const who = await renter({ birthday: null });
    const car = await freeCar();
    const trip = await book(who, car, '2027-01-11');
    // A birthday stored without the profile's own fee update (as a write before that update existed left it).
    await ctx.handle.db.updateTable('users').set({ birthday: YOUNG }).where('id', '=', who.userId).execute();
    const paying = (await secrets(who, trip))!;
    expect(await underageFees(trip)).toEqual([{ amount: 3 * UNDERAGE_FEE_CENTS_PER_DAY, status: 'Pending' }]);
    // The charge is for everything owed, the fee and its tax included.
    expect((await intentOf(paying.client_secret!)).amount).toBe(await pendingOwed(trip));
  });

  it('a coupon applied after POST /payments cancels the charge; the new one is for the discounted total', async () => {
    const who = await renter();
    const car = await freeCar();
    const trip = await book(who, car, '2027-01-11');
    const first = (await secrets(who, trip))!;
    expect((await applyCoupon(who, trip, 'EVENT15')).statusCode).toBe(200);
    expect((await intentOf(first.client_secret!)).status).toBe('canceled');
    const second = (await secrets(who, trip))!;
    const owed = await pendingOwed(trip);
    expect((await intentOf(second.client_secret!)).amount).toBe(owed);
    expect(owed).toBeLessThan((await intentOf(first.client_secret!)).amount);
  });

  it('WELCOME10 on two trips: once the first is paid, paying the second is refused with the reason and the coupon comes off it', async () => {
    const who = await renter();
    const [a, b] = [await book(who, await freeCar(), '2027-01-11'), await book(who, await freeCar(), '2027-02-08')];
    expect((await applyCoupon(who, a, 'WELCOME10')).statusCode).toBe(200);
    expect((await applyCoupon(who, b, 'WELCOME10')).statusCode).toBe(200);
    const paidA = (await secrets(who, a))!;
    expect((await confirmWithCard(paidA.client_secret!)).statusCode).toBe(200);
    expect((await confirmWithCard(paidA.deposit_client_secret!)).statusCode).toBe(200);
    expect((await confirmTrip(who, a)).json().reservation.status).toBe('Pending');

    const refused = await pay(who, b);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The coupon code WELCOME10 is only for your first trip with us. It has been taken off this trip: check the new total, then pay again.',
    );
    const rowB = await ctx.handle.db
      .selectFrom('reservations')
      .select('discount_code')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(rowB.discount_code).toBeNull();
    const discounted = await ctx.handle.db
      .selectFrom('transactions')
      .select('id')
      .where('reservation_id', '=', b.id)
      .where('status', '=', 'Pending')
      .where('discount_amount', '>', 0)
      .execute();
    expect(discounted).toEqual([]);

    // Paying again charges the full price, and the provider and the ledger agree.
    const paidB = (await secrets(who, b))!;
    const owed = await pendingOwed(b);
    expect((await intentOf(paidB.client_secret!)).amount).toBe(owed);
    await confirmWithCard(paidB.client_secret!);
    await confirmTrip(who, b);
    expect(await takenByProvider(b)).toBe(owed);
    expect(await paidPerLedger(b)).toBe(owed);
  });

  it('WELCOME10 on a charge prepared without a claim (before claims existed): confirmed after another trip of the renter was paid, it is refunded and the coupon comes off', async () => {
    const who = await renter();
    const [a, b] = [await book(who, await freeCar(), '2027-01-11'), await book(who, await freeCar(), '2027-02-08')];
    await applyCoupon(who, b, 'WELCOME10');
    // B's payment is prepared while neither trip is paid, then A is paid first.
    const [sb, sa] = [(await secrets(who, b))!, (await secrets(who, a))!];
    // As a charge prepared before migration 0019 left it: no claim (decision 052).
    await ctx.handle.db.deleteFrom('coupon_claims').where('reservation_id', '=', b.id).execute();
    await confirmWithCard(sa.client_secret!);
    await confirmTrip(who, a);

    const discountedAmount = (await intentOf(sb.client_secret!)).amount;
    expect((await confirmWithCard(sb.client_secret!)).statusCode).toBe(200);
    const after = await confirmTrip(who, b);
    expect(after.json().reservation.status).toBe('Started');
    expect(await intentOf(sb.client_secret!)).toMatchObject({
      amount_received: discountedAmount,
      amount_refunded: discountedAmount,
    });
    expect((await refundsOf(b))[0]!.reason).toContain('only for your first trip');
    expect(await takenByProvider(b)).toBe(0);
    expect(await paidPerLedger(b)).toBe(0);
    expect(
      (
        await ctx.handle.db
          .selectFrom('reservations')
          .select('discount_code')
          .where('id', '=', b.id)
          .executeTakeFirstOrThrow()
      ).discount_code,
    ).toBeNull();
    // The trip paid first stays paid, in full.
    expect(await takenByProvider(a)).toBe(await paidPerLedger(a));
    expect(await paidPerLedger(a)).toBeGreaterThan(0);
  });

  it('booking the same car and dates again replaces the abandoned booking and cancels its unpaid charge at the provider', async () => {
    const who = await renter();
    const car = await freeCar();
    const abandoned = await book(who, car, '2027-01-11');
    const first = (await secrets(who, abandoned))!;
    await book(who, car, '2027-01-11');
    expect((await intentOf(first.client_secret!)).status).toBe('canceled');
    expect((await confirmWithCard(first.client_secret!)).statusCode).toBe(400);
    expect(await takenByProvider(abandoned)).toBe(0);
  });

  it('the sandbox refunds like Stripe: the same idempotency key refunds once and answers with the first refund', async () => {
    const who = await renter();
    const trip = await book(who, await freeCar(), '2027-01-11');
    const paid = (await secrets(who, trip))!;
    await confirmWithCard(paid.client_secret!);
    const { id, amount } = await intentOf(paid.client_secret!);
    const first = await ctx.gateway.refund(id, 1_000, 'refund-test-key');
    expect(await ctx.gateway.refund(id, 1_000, 'refund-test-key')).toBe(first);
    expect((await intentOf(paid.client_secret!)).amount_refunded).toBe(1_000);
    // The same key with other parameters is refused; another key refunds more, never past what was received.
    await expect(ctx.gateway.refund(id, 2_000, 'refund-test-key')).rejects.toMatchObject({ statusCode: 422 });
    expect(await ctx.gateway.refund(id, undefined, 'refund-test-other')).not.toBe(first);
    expect((await intentOf(paid.client_secret!)).amount_refunded).toBe(amount);
    await expect(ctx.gateway.refund(id, 1, 'refund-test-third')).rejects.toMatchObject({ statusCode: 422 });
  });

  type Step =
    | { kind: 'addons'; pick: boolean[]; quietly: boolean }
    | { kind: 'coupon' }
    | { kind: 'birthday'; young: boolean }
    | { kind: 'prepare' }
    | { kind: 'confirm'; which: number }
    | { kind: 'sync' }
    | { kind: 'webhooks' };

  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('addons' as const),
        pick: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        quietly: fc.boolean(),
      }),
      weight: 3,
    },
    { arbitrary: fc.constant({ kind: 'coupon' as const }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('birthday' as const), young: fc.boolean() }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'prepare' as const }), weight: 3 },
    // Any charge secret handed out so far, stale ones included (counted from the newest).
    { arbitrary: fc.record({ kind: fc.constant('confirm' as const), which: fc.nat({ max: 2 }) }), weight: 4 },
    { arbitrary: fc.constant({ kind: 'sync' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'webhooks' as const }), weight: 1 },
  );

  it('property: for any sequence of add-on, coupon and birthday changes interleaved with preparing and confirming payments, the provider took what the ledger says was paid', async () => {
    const car = await freeCar();
    const addons = await addonIds(car, '2027-01-04');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.boolean(),
        async (steps, youngAtStart, payAtEnd) => {
          // Each run books the same car for its own three days, four days after the last run's.
          const pickupDate = addDays('2027-01-04', 4 * run++);
          const who = await renter({ birthday: youngAtStart ? YOUNG : OLD });
          const trip = await book(who, car, pickupDate);
          /** Every charge's client secret handed out in this run, oldest first. */
          const handedOut: string[] = [];
          for (const s of steps) {
            if (s.kind === 'addons') {
              const ids = addons.filter((_, i) => s.pick[i]);
              // "quietly": the change commits but the provider is not told (a crash right after commit).
              if (s.quietly)
                await setAddons({ db: ctx.handle.db, clock: () => ctx.clock.now }, who.userId, trip.platformId, ids);
              else expect([200, 422]).toContain((await patchAddons(who, trip, ids)).statusCode);
            } else if (s.kind === 'coupon') {
              expect([200, 422]).toContain((await applyCoupon(who, trip, 'EVENT15')).statusCode);
            } else if (s.kind === 'birthday') {
              expect((await setBirthday(who, s.young ? YOUNG : OLD)).statusCode).toBe(200);
            } else if (s.kind === 'prepare') {
              const res = await pay(who, trip);
              expect(res.statusCode, res.body).toBe(200);
              const got = res.json().stripe as {
                client_secret: string | null;
                deposit_client_secret: string | null;
              } | null;
              if (got?.client_secret) handedOut.push(got.client_secret);
            } else if (s.kind === 'confirm') {
              const secret = handedOut[handedOut.length - 1 - s.which];
              if (secret) expect([200, 400]).toContain((await confirmWithCard(secret)).statusCode);
            } else if (s.kind === 'sync') {
              expect((await confirmTrip(who, trip)).statusCode).toBe(200);
            } else {
              await ctx.gateway.deliverPendingEvents();
            }
          }
          if (payAtEnd) {
            // The renter finally pays what the page shows now.
            const res = await pay(who, trip);
            expect(res.statusCode, res.body).toBe(200);
            const secret = (res.json().stripe as { client_secret: string | null } | null)?.client_secret;
            if (secret) expect((await confirmWithCard(secret)).statusCode).toBe(200);
          }
          // Everything the provider has said is heard, by the confirm call and by the webhooks.
          expect((await confirmTrip(who, trip)).statusCode).toBe(200);
          await ctx.gateway.deliverPendingEvents();
          expect(await takenByProvider(trip)).toBe(await paidPerLedger(trip));
          if (payAtEnd) expect(await pendingOwed(trip)).toBe(0);
          // Every refund decided was made.
          expect((await refundsOf(trip)).filter((r) => r.refunded_at === null)).toEqual([]);
          // No charge is left open for items that are no longer owed.
          const open = await ctx.handle.db
            .selectFrom('payments')
            .select(['amount'])
            .where('reservation_id', '=', trip.id)
            .where('kind', '=', 'CHARGE')
            .where('status', 'in', ['requires_payment_method', 'requires_confirmation', 'requires_action'])
            .execute();
          for (const p of open) expect(p.amount).toBe(await pendingOwed(trip));
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  }, 120_000);
});
