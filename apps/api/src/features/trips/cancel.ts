import type { Kysely, Transaction } from 'kysely';
import { canCancel, freeCancellationDeadline, isBeforePickup } from '@ampere/domain/booking';
import { formatInstantInZone } from '@ampere/domain/format';
import type { CancelReason } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { Clock } from '../../clock.ts';
import { type MessageRecorder, recordMoneyMoved } from '../messages/record.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError } from '../../http/errors.ts';
import { deleteClaim } from '../discounts/repository.ts';
import { revokeKeysOfReservation } from '../keys/service.ts';
import * as payments from '../payments/repository.ts';
import * as items from './line-items-repository.ts';
import * as lifecycle from './status-repository.ts';
import { reservationById } from './serializer.ts';
import { lockOwnReservation } from './service.ts';

export interface CancelDeps {
  db: Kysely<Database>;
  clock: Clock;
  searchIndex: { markStale(): void };
  /**
   * After commit: the provider cancels the retired charge and releases the deposit hold, then
   * refunds what the trip was charged; the trip's payments are brought up to date together.
   */
  releaseAndRefund: (userId: string, reservationId: string) => Promise<void>;
  log?: { error(obj: object, msg: string): void };
  /** The renter's trip messages: the refund a cancellation makes is told (decision 070). */
  messages?: MessageRecorder;
}

/**
 * POST /api/v1/reservations/{id}/cancel (spec 4 and 9: cancelling is offered, free, only until one
 * day before pickup). In one transaction, with the trip locked: the trip becomes Canceled (the car
 * is free again at once), its unpaid items are canceled and any unpaid charge retired, the deposit
 * hold is marked for release, everything it was charged is recorded as due back in full, and its
 * digital key is revoked. After commit the provider releases the hold and makes the refunds, each
 * once (decision 018's refund outbox); a provider failure then leaves them due, not lost.
 */
export async function cancelReservation(deps: CancelDeps, userId: string, platformId: string): Promise<Reservation> {
  const now = deps.clock();
  const reservationId = await transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, platformId);
    const status = row.status;
    if (status === 'Canceled') throw new AppError('CONFLICT', 'This trip is already cancelled.', 'platform_id');
    if (!isBeforePickup(status))
      throw new AppError('CONFLICT', 'A trip that has started or ended cannot be cancelled.', 'platform_id');
    if (!canCancel({ status, pickup_at: row.pickup_at, timezone: row.timezone }, now)) {
      const deadline = freeCancellationDeadline(row.pickup_at, row.timezone);
      throw new AppError(
        'CONFLICT',
        `Free cancellation ended ${formatInstantInZone(deadline, row.timezone)}; this trip can no longer be cancelled.`,
        'platform_id',
      );
    }
    await closeReservation(trx, row.id, now, 'renter', deps.messages);
    return row.id;
  });
  deps.searchIndex.markStale();
  try {
    await deps.releaseAndRefund(userId, reservationId);
  } catch (err) {
    deps.log?.error({ err, reservationId }, 'a cancellation refund could not be made now; it stays due');
  }
  return reservationById(deps.db, reservationId, deps.clock());
}

/**
 * Ends a reservation that is not going ahead (cancelled by its renter, or an unpaid hold that
 * lapsed), inside the caller's transaction, which holds its row: Canceled (the car is bookable
 * again at once), unpaid items Canceled and any open charge retired, the deposit hold marked for
 * release, every succeeded charge recorded as due back in full, the key revoked. The provider acts
 * after commit (`releaseAndRefund`). `reason` is kept so the renter is told why (decision 053).
 */
export async function closeReservation(
  trx: Transaction<Database>,
  reservationId: string,
  now: Date,
  reason: CancelReason,
  messages?: MessageRecorder,
): Promise<void> {
  const { confirmed_at } = await lifecycle.markCanceled(trx, reservationId, now, reason);
  // Any open charge is retired and the deposit hold (authorised, or still open) marked for release:
  // the provider cancels and releases them after commit.
  await payments.retireOpenPayments(trx, reservationId, now);
  // Decision 052: a trip that never became a trip (a lapsed hold, an unpaid booking cancelled)
  // gives its coupon back, even one its charge redeemed (refunded below); a paid trip keeps it.
  if (confirmed_at === null) await deleteClaim(trx, reservationId, { redeemedToo: true });
  // Unpaid items end here; a deposit row on a hold is closed by the release itself (released_at).
  await items.cancelUnpaidItems(trx, reservationId);
  const refunded = await payments.recordRefundsInFull(trx, reservationId, 'cancellation', now);
  if (refunded > 0 && messages)
    await recordMoneyMoved(
      messages,
      trx,
      reservationId,
      now,
      { kind: 'refund_made', amountCents: refunded },
      'cancellation',
    );
  await revokeKeysOfReservation(trx, reservationId, now);
}
