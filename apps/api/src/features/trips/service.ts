import { randomBytes } from 'node:crypto';
import { type Kysely, type Transaction, sql } from 'kysely';
import { ageOn } from '@ampere/domain/account';
import {
  UNDERAGE_FEE_DESCRIPTION,
  addonItem,
  bookingLineItems,
  dayDiscountCents,
  isBeforePickup,
  isOldEnoughToRent,
  isSoftCreditCheckPassed,
  isUnderage,
  newPlatformId,
  taxItem,
  taxOn,
  underageFeeItem,
} from '@ampere/domain/booking';
import { MAX_UNPAID_HOLDS, MINIMUM_RENTER_AGE, UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { ConflictCheckBody, Reservation, ReservationCreateBody } from '@ampere/domain/contract/booking';
import { VEHICLE_UNAVAILABLE_MESSAGE } from '@ampere/domain/contract/booking';
import { tripLengthProblem, tripProblems } from '@ampere/domain/dates';
import type { PricedAddon } from '@ampere/domain/pricing';
import { rentalDaysBetween } from '@ampere/domain/rental';
import { daysBetween, toInstant, toLocal } from '@ampere/domain/time';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import { relatedAddons } from '../addons/service.ts';
import { deleteClaim } from '../discounts/repository.ts';
import { retireOpenCharges } from '../payments/repository.ts';
import { getUser } from '../users/service.ts';
import * as repo from './repository.ts';
import { TRIP_NOT_FOUND, getReservationForRenter, reservationById, serializeReservations } from './serializer.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { crashPoint } from '../../crash.ts';

/** Spec 8: the 409 on reservation creation, shown in the Vehicle Unavailable dialog. */
export const VEHICLE_UNAVAILABLE = VEHICLE_UNAVAILABLE_MESSAGE;

export interface BookingDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Told after a reservation is created or its dates or status change, so search sees it. */
  searchIndex: { markStale(): void };
}

type Trx = Transaction<Database>;
type CreateBody = z.output<typeof ReservationCreateBody>;

function isDatabaseError(err: unknown, code: string, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown };
  return e.code === code && (constraint === undefined || e.constraint === constraint);
}

const localTrip = (b: Pick<CreateBody, 'pickupDate' | 'pickupTime' | 'returnDate' | 'returnTime'>) => ({
  pickup: { date: b.pickupDate, time: b.pickupTime },
  ret: { date: b.returnDate, time: b.returnTime },
});

/** The car, checked: it exists, and the zone the dates were written in is its location's. */
async function vehicleFor(db: repo.Db, vin: string, vehicleTimezone: string) {
  const vehicle = await repo.findBookableVehicle(db, vin);
  if (!vehicle) throw notFound(`No vehicle with VIN ${vin.toUpperCase()}.`, 'vehicleVin');
  if (vehicleTimezone !== vehicle.timezone) {
    throw unprocessable(
      `vehicleTimezone must be the time zone of the vehicle's location (${vehicle.timezone}); got ${vehicleTimezone}.`,
      'vehicleTimezone',
    );
  }
  return vehicle;
}

/** Add-on ids as chosen (duplicates dropped), each an active add-on offered for this car. */
async function pricedAddons(
  db: repo.Db,
  ids: readonly string[],
  vin: string,
  pickupAt: Date,
  returnAt: Date,
  field: string,
): Promise<PricedAddon[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const offered = new Map(
    (
      await relatedAddons(db as Kysely<Database>, {
        vehicleVin: vin,
        pickupAt: pickupAt.toISOString(),
        returnAt: returnAt.toISOString(),
      })
    ).map((a) => [a.id, a]),
  );
  return wanted.map((id) => {
    const addon = offered.get(id);
    if (!addon) throw unprocessable(`${id} is not an add-on available for this vehicle.`, field);
    return { id: addon.id, type: addon.type, amount: addon.amount, frequency: addon.charge_frequency };
  });
}

