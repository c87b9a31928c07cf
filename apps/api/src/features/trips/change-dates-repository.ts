import type { Kysely, Transaction } from 'kysely';
import { blockedUntil } from '@ampere/domain/availability';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A trip's change of dates (decision 027): asked for, paid and applied, or dropped. */

/** What a change applied now records of the trip's dates before it (the confirmation reads what it did). */
export interface LastChange {
  changed_from_pickup_at: Date;
  changed_from_return_at: Date;
  dates_changed_at: Date;
}

/** A change that adds no rental day: the trip's dates move at once, and the car's hold with them. */
export async function moveDates(
  trx: Transaction<Database>,
  reservationId: string,
  dates: { pickup_at: Date; return_at: Date },
  last: LastChange,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('reservations')
    .set({ ...dates, blocked_until: blockedUntil(dates.return_at), ...last, updated_at: now })
    .where('id', '=', reservationId)
    .execute();
}

/**
 * A change to be paid for: the dates asked for are recorded (the pickup only when it moves) and the
 * car is held to the new return at once; the trip's own dates stay until the change is paid.
 */
export async function requestDates(
  trx: Transaction<Database>,
  reservationId: string,
  requested: { pickup_at: Date | null; return_at: Date },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('reservations')
    .set({
      requested_pickup_at: requested.pickup_at,
      requested_return_at: requested.return_at,
      change_requested_at: now,
      blocked_until: blockedUntil(requested.return_at),
      updated_at: now,
    })
    .where('id', '=', reservationId)
    .execute();
}

/** The requested change is forgotten, and the car's hold shrinks back to the trip's own return. */
export async function clearRequestedDates(
  trx: Transaction<Database>,
  reservationId: string,
  returnAt: Date,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('reservations')
    .set({
      requested_pickup_at: null,
      requested_return_at: null,
      change_requested_at: null,
      blocked_until: blockedUntil(returnAt),
      updated_at: now,
    })
    .where('id', '=', reservationId)
    .execute();
}

/** A paid change becomes the trip's dates: the request is cleared, and a late flag goes with the old return. */
export async function applyRequestedDates(
  trx: Transaction<Database>,
  reservationId: string,
  dates: { pickup_at: Date; return_at: Date },
  last: LastChange,
  now: Date,
): Promise<void> {
  await trx
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
    .execute();
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
