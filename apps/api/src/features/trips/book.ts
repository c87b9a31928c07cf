import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { ageOn } from '@ampere/domain/account';
import { bookingLineItems, isOldEnoughToRent, newPlatformId } from '@ampere/domain/booking';
import { MAX_UNPAID_HOLDS, MINIMUM_RENTER_AGE, UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { ConflictCheckBody, Reservation, ReservationCreateBody } from '@ampere/domain/contract/booking';
import { VEHICLE_UNAVAILABLE_MESSAGE } from '@ampere/domain/contract/booking';
import { tripLengthProblem, tripProblems } from '@ampere/domain/dates';
import { daysBetween, toInstant } from '@ampere/domain/time';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { crashPoint } from '../../crash.ts';
import type { Database } from '../../db/schema.ts';
import { afterCommit, isDatabaseError, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import { giveBackClaim } from '../discounts/repository.ts';
import { chargesRetiredIn, retireOpenCharges } from '../payments/repository.ts';
import { DO_NOT_RENT_MESSAGE } from '@ampere/domain/renter-review';
import { doNotRentInForce } from '../renter-review/service.ts';
import { getUser } from '../users/service.ts';
import { pricedAddons } from './line-items.ts';
import * as lineItems from './line-items-repository.ts';
import * as booking from './book-repository.ts';
import * as repo from './repository.ts';
import { TRIP_NOT_FOUND, reservationById } from './serializer.ts';

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

const localTrip = (b: Pick<CreateBody, 'pickupDate' | 'pickupTime' | 'returnDate' | 'returnTime'>) => ({
  pickup: { date: b.pickupDate, time: b.pickupTime },
  ret: { date: b.returnDate, time: b.returnTime },
});

/** The car, checked: it exists, and the zone the dates were written in is its location's. */
async function vehicleFor(db: repo.Db, vin: string, vehicleTimezone: string) {
  const vehicle = await booking.findBookableVehicle(db, vin);
  if (!vehicle) throw notFound(`No vehicle with VIN ${vin.toUpperCase()}.`, 'vehicleVin');
  if (vehicleTimezone !== vehicle.timezone) {
    throw unprocessable(
      `vehicleTimezone must be the time zone of the vehicle's location (${vehicle.timezone}); got ${vehicleTimezone}.`,
      'vehicleTimezone',
    );
  }
  return vehicle;
}

/** Inserts the reservation under a fresh platform id; the exclusion constraint's refusal is the spec's 409. */
async function insertReservation(
  trx: Trx,
  values: Omit<booking.NewReservation, 'platform_id'>,
): Promise<{ id: string; platform_id: string }> {
  try {
    return await booking.insertReservationUnderNewId(trx, values, () => newPlatformId(randomBytes(5)));
  } catch (err) {
    // SQLSTATE 23P01 exclusion_violation, raised alike by PostgreSQL and PGlite: another active
    // reservation holds the car for part of the period (a concurrent one waits for ours, then fails),
    // or a staff hold does (car_blocks, decision 083).
    if (
      isDatabaseError(err, '23P01', 'reservations_no_double_booking') ||
      isDatabaseError(err, '23P01', 'car_blocks_no_overlap')
    )
      throw new AppError('CONFLICT', VEHICLE_UNAVAILABLE);
    throw err;
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
  // A renter on the do-not-rent list books nothing new, and reads why only from support (decision 095).
  if (await doNotRentInForce(trx, userId, now)) throw unprocessable(DO_NOT_RENT_MESSAGE);
  const vehicle = await vehicleFor(trx, body.vehicleVin, body.vehicleTimezone);
  if (!vehicle.is_self_serve_booking_allowed)
    throw unprocessable('This vehicle cannot be booked online. Text our concierge to book it.', 'vehicleVin');
  const tz = vehicle.timezone;
  const { pickup, ret } = localTrip(body);
  const buffer = vehicle.buffer_hours ?? null;
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
  const addons = await pricedAddons(trx, body.addonIds, vehicle.model_id, pickupAt, returnAt, 'addonIds');
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
  await booking.lockVehicle(trx, vehicle.vehicle_id);
  // The abandoned bookings' unpaid charges are retired with them: their secrets can settle nothing now.
  for (const id of await booking.supersedeAbandonedBookings(trx, userId, vehicle.vehicle_id, pickupAt, returnAt, now)) {
    await retireOpenCharges(trx, id, now, giveBackClaim(trx, id));
  }
  // One account cannot block the fleet with unpaid holds (decision 025).
  if ((await booking.countUnpaidHolds(trx, userId)) >= MAX_UNPAID_HOLDS) {
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
  await lineItems.insertLineItems(trx, created.id, items, now);
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
  const { reservation, retired } = await transact(deps.db, async (trx) => ({
    reservation: await book(trx, now, userId, body),
    retired: chargesRetiredIn(trx) > 0,
  }));
  await afterCommit(deps.db, async () => {
    deps.searchIndex.markStale();
    // A booking replacing the renter's abandoned one retired that one's unpaid charge; most retire none.
    if (retired) await deps.cancelRetired(userId);
  });
  return reservation;
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
