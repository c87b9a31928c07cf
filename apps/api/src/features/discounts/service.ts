import type { Kysely, Transaction } from 'kysely';
import { paymentBalance } from '@ampere/domain/booking';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import {
  applyPercentDiscount,
  hasEarlierPaidTrip,
  lockOwnReservation,
  reservationById,
} from '../reservations/service.ts';
import * as repo from './repository.ts';
import { transact } from '../../db/transact.ts';

export interface DiscountDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** Why a code cannot be used on this trip, said to the renter (spec 8: the coupon toast shows the server's message). */
type Discount = NonNullable<Awaited<ReturnType<typeof repo.findDiscount>>>;

async function refusal(
  db: Parameters<typeof repo.paidRedemptions>[0],
  discount: Discount,
  userId: string,
  reservationId: string,
  now: Date,
  only: 'all' | 'redemptions' = 'all',
): Promise<string | null> {
  const code = discount.code;
  if (only === 'all') {
    if (!discount.active) return `The coupon code ${code} is no longer active.`;
    if (discount.starts_at && new Date(discount.starts_at).getTime() > now.getTime())
      return `The coupon code ${code} is not active yet.`;
    if (discount.ends_at && new Date(discount.ends_at).getTime() <= now.getTime())
      return `The coupon code ${code} has expired.`;
  }
  if (
    discount.max_redemptions !== null &&
    (await repo.paidRedemptions(db, code, reservationId)) >= discount.max_redemptions
  ) {
    return `The coupon code ${code} has already been used the maximum number of times.`;
  }
  if (discount.new_renters_only && (await hasEarlierPaidTrip(db, userId, reservationId)))
    return `The coupon code ${code} is only for your first trip with us.`;
  return null;
}

/**
 * Whether the code on a trip not yet paid may still be used, asked again when its payment is
 * prepared ('all' the rules) and when its charge is settled ('redemptions': the first-trip rule and
 * max_redemptions, which another trip's payment can use up meanwhile). The caller holds the
 * reservation's lock; the discount's row is locked too, so two trips paid at once with one code are
 * judged one after the other. Null when it may, else the reason, for the renter.
 */
export async function refusalAtPayment(
  trx: Transaction<Database>,
  trip: { id: string; user_id: string | null; status: string; confirmed_at: unknown; discount_code: string | null },
  now: Date,
  only: 'all' | 'redemptions',
): Promise<string | null> {
  // A trip already confirmed used its redemption when it was paid; later balances keep the code.
  if (!trip.discount_code || !trip.user_id || trip.status !== 'Started' || trip.confirmed_at) return null;
  const discount = await repo.findDiscount(trx, trip.discount_code, { lock: true });
  if (!discount) return null;
  return refusal(trx, discount, trip.user_id, trip.id, now, only);
}

/**
 * Spec 7, POST /api/v1/discounts/apply: puts a discount code on one of the renter's trips. The
 * code is read in any case; it takes its percent off each pending rental day, the tax follows,
 * and a different code replaces the one before. Applying the code already on the trip changes
 * nothing. Refusals are 422s naming `code`, with a message for the renter.
 */
export async function applyDiscount(
  deps: DiscountDeps,
  userId: string,
  input: { code: string; platform_id: string },
): Promise<Reservation> {
  const now = deps.clock();
  const code = input.code.trim().toUpperCase();
  return transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, input.platform_id);
    const discount = await repo.findDiscount(trx, code);
    if (!discount) throw unprocessable(`${code} is not a valid coupon code.`, 'code');
    if (row.discount_code === code) return reservationById(trx, row.id, now);
    const problem = await refusal(trx, discount, userId, row.id, now);
    if (problem) throw unprocessable(problem, 'code');
    const current = await reservationById(trx, row.id, now);
    if ((row.status !== 'Started' && row.status !== 'Pending') || paymentBalance(current.transactions) <= 0) {
      throw unprocessable('There is no balance left to pay on this trip, so a coupon code cannot be applied.', 'code');
    }
    await applyPercentDiscount(trx, row, code, discount.percent, now);
    return reservationById(trx, row.id, now);
  });
}
