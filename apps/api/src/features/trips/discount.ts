import { isBeforePickup, paymentBalance } from '@ampere/domain/booking';
import type { Reservation } from '@ampere/domain/contract/booking';
import { transact } from '../../db/transact.ts';
import { unprocessable } from '../../http/errors.ts';
import { couponRefusal, findDiscount, normalizeCode } from '../discounts/service.ts';
import { type LineItemDeps, applyPercentDiscount } from './line-items.ts';
import { reservationById } from './serializer.ts';
import { lockOwnReservation } from './service.ts';

/**
 * Spec 7, POST /api/v1/discounts/apply: puts a discount code on one of the renter's trips. The
 * code is read in any case; it takes its percent off each pending rental day, the tax follows,
 * and a different code replaces the one before. Applying the code already on the trip changes
 * nothing. Refusals are 422s naming `code`, with a message for the renter.
 */
export async function applyDiscount(
  deps: LineItemDeps,
  userId: string,
  input: { code: string; platform_id: string },
): Promise<Reservation> {
  const now = deps.clock();
  const code = normalizeCode(input.code);
  return transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, input.platform_id);
    const discount = await findDiscount(trx, code);
    if (!discount) throw unprocessable(`${code} is not a valid coupon code.`, 'code');
    if (row.discount_code === code) return reservationById(trx, row.id, now);
    const problem = await couponRefusal(trx, discount, userId, row.id, now);
    if (problem) throw unprocessable(problem, 'code');
    const current = await reservationById(trx, row.id, now);
    if (!isBeforePickup(row.status) || paymentBalance(current.transactions) <= 0) {
      throw unprocessable('There is no balance left to pay on this trip, so a coupon code cannot be applied.', 'code');
    }
    await applyPercentDiscount(trx, row, code, discount.percent, now);
    return reservationById(trx, row.id, now);
  });
}