/** Inserts the reservation under a fresh platform id; the exclusion constraint's refusal is the spec's 409. */
async function insertReservation(
  trx: Trx,
  values: Omit<repo.NewReservation, 'platform_id'>,
): Promise<{ id: string; platform_id: string }> {
  for (let attempt = 1; ; attempt++) {
    const platformId = newPlatformId(randomBytes(5));
    // A savepoint, so that a platform id already taken (40 random bits: rare) is retried with another.
    await sql`savepoint new_reservation`.execute(trx);
    try {
      const row = await repo.insertReservation(trx, { ...values, platform_id: platformId });
      await sql`release savepoint new_reservation`.execute(trx);
      return { id: row.id, platform_id: platformId };
    } catch (err) {
      // SQLSTATE 23P01 exclusion_violation, raised alike by PostgreSQL and PGlite: another active
      // reservation holds the car for part of the period (a concurrent one waits for ours, then fails).
      if (isDatabaseError(err, '23P01', 'reservations_no_double_booking'))
        throw new AppError('CONFLICT', VEHICLE_UNAVAILABLE);
      if (attempt < 4 && isDatabaseError(err, '23505', 'reservations_platform_id_key')) {
        await sql`rollback to savepoint new_reservation`.execute(trx);
        continue;
      }
      throw err;
    }
  }
}

/**
 * The booking itself, inside the caller's transaction: every check, then the reservation and its line items.
 *
 * Lock order (decision 016): the idempotency key (when there is one), then the car's row, then
 * the renter's own earlier bookings of it (superseded), then the new reservation. The checks
 * before only read; the car's row is locked before the first write, so that two bookings of one
 * car never interleave their writes.
 * Without it they deadlocked: booking A cancels its renter's abandoned hold H of the car and
 * inserts its reservation; booking B, at once, inserts an overlapping one. B's exclusion check
 * meets H, updated by A and not yet committed, and waits for A; A's check meets B's new row and
 * waits for B. Behind the car's lock, B starts only after A has committed or rolled back, and
 * meets a settled row: the 409 at once.
 */
