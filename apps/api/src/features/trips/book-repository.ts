import { type Transaction, sql } from 'kysely';
import { blockedUntil } from '@ampere/domain/availability';
import type { Database } from '../../db/schema.ts';
import { LOCATION_BUFFER_HOURS } from '../locations/repository.ts';
import { isDatabaseError } from '../../db/transact.ts';
import { type Db, holdsOverlap } from './repository.ts';

/** What booking a car reads and writes (book.ts); the bookings themselves are in repository.ts. */

/**
 * What booking needs to know of a car: its price, its home location and that location's zone, tax
 * and pickup buffer (`bufferHoursFor`, read in the same statement).
 */
export function findBookableVehicle(db: Db, vin: string) {
  return (
    db
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .select([
        'v.id as vehicle_id',
        'v.vin',
        'v.model_id',
        'v.rack_rate',
        'v.is_self_serve_booking_allowed',
        'v.location_id',
        'l.name as location_name',
        'l.region_id',
        'l.timezone',
        'l.tax_rate_ppm',
      ])
      .select((eb) =>
        eb
          .selectFrom('locations')
          .select(LOCATION_BUFFER_HOURS)
          .whereRef('locations.id', '=', 'v.location_id')
          .as('buffer_hours'),
      )
      .where('v.vin', '=', vin.toUpperCase())
      // A retired car is never offered again (decision 083).
      .where('v.retired_at', 'is', null)
      .executeTakeFirst()
  );
}

/**
 * Locks the car's row (FOR NO KEY UPDATE: foreign-key checks of other rows referencing it are not
 * blocked) until the transaction ends, so that bookings of one car run one after the other (see
 * `book` in the service).
 */
export async function lockVehicle(trx: Transaction<Database>, vehicleId: number): Promise<void> {
  await trx.selectFrom('vehicles').select('id').where('id', '=', vehicleId).forNoKeyUpdate().execute();
}

/** The pickup buffer of a location (LOCATION_BUFFER_HOURS: its lot's, else its city's; null for the default). */
export async function bufferHoursFor(db: Db, locationId: number): Promise<number | null> {
  const row = await db
    .selectFrom('locations')
    .select(LOCATION_BUFFER_HOURS)
    .where('locations.id', '=', locationId)
    .executeTakeFirst();
  return row?.min_reservation_buffer_hours ?? null;
}

/**
 * The renter's own unpaid (Started) bookings of this car overlapping the period, with no payment
 * under way or made: a new booking replaces them (decision 012), so starting over is not refused
 * by the renter's own abandoned attempt.
 */
export async function supersedeAbandonedBookings(
  trx: Transaction<Database>,
  userId: string,
  vehicleId: number,
  from: Date,
  to: Date,
  now: Date,
): Promise<string[]> {
  const rows = await trx
    .updateTable('reservations')
    .set({ status: 'Canceled', canceled_at: now, cancel_reason: 'replaced' })
    .where('user_id', '=', userId)
    .where('vehicle_id', '=', vehicleId)
    .where('status', '=', 'Started')
    .where(holdsOverlap(from, to))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('payments as p')
            .select('p.id')
            .whereRef('p.reservation_id', '=', 'reservations.id')
            .where('p.status', 'in', ['succeeded', 'processing', 'requires_capture', 'requires_action']),
        ),
      ),
    )
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length > 0)
    await trx
      .updateTable('transactions')
      .set({ status: 'Canceled' })
      .where('reservation_id', 'in', ids)
      .where('status', '=', 'Pending')
      .execute();
  return ids;
}

export interface NewReservation {
  platform_id: string;
  vehicle_id: number;
  user_id: string;
  pickup_at: Date;
  return_at: Date;
  timezone: string;
  location_id: number;
  gclid: string | null;
  /** The server's clock, not the database's: a moved development clock books at its own time. */
  created_at: Date;
}

function insertReservation(trx: Transaction<Database>, r: NewReservation) {
  return trx
    .insertInto('reservations')
    .values({
      platform_id: r.platform_id,
      vehicle_id: r.vehicle_id,
      user_id: r.user_id,
      status: 'Started',
      pickup_at: r.pickup_at,
      return_at: r.return_at,
      blocked_until: blockedUntil(r.return_at),
      timezone: r.timezone,
      pickup_location_id: r.location_id,
      dropoff_location_id: r.location_id,
      gclid: r.gclid,
      created_at: r.created_at,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/**
 * Inserts the reservation under a platform id drawn by `newPlatformId`. The insert runs under a
 * savepoint, so that an id already taken (rare: 40 random bits) is drawn again, up to four times,
 * without losing the caller's transaction. Any other refusal (the exclusion constraint's) is thrown
 * as the database raised it.
 */
export async function insertReservationUnderNewId(
  trx: Transaction<Database>,
  values: Omit<NewReservation, 'platform_id'>,
  newPlatformId: () => string,
): Promise<{ id: string; platform_id: string }> {
  for (let attempt = 1; ; attempt++) {
    const platformId = newPlatformId();
    await sql`savepoint new_reservation`.execute(trx);
    try {
      const row = await insertReservation(trx, { ...values, platform_id: platformId });
      await sql`release savepoint new_reservation`.execute(trx);
      return { id: row.id, platform_id: platformId };
    } catch (err) {
      if (attempt < 4 && isDatabaseError(err, '23505', 'reservations_platform_id_key')) {
        await sql`rollback to savepoint new_reservation`.execute(trx);
        continue;
      }
      throw err;
    }
  }
}

/** How many unpaid (Started) bookings the renter holds. */
export async function countUnpaidHolds(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('reservations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'Started')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
