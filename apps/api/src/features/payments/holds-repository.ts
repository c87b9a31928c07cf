import type { Kysely, Transaction } from 'kysely';
import { OPEN_TRIP_STATUSES } from '@ampere/domain/booking';
import type { Database } from '../../db/schema.ts';
import { CANCELING } from './repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The deposit holds (decisions 026 and 028): released with a cancelled trip, renewed, taken from at the return. */

/** Authorised holds placed at or before `cutoff` on trips still ahead or under way, oldest first (at most `limit`). */
export function holdsDueForRenewal(db: Db, cutoff: Date, limit: number) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.id', 'p.reservation_id', 'r.user_id'])
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.status', '=', 'requires_capture')
    .where('p.created_at', '<=', cutoff)
    .where('r.status', 'in', OPEN_TRIP_STATUSES)
    .orderBy('p.created_at')
    .limit(limit)
    .execute();
}

/** Whether a renewal of this hold was begun (a new hold row naming it as the one it replaces). */
export async function hasRenewal(trx: Transaction<Database>, reservationId: string, holdId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('payments')
    .select('id')
    .where('reservation_id', '=', reservationId)
    .where('kind', '=', 'DEPOSIT_HOLD')
    .where('replaces_payment_id', '=', holdId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A renewed hold is authorised: the deposit row moves to it, and the old hold is marked for release. */
export async function moveDepositToHold(
  trx: Transaction<Database>,
  oldHoldId: string,
  freshHoldId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('transactions')
    .set({ payment_id: freshHoldId })
    .where('payment_id', '=', oldHoldId)
    .where('category', '=', 'Deposit')
    .where('status', '=', 'Pending')
    .execute();
  await trx.updateTable('payments').set({ status: CANCELING, updated_at: now }).where('id', '=', oldHoldId).execute();
  await trx.updateTable('payments').set({ replaces_payment_id: null }).where('id', '=', freshHoldId).execute();
}

/** A Returned trip's hold while it is still authorised (not yet captured or released). */
export function returnedTripHold(db: Db, reservationId: string) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.id', 'p.provider_intent_id'])
    .where('p.reservation_id', '=', reservationId)
    .where('r.status', '=', 'Returned')
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.status', '=', 'requires_capture')
    .executeTakeFirst();
}

/** What the fees to be taken from this hold add up to, net of discounts. */
export async function feesOnHold(db: Db, holdId: string): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('discount_amount'))), eb.lit(0)).as('sum'),
    )
    .where('payment_id', '=', holdId)
    .where('category', '!=', 'Deposit')
    .where('status', '=', 'Pending')
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

/**
 * Returned trips whose hold is still authorised and whose review window (decision 092) ended —
 * returned at or before `returnedBy` — at most `limit`, longest waiting first.
 */
export function returnedTripsWithLiveHold(db: Db, limit: number, returnedBy: Date) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.reservation_id', 'r.user_id', 'p.id as payment_id', 'r.returned_at'])
    .where('r.status', '=', 'Returned')
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.status', '=', 'requires_capture')
    .where((eb) => eb.or([eb('r.returned_at', 'is', null), eb('r.returned_at', '<=', returnedBy)]))
    .orderBy('r.returned_at')
    .limit(limit)
    .execute();
}

/** The trip's deposit hold while it is authorised (the only hold fees can be taken from). */
export function liveHold(db: Db, reservationId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'amount'])
    .where('reservation_id', '=', reservationId)
    .where('kind', '=', 'DEPOSIT_HOLD')
    .where('status', '=', 'requires_capture')
    .executeTakeFirst();
}

/** Records who settled a returned trip's hold and how; the first record stands. */
export async function recordSettlement(
  db: Db,
  values: {
    payment_id: string;
    reservation_id: string;
    review_ends_at: Date;
    settled_at: Date;
    settled_by: string | null;
    settled_how: 'captured' | 'released';
  },
) {
  await db
    .insertInto('deposit_reviews')
    .values(values)
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .execute();
}

/** Charges whose items the hold's capture paid are now collected. */
export async function markCollected(db: Db, holdId: string, now: Date) {
  await db
    .updateTable('charges')
    .set({ status: 'collected', updated_at: now })
    .where('status', '=', 'posted')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('transactions')
        .select('charge_id')
        .where('payment_id', '=', holdId)
        .where('status', '=', 'Successful')
        .where('charge_id', 'is not', null)
        .$narrowType<{ charge_id: string }>(),
    )
    .execute();
}

export function paymentStatus(db: Db, paymentId: string) {
  return db.selectFrom('payments').select(['status']).where('id', '=', paymentId).executeTakeFirstOrThrow();
}