async function book(trx: Trx, now: Date, userId: string, body: CreateBody): Promise<Reservation> {
  const vehicle = await vehicleFor(trx, body.vehicleVin, body.vehicleTimezone);
  if (!vehicle.is_self_serve_booking_allowed)
    throw unprocessable('This vehicle cannot be booked online. Text our concierge to book it.', 'vehicleVin');
  const tz = vehicle.timezone;
  const { pickup, ret } = localTrip(body);
  const buffer = await repo.bufferHoursFor(trx, vehicle.location_id);
  const problem = tripProblems(
    {
      pickupDate: body.pickupDate,
      pickupTime: body.pickupTime,
      returnDate: body.returnDate,
      returnTime: body.returnTime,
    },
    now,
    tz,
    buffer,
  )[0];
  if (problem) throw unprocessable(problem.message, problem.field);
  if (daysBetween(body.pickupDate, body.returnDate) < 1)
    throw unprocessable('The return must be at least one day after the pickup.', 'returnDate');
  const pickupAt = toInstant(pickup, tz);
  const returnAt = toInstant(ret, tz);
  const addons = await pricedAddons(trx, body.addonIds, vehicle.vin, pickupAt, returnAt, 'addonIds');
  const { user } = await getUser(trx, userId);
  const age = user.birthday ? ageOn(user.birthday, pickup.date) : null;
  if (!isOldEnoughToRent(age))
    throw unprocessable(`You must be at least ${MINIMUM_RENTER_AGE} years old at pickup to rent with us.`, 'birthday');
  const items = bookingLineItems({
    rackRateCents: vehicle.rack_rate,
    pickup,
    return: ret,
    timeZone: tz,
    addons,
    taxRatePpm: vehicle.tax_rate_ppm,
    renterAgeAtPickup: age,
    isNewReservation: true,
  });
  await repo.lockVehicle(trx, vehicle.vehicle_id);
  // The abandoned bookings' unpaid charges are retired with them: their secrets can settle nothing now.
  for (const id of await repo.supersedeAbandonedBookings(trx, userId, vehicle.vehicle_id, pickupAt, returnAt, now)) {
    await retireOpenCharges(trx, id, now);
    await deleteClaim(trx, id);
  }
  // One account cannot block the fleet with unpaid holds (decision 025).
  const holding = await trx
    .selectFrom('reservations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'Started')
    .executeTakeFirstOrThrow();
  if (Number(holding.n) >= MAX_UNPAID_HOLDS) {
    throw unprocessable(
      `You already have ${MAX_UNPAID_HOLDS} unpaid bookings. Pay for one, or let one lapse (after ${UNPAID_HOLD_MINUTES} minutes), before booking another car.`,
    );
  }
  const created = await insertReservation(trx, {
    vehicle_id: vehicle.vehicle_id,
    user_id: userId,
    pickup_at: pickupAt,
    return_at: returnAt,
    timezone: tz,
    location_id: vehicle.location_id,
    gclid: body.gclid ?? null,
    created_at: now,
  });
  crashPoint('booking-before-line-items');
  await repo.insertLineItems(trx, created.id, items, now);
  return reservationById(trx, created.id, now);
}

/**
 * Spec 7, POST /api/v1/reservations: books the car for the signed-in renter (status Started, not
 * yet paid) with its Pending line items, in one transaction (or the caller's, when `db` is one).
 */
export async function createReservation(
  deps: BookingDeps & { cancelRetired: (userId: string) => Promise<void> },
  userId: string,
  body: CreateBody,
): Promise<Reservation> {
  const now = deps.clock();
  const reservation = await transact(deps.db, (trx) => book(trx, now, userId, body));
  await afterCommit(deps.db, async () => {
    deps.searchIndex.markStale();
    // A booking replacing the renter's abandoned one retired that one's unpaid charge.
    await deps.cancelRetired(userId);
  });
  return reservation;
}

/** GET /api/v1/reservations/:id: one of the renter's trips; another renter's or an unknown id is a 404. */
export function getReservation(
  deps: { db: Kysely<Database>; clock: Clock },
  userId: string,
  platformId: string,
): Promise<Reservation> {
  return getReservationForRenter(deps.db, userId, platformId, deps.clock());
}

/** POST /api/v1/reservations/conflict-check: the active reservations of the car overlapping a period. */
export async function conflictCheck(db: Kysely<Database>, userId: string, body: z.output<typeof ConflictCheckBody>) {
  const vehicle = await vehicleFor(db, body.vehicleVin, body.vehicleTimezone);
  // Bounded like any trip (at most 28 days), so no request makes the database scan years of bookings.
  const length = tripLengthProblem(body);
  if (length) throw unprocessable(length.message, length.field);
  const { pickup, ret } = localTrip(body);
  let except: string | undefined;
  if (body.platform_id) {
    const own = await repo.findReservation(db, userId, body.platform_id);
    if (!own) throw notFound(TRIP_NOT_FOUND, 'platform_id');
    except = own.platform_id;
  }
  const rows = await repo.overlappingReservations(
    db,
    vehicle.vehicle_id,
    toInstant(pickup, vehicle.timezone),
    toInstant(ret, vehicle.timezone),
    except,
  );
  return {
    is_available: rows.length === 0,
    conflicts: rows.map((r) => ({
      pickup_at: new Date(r.pickup_at).toISOString(),
      return_at: new Date(r.return_at).toISOString(),
    })),
  };
}

const byTime = (key: 'pickup_at' | 'return_at', dir: 1 | -1) => (a: Reservation, b: Reservation) =>
  dir * (Date.parse(a[key]) - Date.parse(b[key]));

/**
 * GET /api/v1/reservations: the renter's trips by section. Upcoming holds Pending and also
 * Started (booked, not yet paid: the renter should find and finish them), soonest first; active
 * (On Rent) by return; past (Returned) and canceled most recent first.
 */
export async function listReservations({ db, clock }: { db: Kysely<Database>; clock: Clock }, userId: string) {
  const all = await serializeReservations(db, await repo.listReservations(db, userId), clock());
  const pick = (...statuses: string[]) => all.filter((r) => statuses.includes(r.status));
  return {
    upcoming: pick('Started', 'Pending').sort(byTime('pickup_at', 1)),
    active: pick('On Rent').sort(byTime('return_at', 1)),
    past: pick('Returned').sort(byTime('return_at', -1)),
    canceled: pick('Canceled').sort(byTime('pickup_at', -1)),
  };
}

// --- changing a booking ------------------------------------------------------------------------

/**
 * The renter's reservation locked for the rest of the transaction; another renter's or an unknown
 * id is a 404. Everything that changes a reservation's money takes this lock first, so changes to
 * one reservation (add-ons, discount, fee, payment) are applied one at a time.
 */
export async function lockOwnReservation(trx: Trx, userId: string, platformId: string): Promise<repo.ReservationRow> {
  const row = await repo.findReservation(trx, userId, platformId, { lock: true });
  if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  return row;
}

/** What the reservation's unpaid line items are, to tell whether a change changed them. */
async function pendingFingerprint(trx: Trx, reservationId: string): Promise<string> {
  const rows = await repo.pendingRows(trx, reservationId);
  return rows
    .map((t) => `${t.id}:${t.amount}:${t.discount_amount}`)
    .sort()
    .join(',');
}

/**
 * Runs a change to the reservation's line items inside the caller's transaction (which holds the
 * reservation row). When the unpaid items changed, the unpaid charge for the old ones is retired
 * in the same transaction (decision 018): its client secret can no longer settle anything, and the
 * payments feature cancels it at the provider after commit; a coupon it claimed is given back
 * (decision 052). Returns whether anything changed.
 */
export async function changingLineItems(
  trx: Trx,
  reservationId: string,
  now: Date,
  change: () => Promise<void>,
): Promise<boolean> {
  const before = await pendingFingerprint(trx, reservationId);
  await change();
  if ((await pendingFingerprint(trx, reservationId)) === before) return false;
  await retireOpenCharges(trx, reservationId, now);
  // The coupon claimed for the retired charge is given back; the next payment step claims it again.
  await deleteClaim(trx, reservationId);
  return true;
}

function requireChangeable(row: repo.ReservationRow, what: string): void {
  if (!isBeforePickup(row.status))
    throw unprocessable(`${what} can only be changed before the trip starts.`, 'platform_id');
}

/**
 * Replaces the reservation's pending Tax row by one on all its pending taxable rows net of
 * discounts (paid rows were taxed when paid). Leaves the row alone when the amount is unchanged.
 */
export async function recomputePendingTax(trx: Trx, row: repo.ReservationRow, now: Date): Promise<void> {
  const { tax_rate_ppm } = await repo.pricingFacts(trx, row.vehicle_id, row.pickup_location_id);
  const pending = await repo.pendingRows(trx, row.id);
  const taxRows = pending.filter((t) => t.category === 'Tax');
  const taxable = pending.filter((t) => t.category !== 'Tax' && t.category !== 'Deposit');
  const tax = taxOn(taxable, tax_rate_ppm);
  if (taxable.length > 0 && taxRows.length === 1 && taxRows[0]!.amount === tax) return;
  await repo.cancelTransactions(
    trx,
    taxRows.map((t) => t.id),
  );
  if (taxable.length > 0)
    await repo.insertLineItems(trx, row.id, [taxItem(tax, toLocal(new Date(row.pickup_at), row.timezone).date)], now);
}

const tripDays = (row: repo.ReservationRow) =>
  rentalDaysBetween(new Date(row.pickup_at), new Date(row.return_at), row.timezone);

/**
 * PATCH /api/v1/reservations/addons: the pending add-ons become exactly `addonIds` (missing ones
 * added, unlisted pending ones canceled; paid ones stay), and the tax follows, in one transaction.
 */
export async function setAddons(
  deps: Pick<BookingDeps, 'db' | 'clock'>,
  userId: string,
  platformId: string,
  addonIds: readonly string[],
): Promise<Reservation> {
  const now = deps.clock();
  return transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, platformId);
    requireChangeable(row, 'Add-ons');
    const wanted = new Set(addonIds);
    const existing = await repo.pendingAndPaidAddonRows(trx, row.id);
    const have = new Set(existing.map((t) => t.addon_id));
    const { vin } = await repo.pricingFacts(trx, row.vehicle_id, row.pickup_location_id);
    const added = await pricedAddons(
      trx,
      [...wanted].filter((id) => !have.has(id)),
      vin,
      new Date(row.pickup_at),
      new Date(row.return_at),
      'addon_ids',
    );
    const date = toLocal(new Date(row.pickup_at), row.timezone).date;
    await changingLineItems(trx, row.id, now, async () => {
      await repo.cancelTransactions(
        trx,
        existing.filter((t) => t.status === 'Pending' && !wanted.has(t.addon_id ?? '')).map((t) => t.id),
      );
      await repo.insertLineItems(
        trx,
        row.id,
        added.map((a) => addonItem(a, tripDays(row), date)),
        now,
      );
      await recomputePendingTax(trx, row, now);
    });
    return reservationById(trx, row.id, now);
  });
}

