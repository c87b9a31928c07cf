import { DEPOSIT_REVIEW_HOURS, depositReviewEndsAt } from '@ampere/domain/charges';
import * as holds from '../payments/holds-repository.ts';
import { type SyncDeps, syncPaymentIntent } from './sync.ts';

/**
 * The deposit hold of a Returned trip, settled at the provider: captured for the fees linked to it
 * (partial capture; the rest is released by the same call), or released when there are none. Reads
 * everything from the rows, so it is safe to call again after a crash or a failed call: the
 * trip-status job retries trips whose hold is still authorised. True when our record changed.
 */
export async function settleReturnedDeposit(deps: SyncDeps, reservationId: string): Promise<boolean> {
  const hold = await holds.returnedTripHold(deps.db, reservationId);
  if (!hold?.provider_intent_id) return false;
  const amount = await holds.feesOnHold(deps.db, hold.id);
  const intent = await deps.gateway.retrievePaymentIntent(hold.provider_intent_id);
  if (intent.status === 'requires_capture') {
    if (amount > 0) await deps.gateway.capture(hold.provider_intent_id, amount);
    else await deps.gateway.cancel(hold.provider_intent_id);
  }
  return (await syncPaymentIntent(deps, hold.provider_intent_id)).changed;
}

/**
 * The job's pass (decision 092): Returned trips whose hold is still authorised once their review
 * window has ended (or whose settle by staff failed or was cut off) are settled — one partial
 * capture of everything linked to the hold, the rest released — and the settlement recorded once.
 * The renter of each trip whose deposit it settled is told (`publish`), once.
 */
export async function settleReturnedDeposits(
  deps: SyncDeps,
  publish?: (userId: string) => Promise<void>,
): Promise<void> {
  const now = deps.clock();
  const due = await holds.returnedTripsWithLiveHold(
    deps.db,
    50,
    new Date(now.getTime() - DEPOSIT_REVIEW_HOURS * 3_600_000),
  );
  const told = new Set<string>();
  for (const { reservation_id, user_id, payment_id, returned_at } of due) {
    try {
      const changed = await settleReturnedDeposit(deps, reservation_id);
      const settled = await holds.paymentStatus(deps.db, payment_id);
      if (settled.status === 'succeeded' || settled.status === 'canceled') {
        await holds.recordSettlement(deps.db, {
          payment_id,
          reservation_id,
          review_ends_at: depositReviewEndsAt(new Date(returned_at ?? now)),
          settled_at: deps.clock(),
          settled_by: null,
          settled_how: settled.status === 'succeeded' ? 'captured' : 'released',
        });
        await holds.markCollected(deps.db, payment_id, deps.clock());
      }
      if (changed && user_id) told.add(user_id);
    } catch (err) {
      deps.log?.error(
        { err, reservationId: reservation_id },
        'a returned trip’s deposit could not be settled; retried at the next run',
      );
    }
  }
  for (const userId of told) await publish?.(userId);
}
