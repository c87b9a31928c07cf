import type { Transaction } from 'kysely';
import type { CancelReason } from '@ampere/domain/constants';
import type { Database } from '../../db/schema.ts';
import type { Db } from './repository.ts';

/**
 * A trip's status over time: confirmed when paid, On Rent at pickup, flagged late, Returned, or
 * Canceled. Each change is guarded by the status it expects, so a second run changes nothing.
 */

/** Started → Pending: the booking is confirmed once the provider says it is paid. */
export async function confirmReservation(
  trx: Transaction<Database>,
  reservationId: string,
  now: Date,
): Promise<boolean> {
  const r = await trx
    .updateTable('reservations')
    .set({ status: 'Pending', confirmed_at: now })
    .where('id', '=', reservationId)
    .where('status', '=', 'Started')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The reservation is Canceled (the car is bookable again at once), with why; its confirmation time, if it had one. */
export function markCanceled(trx: Transaction<Database>, reservationId: string, now: Date, reason: CancelReason) {
  return trx
    .updateTable('reservations')
    .set({ status: 'Canceled', canceled_at: now, updated_at: now, cancel_reason: reason })
    .where('id', '=', reservationId)
    .returning('confirmed_at')
    .executeTakeFirstOrThrow();
}

/** The trip is Returned at `now`. */
export async function markReturned(trx: Transaction<Database>, reservationId: string, now: Date): Promise<void> {
  await trx
    .updateTable('reservations')
    .set({ status: 'Returned', returned_at: now, updated_at: now })
    .where('id', '=', reservationId)
    .execute();
}

/** Unpaid (Started) bookings made at or before `cutoff`, oldest first (at most `limit`). */
export async function unpaidHoldsCreatedBefore(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('reservations')
    .select(['id'])
    .where('status', '=', 'Started')
    .where('created_at', '<=', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Paid trips whose pickup time has come go On Rent: one statement guarded by the status, so a trip moves once. */
export function startTripsDue(db: Db, now: Date) {
  return db
    .updateTable('reservations')
    .set({ status: 'On Rent', on_rent_at: now, updated_at: now })
    .where('status', '=', 'Pending')
    .where('pickup_at', '<=', now)
    .returning(['id', 'user_id'])
    .execute();
}

/** Trips On Rent past their return time are flagged late, once. */
export function flagLateTrips(db: Db, now: Date) {
  return db
    .updateTable('reservations')
    .set({ late_flagged_at: now, updated_at: now })
    .where('status', '=', 'On Rent')
    .where('return_at', '<', now)
    .where('late_flagged_at', 'is', null)
    .returning(['id', 'user_id'])
    .execute();
}