/**
 * Sets a PERCENTAGE-per-DAY discount on the pending Rack rows (replacing any earlier one),
 * recomputes the tax and records the code. For the discounts feature, inside its transaction.
 */
export async function applyPercentDiscount(
  trx: Trx,
  row: repo.ReservationRow,
  code: string | null,
  percent: number,
  now: Date,
): Promise<void> {
  await changingLineItems(trx, row.id, now, async () => {
    const rack = (await repo.pendingRows(trx, row.id)).filter((t) => t.category === 'Rack');
    await repo.setDiscountAmounts(
      trx,
      rack
        .map((t) => ({ id: t.id, discount_amount: dayDiscountCents(t.amount, percent) }))
        .filter((c, i) => c.discount_amount !== rack[i]!.discount_amount),
    );
    await recomputePendingTax(trx, row, now);
  });
  await repo.updateReservation(trx, row.id, { discount_code: code });
  if (row.discount_code !== code) await deleteClaim(trx, row.id);
}

/** Takes the discount code off a trip: its pending rental days at full price again, the tax follows. */
export function removeDiscount(trx: Trx, row: repo.ReservationRow, now: Date): Promise<void> {
  return applyPercentDiscount(trx, row, null, 0, now);
}

export { hasEarlierPaidTrip } from './repository.ts';
export { reservationById } from './serializer.ts';

