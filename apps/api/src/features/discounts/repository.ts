import type { Kysely, Transaction } from 'kysely';
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
      'new_renters_only',
    ])
    .where('code', '=', code);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Redemptions so far: trips paid for with the code (booked and confirmed, whatever happened next),
 * leaving out the trip asking. A code applied to a trip never paid does not use one up.
 */
export async function paidRedemptions(db: Db, code: string, exceptReservationId: string): Promise<number> {
  const row = await db
    .selectFrom('reservations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('discount_code', '=', code)
    .where('id', '!=', exceptReservationId)
    .where((eb) => eb.or([eb('status', 'in', ['Pending', 'On Rent', 'Returned']), eb('confirmed_at', 'is not', null)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
