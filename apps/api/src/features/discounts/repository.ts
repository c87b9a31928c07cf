import type { Kysely, QueryCreator, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A discount by its code (stored uppercase). */
export function findDiscount(db: Db, code: string, opts: { lock?: boolean } = {}) {
  let q = db
    .selectFrom('discounts')
    .select([
      'code',
      'kind',
      'type',
      'unit',
      'percent',
      'description',
      'active',
      'starts_at',
      'ends_at',
      'max_redemptions',
      'redemptions',
      'new_renters_only',
    ])
    .where('code', '=', code);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The code a trip's payment has claimed, if any. */
export function claimOf(db: Db, reservationId: string) {
  return db
    .selectFrom('coupon_claims')
    .select(['code', 'redeemed_at'])
    .where('reservation_id', '=', reservationId)
    .executeTakeFirst();
}

/**
 * Claims the code for the trip in one statement: nothing is inserted when the renter already
 * holds a first-trip claim on another trip (the partial unique index decides, waiting for a
 * concurrent claim to commit or roll back). True when claimed.
 */
export async function insertClaim(
  trx: Transaction<Database>,
  c: { reservation_id: string; code: string; user_id: string; first_trip: boolean; now: Date },
): Promise<boolean> {
  const row = await trx
    .insertInto('coupon_claims')
    .values({
      reservation_id: c.reservation_id,
      code: c.code,
      user_id: c.user_id,
      first_trip: c.first_trip,
      claimed_at: c.now,
      redeemed_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('reservation_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Counts one more redemption of the code unless that would pass max_redemptions; true when counted. */
export async function countRedemption(trx: Transaction<Database>, code: string): Promise<boolean> {
  const row = await trx
    .updateTable('discounts')
    .set((eb) => ({ redemptions: eb('redemptions', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .returning('code')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Gives the trip's claim back (only one not yet redeemed, unless `redeemedToo`), uncounting it
 * unless it was never counted (`counted: false`).
 */
export async function deleteClaim(
  trx: Transaction<Database>,
  reservationId: string,
  opts: { redeemedToo?: boolean; counted?: boolean } = {},
): Promise<void> {
  if (!opts.redeemedToo && opts.counted !== false) {
    const [removed, uncounted] = giveBackClaim(trx, reservationId);
    await trx
      .with('removed', () => removed)
      .with('uncounted', () => uncounted)
      .selectFrom('removed')
      .select('code')
      .execute();
    return;
  }
  let q = trx.deleteFrom('coupon_claims').where('reservation_id', '=', reservationId);
  if (!opts.redeemedToo) q = q.where('redeemed_at', 'is', null);
  const gone = await q.returning('code').executeTakeFirst();
  if (gone && opts.counted !== false)
    await trx
      .updateTable('discounts')
      .set((eb) => ({ redemptions: eb('redemptions', '-', 1) }))
      .where('code', '=', gone.code)
      .execute();
}

/**
 * `deleteClaim`'s statements for a claim not yet redeemed, unrun, to send in one statement (`with`),
 * by a caller that holds the trip's row: the claim removed, and its code's redemption uncounted.
 * Both read the claim as it was when the statement began, so neither needs the other's answer.
 */
export function giveBackClaim(db: QueryCreator<Database>, reservationId: string) {
  const unredeemed = db
    .selectFrom('coupon_claims')
    .select('code')
    .where('reservation_id', '=', reservationId)
    .where('redeemed_at', 'is', null);
  return [
    db
      .deleteFrom('coupon_claims')
      .where('reservation_id', '=', reservationId)
      .where('redeemed_at', 'is', null)
      .returning('code'),
    db
      .updateTable('discounts')
      .set((eb) => ({ redemptions: eb('redemptions', '-', 1) }))
      .where('code', 'in', unredeemed)
      .returning('code'),
  ] as const;
}

/** The trip's claim marked redeemed: a statement for the caller to run, or to send with another (`with`). */
export function markRedeemedQuery(db: QueryCreator<Database>, reservationId: string, now: Date) {
  return db
    .updateTable('coupon_claims')
    .set({ redeemed_at: now })
    .where('reservation_id', '=', reservationId)
    .where('redeemed_at', 'is', null)
    .returning('code');
}

/**
 * Whether the renter has another trip they paid for: booked and confirmed, whatever happened next,
 * or still held with its charge settled and its deposit not yet secured (decision 052).
 */
export async function hasEarlierPaidTrip(db: Db, userId: string, exceptReservationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reservations as r')
    .select('r.id')
    .where('r.user_id', '=', userId)
    .where('r.id', '!=', exceptReservationId)
    .where((eb) =>
      eb.or([
        eb('r.status', 'in', ['Pending', 'On Rent', 'Returned']),
        eb('r.confirmed_at', 'is not', null),
        eb.and([
          eb('r.status', '=', 'Started'),
          eb.exists(
            eb
              .selectFrom('transactions as t')
              .select('t.id')
              .whereRef('t.reservation_id', '=', 'r.id')
              .where('t.category', '!=', 'Deposit')
              .where('t.status', '=', 'Successful'),
          ),
        ]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
