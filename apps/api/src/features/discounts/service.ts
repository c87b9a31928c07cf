import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';

export type Discount = NonNullable<Awaited<ReturnType<typeof repo.findDiscount>>>;

const FIRST_TRIP_ONLY = (code: string) => `The coupon code ${code} is only for your first trip with us.`;
const USED_UP = (code: string) => `The coupon code ${code} has already been used the maximum number of times.`;

/** How a renter's code is read: any case, around spaces. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

/** A discount by its code as the renter typed it; undefined when there is none. */
export function findDiscount(db: Kysely<Database> | Transaction<Database>, code: string) {
  return repo.findDiscount(db, normalizeCode(code));
}

/** Why a code cannot be used on this trip, said to the renter (spec 8: the coupon toast shows the server's message). */
export async function couponRefusal(
  db: Kysely<Database> | Transaction<Database>,
  discount: Discount,
  userId: string,
  reservationId: string,
  now: Date,
  counts: 'with-count' | 'without-count' = 'with-count',
): Promise<string | null> {
  const code = discount.code;
  if (!discount.active) return `The coupon code ${code} is no longer active.`;
  if (discount.starts_at && new Date(discount.starts_at).getTime() > now.getTime())
    return `The coupon code ${code} is not active yet.`;
  if (discount.ends_at && new Date(discount.ends_at).getTime() <= now.getTime())
    return `The coupon code ${code} has expired.`;
  // Advisory when applying: the claim taken when paying is what enforces the count (decision 052).
  if (counts === 'with-count' && discount.max_redemptions !== null && discount.redemptions >= discount.max_redemptions)
    return USED_UP(code);
  if (discount.new_renters_only && (await repo.hasEarlierPaidTrip(db, userId, reservationId)))
    return FIRST_TRIP_ONLY(code);
  return null;
}

/**
 * The trip's code claimed for its payment (decision 052), inside the transaction that holds the
 * reservation's lock: when the payment is prepared ('prepare', every rule asked again), and when
 * a charge settles ('settle') for a trip that holds no claim (its charge was prepared before
 * claims existed, or its claim was given back meanwhile): it claims then, the first-trip rule
 * asked again. A claim held is honoured at settle: the trip was the renter's first when it was
 * taken, and no other trip can hold one. The claim is one insert that a unique index refuses
 * while the renter holds a first-trip claim on another trip, and one conditional update of the
 * code's count for max_redemptions, so two payments at once cannot both get through. Null when
 * the code may be used, else the reason, for the renter; the caller then takes the code off the
 * trip, which gives back any claim it held. A confirmed trip keeps its code (it was redeemed).
 */
export async function claimAtPayment(
  trx: Transaction<Database>,
  trip: { id: string; user_id: string | null; status: string; confirmed_at: unknown; discount_code: string | null },
  now: Date,
  stage: 'prepare' | 'settle',
): Promise<string | null> {
  if (!trip.discount_code || !trip.user_id || trip.status !== 'Started' || trip.confirmed_at) return null;
  const code = trip.discount_code;
  const held = await repo.claimOf(trx, trip.id);
  if (held?.code === code && (held.redeemed_at || stage === 'settle')) return null;
  const discount = await repo.findDiscount(trx, code);
  if (!discount) return null;
  const why =
    stage === 'prepare'
      ? await couponRefusal(trx, discount, trip.user_id, trip.id, now, 'without-count')
      : discount.new_renters_only && (await repo.hasEarlierPaidTrip(trx, trip.user_id, trip.id))
        ? FIRST_TRIP_ONLY(code)
        : null;
  if (why) return why;
  if (held?.code === code) return null;
  if (held) await repo.deleteClaim(trx, trip.id);
  const claim = { reservation_id: trip.id, code, user_id: trip.user_id, first_trip: discount.new_renters_only, now };
  if (!(await repo.insertClaim(trx, claim))) return FIRST_TRIP_ONLY(code);
  if (!(await repo.countRedemption(trx, code))) {
    await repo.deleteClaim(trx, trip.id, { counted: false });
    return USED_UP(code);
  }
  return null;
}

/**
 * The trip's claim becomes a redemption: its charge has settled (a paid trip keeps its code). A
 * statement the settling one carries (`ledger.settleCharge`), so both are one round trip.
 */
export function redeemClaim(trx: Transaction<Database>, reservationId: string, now: Date) {
  return repo.markRedeemedQuery(trx, reservationId, now);
}
