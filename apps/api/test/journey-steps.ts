import { expect } from 'vitest';
import type { Reservation } from '@ampere/domain/contract/booking';
import { includedMiles, isBelowCardMinimum, isWaivedFee } from '@ampere/domain/end-trip';
import { addDays, toInstant, todayIn } from '@ampere/domain/time';
import { cancelRetiredCharges } from '../src/features/trips/checkout.ts';
import { reauthorizeDepositHolds } from '../src/features/trips/reauthorize.ts';
import { expireUnpaidChanges } from '../src/features/trips/change-dates.ts';
import type { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { carAtNewLot, verifiedRenter } from './factories.ts';
import { justPastDeposit, lapse } from './journey-endings.ts';
import { type Extra, type Journey, STARTS } from './journey-plan.ts';
import { type Stage, call, readEverything } from './renter-view.ts';
import { type SandboxContext, askLaterReturn, confirmIntent, reviewEnds } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { keepSignedIn, offeredAddons, pickUp, takenByProvider } from './trips.ts';

/**
 * Drives one generated journey (decision 055) through the API as a renter's pages would, with the
 * test clock and the simulated fleet standing in for time and the car, and the job steps called
 * where the product's jobs would run them. Everything the renter can read is read and checked at
 * each stage; every trip ends Canceled or Returned, so no later journey's job steps touch it.
 */

const MINUTE = 60_000;
const OLD_BIRTHDAY = '1990-04-12';

interface Run {
  ctx: SandboxContext;
  who: SignedIn;
  j: Journey;
  platformId: string;
  id: string;
  /** The card saved with the first payment, which later balances are paid with. */
  card: string | null;
}

export async function runJourney(ctx: SandboxContext, fleet: SimulatedFleet, j: Journey): Promise<string> {
  const db = ctx.handle.db;
  ctx.clock.now = new Date(STARTS[j.start].getTime() + j.bookedAfterMinutes * MINUTE);
  const lot = await carAtNewLot(db, null, j.car);
  const who = await signInAs(ctx);
  await keepSignedIn(db, who.userId);
  await db
    .updateTable('users')
    .set({ first_name: 'Jo', last_name: 'Journey', email: `jo.${who.userId}@example.com` })
    .where('id', '=', who.userId)
    .execute();
  if (j.verified) await verifiedRenter(db, who.userId, ctx.clock.now);
  const pickupDate = addDays(todayIn(ctx.clock.now, lot.timezone), j.leadDays);
  const pickup = { date: pickupDate, time: j.pickupTime };
  const ret = { date: addDays(pickupDate, j.days), time: j.returnTime };
  const birthday = j.young ? `${Number(pickupDate.slice(0, 4)) - 22}-06-01` : OLD_BIRTHDAY;
  if (j.beforePaying?.kind !== 'birthday') await setBirthday(ctx, who, birthday);

  // Booking, with the extras chosen on the booking page and the coupon typed in.
  const offered = await offeredAddons(ctx, lot.vin, {
    pickupAt: toInstant(pickup, lot.timezone).toISOString(),
    returnAt: toInstant(ret, lot.timezone).toISOString(),
  });
  const idOf = (e: Extra) => {
    const found = offered.find((a) => a.type === e);
    if (!found) throw new Error(`${e} was not offered: ${JSON.stringify(offered)}`);
    return found.id;
  };
  const booked = await call(
    ctx,
    'booking',
    {
      method: 'POST',
      url: '/api/v1/reservations',
      headers: who.headers,
      payload: {
        vehicleVin: lot.vin,
        vehicleTimezone: lot.timezone,
        pickupDate: pickup.date,
        pickupTime: pickup.time,
        returnDate: ret.date,
        returnTime: ret.time,
        addonIds: j.extras.map(idOf),
      },
    },
    [201],
  );
  const platformId = booked.json().reservation.platform_id as string;
  const { id } = await db
    .selectFrom('reservations')
    .select('id')
    .where('platform_id', '=', platformId)
    .executeTakeFirstOrThrow();
  const run: Run = { ctx, who, j, platformId, id, card: null };
  if (j.coupon && j.beforePaying?.kind !== 'coupon') await applyCoupon(run, j.coupon);
  await look(run, 'booked');

  // The pay page prepares the payment; the renter may change the trip before confirming the card.
  await prepare(run, 'pay page');
  const change = j.beforePaying;
  if (change?.kind === 'extra') {
    const wanted = new Set(j.extras);
    if (wanted.has(change.extra)) wanted.delete(change.extra);
    else wanted.add(change.extra);
    await call(ctx, 'switching an extra', {
      method: 'PATCH',
      url: '/api/v1/reservations/addons',
      headers: who.headers,
      payload: { platform_id: platformId, addon_ids: [...wanted].map(idOf) },
    });
  } else if (change?.kind === 'coupon' && j.coupon) await applyCoupon(run, j.coupon);
  else if (change?.kind === 'birthday') await setBirthday(ctx, who, birthday);
  if (change) await look(run, 'changed before paying');

  if (j.cancel === 'unpaid' && (await cancelled(run, 'cancelled unpaid'))) return finish(run);
  if (j.cancel === 'lapse') {
    await lapse(ctx, id, () => look(run, 'lapsed'));
    return finish(run);
  }
  await pay(run, 'paying');
  const paid = await look(run, 'paid');
  expect(paid.status, 'paid: the trip is booked').toBe('Pending');

  if (j.afterPaying && (j.afterPaying.earlierDays > 0 || j.afterPaying.laterDays > 0)) {
    const { earlierDays, laterDays } = j.afterPaying;
    await call(ctx, 'changing dates', {
      method: 'POST',
      url: `/api/v1/reservations/${platformId}/change`,
      headers: who.headers,
      payload: {
        pickupDate: addDays(pickup.date, -earlierDays),
        pickupTime: pickup.time,
        returnDate: addDays(ret.date, laterDays),
        returnTime: ret.time,
      },
    });
    if (j.afterPaying.coupon) await applyCoupon(run, j.afterPaying.coupon);
    if (j.afterPaying.pay) await pay(run, 'paying the change');
    await look(run, 'dates changed');
  }
  if (j.cancel !== 'no' && (await cancelled(run, 'cancelled'))) return finish(run);

  // The pickup time comes: an unpaid change has lapsed by then, the deposit hold is renewed if old.
  await pickUp(ctx, fleet, run.id);
  await jobs(ctx);
  const onRent = await look(run, 'on rent');
  expect(onRent.status, 'on rent').toBe('On Rent');
  if (j.extension.days > 0) {
    const asked = await askLaterReturn(ctx, who, { id: run.id, platformId }, j.extension.days);
    if (asked.statusCode !== 200) throw new Error(`extending answered ${asked.statusCode}: ${asked.body}`);
    if (j.extension.pay) await pay(run, 'paying the extension');
    await look(run, 'extended');
  }

  // The return: driven, charged or not, back on time or late; End Trip.
  const trip = await db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .select(['r.pickup_at', 'r.return_at', 'r.timezone', 'v.id', 'v.vin', 'v.odometer'])
    .where('r.id', '=', run.id)
    .executeTakeFirstOrThrow();
  const allowance = includedMiles(trip.pickup_at, trip.return_at, trip.timezone);
  const over = j.ride.milesOver === 'justPastDeposit' ? 0 : j.ride.milesOver;
  await fleet.drive(trip, { miles: Math.max(0, allowance + over), battery_level: j.ride.battery });
  ctx.clock.now = new Date(trip.return_at.getTime() + j.ride.minutesLate * MINUTE);
  await jobs(ctx);
  if (j.ride.milesOver === 'justPastDeposit') await justPastDeposit(ctx, who, platformId, fleet, trip);
  await call(ctx, 'ending the trip', {
    method: 'POST',
    url: `/api/v1/reservations/${platformId}/end`,
    headers: who.headers,
  });
  // The deposit review ends (decision 092): the hold is settled as staff settle it.
  await reviewEnds(ctx, platformId);
  const returned = await look(run, 'returned');
  expect(returned.status, 'returned').toBe('Returned');
  if (j.payFees && returned.payment_balance > 0) await pay(run, 'paying the fees');
  return finish(run);
}

/**
 * What the product's jobs would have done by now on the clock: unpaid changes lapsed, deposit
 * holds near the card network's seven days renewed.
 */
async function jobs(ctx: SandboxContext): Promise<void> {
  const deps = { db: ctx.handle.db, gateway: ctx.gateway, clock: () => ctx.clock.now };
  await expireUnpaidChanges({
    ...deps,
    cancelRetired: async (userId) => void (await cancelRetiredCharges(deps, { userId })),
  });
  const { failed } = await reauthorizeDepositHolds(deps);
  expect(failed, 'deposit holds that could not be renewed').toEqual([]);
}

/** Every webhook the provider still holds is delivered and accepted; nothing stays held; the last reading. */
async function finish(run: Run): Promise<string> {
  const db = run.ctx.handle.db;
  await run.ctx.gateway.deliverPendingEvents();
  const refused = await db
    .selectFrom('sandbox_events')
    .select(['id', 'last_error'])
    .where('delivered_at', 'is', null)
    .execute();
  expect(refused, 'webhooks the app did not accept').toEqual([]);
  const trip = await readEverything(run.ctx, run.who, run.platformId, 'at the end', true);
  expect(['Canceled', 'Returned'], 'the trip ended').toContain(trip.status);
  const held = await db
    .selectFrom('payments')
    .select(['kind', 'status', 'amount'])
    .where('reservation_id', '=', run.id)
    .where('status', '=', 'requires_capture')
    .execute();
  expect(held, 'money still held on the card after the trip ended').toEqual([]);
  const owed = await db
    .selectFrom('payment_refunds')
    .select(['amount', 'reason'])
    .where('reservation_id', '=', run.id)
    .where('refunded_at', 'is', null)
    .execute();
  expect(owed, 'refunds decided and not made').toEqual([]);
  if (trip.status === 'Canceled') expect(await takenByProvider(db, run.id), 'kept after cancelling').toBe(0);
  if (run.j.payFees) expect(trip.payment_balance, 'still owed after paying the fees').toBe(0);
  expect(isBelowCardMinimum(trip.payment_balance), 'owed, and below what a card can be charged').toBe(false);
  return outcome(trip);
}

/** How the trip ended, for the run's tally: so a run shows which endings it reached. */
function outcome(trip: Reservation): string {
  if (trip.status === 'Canceled')
    return trip.cancel_reason === 'hold_expired' ? 'lapsed unpaid' : 'cancelled before pickup';
  const fees = trip.transactions.filter((t) => t.category === 'Incidental');
  if (fees.length === 0) return 'returned without fees';
  if (fees.some(isWaivedFee)) return 'returned, fees past the deposit by under 50 cents, waived';
  if (fees.some((t) => t.stripe_reserve_applied_payment_intent_id === null)) return 'returned, fees beyond the deposit';
  return 'returned, fees from the deposit';
}

/** Reads what the renter can read at this stage: everything when the journey says so, else the trip and its receipt. */
const look = (run: Run, stage: Stage) =>
  readEverything(run.ctx, run.who, run.platformId, stage, run.j.fullReads.includes(stage));

const setBirthday = (ctx: SandboxContext, who: SignedIn, birthday: string) =>
  call(ctx, 'giving a birthday', {
    method: 'PATCH',
    url: '/api/v1/users/profile',
    headers: who.headers,
    payload: { birthday },
  });

const applyCoupon = (run: Run, code: string) =>
  call(run.ctx, `applying ${code}`, {
    method: 'POST',
    url: '/api/v1/discounts/apply',
    headers: run.who.headers,
    payload: { code, platform_id: run.platformId },
  });

const prepare = async (run: Run, where: string) =>
  (
    await call(run.ctx, where, {
      method: 'POST',
      url: '/api/v1/payments',
      headers: run.who.headers,
      payload: { platform_id: run.platformId },
    })
  ).json().stripe as { client_secret: string | null; deposit_client_secret: string | null } | null;

/**
 * Pays what the pay page shows now: the charge with a new card the first time (the deposit held on
 * the card it saved), with that card after; then the app hears of it by the confirm call or by the
 * provider's webhook, as the journey says.
 */
async function pay(run: Run, where: string): Promise<void> {
  const secrets = await prepare(run, where);
  if (secrets?.client_secret) {
    const paid = await confirmIntent(
      run.ctx,
      secrets.client_secret,
      run.card ? { pm: run.card } : { card: '4242424242424242' },
    );
    if (paid.statusCode !== 200) throw new Error(`${where}: the card was refused: ${paid.body}`);
    run.card ??= paid.json().payment_method as string;
  }
  if (secrets?.deposit_client_secret) {
    const held = await confirmIntent(run.ctx, secrets.deposit_client_secret, { pm: run.card ?? undefined });
    if (held.statusCode !== 200) throw new Error(`${where}: the deposit was refused: ${held.body}`);
  }
  if (run.j.heardBy === 'webhook') await run.ctx.gateway.deliverPendingEvents();
  else
    await call(run.ctx, where, {
      method: 'POST',
      url: '/api/v1/reservations/confirm',
      headers: run.who.headers,
      payload: { platform_id: run.platformId },
    });
}

/** Cancels if the trip page offers Cancel (a 409 otherwise, and the journey goes on); true when cancelled. */
async function cancelled(run: Run, where: 'cancelled' | 'cancelled unpaid'): Promise<boolean> {
  const before = (
    await call(run.ctx, where, { url: `/api/v1/reservations/${run.platformId}`, headers: run.who.headers })
  ).json().reservation;
  const res = await call(
    run.ctx,
    where,
    { method: 'POST', url: `/api/v1/reservations/${run.platformId}/cancel`, headers: run.who.headers },
    [before.can_cancel ? 200 : 409],
  );
  if (res.statusCode !== 200) return false;
  await look(run, where);
  return true;
}
