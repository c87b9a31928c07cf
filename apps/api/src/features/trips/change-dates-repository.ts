import { type Kysely, type Transaction, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { blockedUntil } from '@ampere/domain/availability';
import type { LineItem } from '@ampere/domain/booking';
import type { Database } from '../../db/schema.ts';
import { LOCATION_BUFFER_HOURS } from '../locations/repository.ts';
import { insertLineItemsQuery, liveItemsQuery, unpaidItemsQuery } from './line-items-repository.ts';
import { keyWindowUpdate } from '../keys/repository.ts';
import { RESERVATION_COLUMNS, platformIdVariants } from './repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A trip's change of dates (decision 027): asked for, paid and applied, or dropped. */

/**
 * One of the renter's trips as `findReservation` reads it, with what a change of its dates is
 * checked and priced by in the same round trip: the pickup lot's buffer, the car's daily rate and
 * the lot's tax rate.
 */
function tripWithPricing(db: Db, userId: string, platformId: string) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('locations', 'locations.id', 'r.pickup_location_id')
    .select(RESERVATION_COLUMNS)
    .select(['v.rack_rate', 'locations.tax_rate_ppm', LOCATION_BUFFER_HOURS])
    .where('r.user_id', '=', userId)
    .where('r.platform_id', 'in', platformIdVariants(platformId));
}

/**
 * The trip to change, its row locked until the transaction ends; the car's and the lot's rows are
 * read, not locked (a trip's car and pickup lot are set when it is booked and never change, so the
 * join still holds when the lock was waited for). Its items are read after the lock, in their own
 * statement: a statement that waits for the lock still reads other tables as they were when it began.
 */
export function lockTripToChange(trx: Transaction<Database>, userId: string, platformId: string) {
  return tripWithPricing(trx, userId, platformId).forUpdate('r').executeTakeFirst();
}

/** The trip whose change is previewed, with its live items (liveItemsQuery), in one statement. */
export function tripToPreview(db: Db, userId: string, platformId: string) {
  return tripWithPricing(db, userId, platformId)
    .select((eb) => jsonArrayFrom(liveItemsQuery(db).whereRef('t.reservation_id', '=', eb.ref('r.id'))).as('items'))
    .executeTakeFirst();
}

/** What a change applied now records of the trip's dates before it (the confirmation reads what it did). */
export interface LastChange {
  changed_from_pickup_at: Date;
  changed_from_return_at: Date;
  dates_changed_at: Date;
}

/**
 * A change that adds no rental day: the trip's dates move at once, and the car's hold with them.
 * Returns the trip's row as it now stands.
 */
export function moveDates(
  trx: Transaction<Database>,
  reservationId: string,
  dates: { pickup_at: Date; return_at: Date },
  last: LastChange,
  now: Date,
) {
  return trx
    .updateTable('reservations as r')
    .set({ ...dates, blocked_until: blockedUntil(dates.return_at), ...last, updated_at: now })
    .where('r.id', '=', reservationId)
    .returning(RESERVATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * A change to be paid for: the dates asked for are recorded (the pickup only when it moves) and the
 * car is held to the new return at once; the trip's own dates stay until the change is paid. The
 * items it adds (at least one) are written in the same statement. Returns the trip's row as it now
 * stands.
 */
export function requestDates(
  trx: Transaction<Database>,
  reservationId: string,
  requested: { pickup_at: Date | null; return_at: Date },
  added: readonly LineItem[],
  now: Date,
) {
  return trx
    .with('added', () => insertLineItemsQuery(trx, reservationId, added, now))
    .updateTable('reservations as r')
    .set({
      requested_pickup_at: requested.pickup_at,
      requested_return_at: requested.return_at,
      change_requested_at: now,
      blocked_until: blockedUntil(requested.return_at),
      updated_at: now,
    })
    .where('r.id', '=', reservationId)
    .returning(RESERVATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The requested change is forgotten, and the car's hold shrinks back to the trip's own return.
 * Returns the trip's row as it now stands.
 */
export function clearRequestedDates(trx: Transaction<Database>, reservationId: string, returnAt: Date, now: Date) {
  return trx
    .updateTable('reservations as r')
    .set({
      requested_pickup_at: null,
      requested_return_at: null,
      change_requested_at: null,
      blocked_until: blockedUntil(returnAt),
      updated_at: now,
    })
    .where('r.id', '=', reservationId)
    .returning(RESERVATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * A paid change becomes the trip's dates, when nothing but the deposit is left to pay: the request
 * is cleared, a late flag goes with the old return, and the trip's live keys open the car for
 * `keyWindow`. One statement: the check, the trip and its keys. True when applied.
 */
export async function applyRequestedDatesIfPaid(
  trx: Transaction<Database>,
  reservationId: string,
  dates: { pickup_at: Date; return_at: Date },
  last: LastChange,
  keyWindow: { from: Date; until: Date },
  now: Date,
): Promise<boolean> {
  const applied = await trx
    .with('applied', (db) =>
      db
        .updateTable('reservations')
        .set({
          ...dates,
          blocked_until: blockedUntil(dates.return_at),
          requested_pickup_at: null,
          requested_return_at: null,
          change_requested_at: null,
          late_flagged_at: null,
          ...last,
          updated_at: now,
        })
        .where('id', '=', reservationId)
        .where(({ not, exists }) => not(exists(unpaidItemsQuery(db, reservationId))))
        .returning('id'),
    )
    // Built on the transaction, as the statement's other tables are; it reads `applied` by name.
    .with('keyed', () =>
      keyWindowUpdate(trx, keyWindow, now)
        .where('reservation_id', '=', reservationId)
        .where(sql<boolean>`exists (select from applied)`)
        .returning('id'),
    )
    .selectFrom('applied')
    .select('id')
    .executeTakeFirst();
  return applied !== undefined;
}

/** Trips whose change was asked for at or before `cutoff` and is still unpaid (at most `limit`). */
export async function changesRequestedBefore(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('reservations')
    .select('id')
    .where('change_requested_at', '<=', cutoff)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
