import * as payments from '../payments/repository.ts';
import { cancelRetiredCharges } from './checkout.ts';
import { type SyncDeps, makeDueRefunds } from './sync.ts';

/**
 * The job 'settle-money-owed' (decision 025): the payments' own outboxes, finished when the step
 * that wrote them could not reach the provider (or stopped). Refunds recorded and not yet made —
 * a cancellation's, or a charge that arrived for items it no longer settles (a superseded charge)
 * — are made, each once (their idempotency keys); charges and deposit holds retired and not yet
 * canceled are canceled, and a charge paid meanwhile is refunded by the same sync. Each trip on its
 * own: one provider failure does not stop the rest. The renter of each trip whose money it settled
 * is told once (`publish`, REFRESH): the page shows the refund or the released hold.
 */
export async function settleMoneyOwed(
  deps: SyncDeps,
  publish?: (userId: string) => Promise<void>,
): Promise<{ refunds: number; retired: number }> {
  const told = new Set<string>();
  const refunds = await payments.tripsWithRefundsDue(deps.db, 100);
  for (const { reservation_id, user_id } of refunds) {
    try {
      if ((await makeDueRefunds(deps, reservation_id)) > 0 && user_id) told.add(user_id);
    } catch (err) {
      deps.log?.error(
        { err, reservationId: reservation_id },
        'a refund we owe could not be made now; retried at the next run',
      );
    }
  }
  // A cancelled trip's deposit hold is retired as its charges are ('canceling'): released here too.
  const retiring = await payments.tripsWithRetiringPayments(deps.db, 100);
  for (const { reservation_id, user_id } of retiring) {
    if ((await cancelRetiredCharges(deps, { reservationId: reservation_id })) && user_id) told.add(user_id);
  }
  for (const userId of told) await publish?.(userId);
  return { refunds: refunds.length, retired: retiring.length };
}