/**
 * Brings the Underage User Fee in line with the renter's birthday: a renter under 25 on the pickup
 * date gets the fee (per rental day) if the trip lacks it; a pending fee is canceled when the
 * renter is not (a corrected birthday). Only while the trip can change; the tax follows. The
 * booking adds the fee when the birthday is already known; the payment step calls this, inside
 * the transaction that has locked the reservation, before charging, for a birthday given after
 * booking (spec 5: "an extra payment creation adds an underage fee"). Returns whether anything changed.
 */
export async function syncUnderageFeeLocked(trx: Trx, reservationId: string, now: Date): Promise<boolean> {
  const row = await repo.findReservationById(trx, reservationId);
  return row ? underageFeeIn(trx, row, now) : false;
}

/**
 * The renter's trips that can still change, locked in id order, each with its underage fee brought
 * in line with a birthday just changed in the same transaction. Returns the ids of those changed.
 */
export async function syncUnderageFeesOfRenter(trx: Trx, userId: string, now: Date): Promise<string[]> {
  const changed: string[] = [];
  for (const row of await repo.lockChangeableReservations(trx, userId)) {
    if (await underageFeeIn(trx, row, now)) changed.push(row.id);
  }
  return changed;
}

async function underageFeeIn(trx: Trx, row: repo.ReservationRow, now: Date): Promise<boolean> {
  if (!isBeforePickup(row.status)) return false;
  if (!row.user_id) return false;
  const { user } = await getUser(trx, row.user_id);
  const pickupDate = toLocal(new Date(row.pickup_at), row.timezone).date;
  const underage = isUnderage(user.birthday ? ageOn(user.birthday, pickupDate) : null);
  const fees = await repo.activeFeeRows(trx, row.id, UNDERAGE_FEE_DESCRIPTION);
  if (underage && fees.length === 0) {
    return changingLineItems(trx, row.id, now, async () => {
      await repo.insertLineItems(trx, row.id, [underageFeeItem(tripDays(row), pickupDate)], now);
      await recomputePendingTax(trx, row, now);
    });
  }
  if (!underage && fees.some((f) => f.status === 'Pending')) {
    return changingLineItems(trx, row.id, now, async () => {
      await repo.cancelTransactions(
        trx,
        fees.filter((f) => f.status === 'Pending').map((f) => f.id),
      );
      await recomputePendingTax(trx, row, now);
    });
  }
  return false;
}

/**
 * POST /api/v1/reservations/eligibility-check: the built-in soft credit check (decision 012),
 * run once per reservation; later calls answer what the first decided.
 */
export async function checkEligibility(
  deps: Pick<BookingDeps, 'db' | 'clock'>,
  userId: string,
  platformId: string,
): Promise<{ is_eligible: boolean }> {
  const now = deps.clock();
  return transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, platformId);
    if (row.eligibility_checked_at !== null && row.is_eligible !== null) return { is_eligible: row.is_eligible };
    const { user } = await getUser(trx, userId);
    if (!user.first_name?.trim() || !user.last_name?.trim())
      throw unprocessable('Add your first and last name to your profile before the credit check.', 'last_name');
    const isEligible = isSoftCreditCheckPassed(user);
    await repo.updateReservation(trx, row.id, { is_eligible: isEligible, eligibility_checked_at: now });
    return { is_eligible: isEligible };
  });
}
