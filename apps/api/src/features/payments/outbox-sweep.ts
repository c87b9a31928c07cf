import { cancelRetiredCharges } from './checkout.ts';
import { type SyncDeps, makeDueRefunds } from './sync.ts';

/**
 * The job 'settle-money-owed' (decision 025): the payments' own outboxes, finished when the step
 * that wrote them could not reach the provider (or stopped). Refunds recorded and not yet made —
 * a cancellation's, or a charge that arrived for items it no longer settles (a superseded charge)
 * — are made, each once (their idempotency keys); charges and deposit holds retired and not yet
 * canceled (a cancelled trip's hold is retired as its charges are) are canceled, and a charge paid
 * meanwhile is refunded by the same sync. Each trip or renter on its own:
 * one provider failure does not stop the rest.
 */
export async function settleMoneyOwed(deps: SyncDeps): Promise<{ refunds: number; retired: number }> {
  const refunds = await deps.db
    .selectFrom('payment_refunds')
    .select('reservation_id')
    .distinct()
    .where('refunded_at', 'is', null)
    .limit(100)
    .execute();
  for (const { reservation_id } of refunds) {
    try {
      await makeDueRefunds(deps, reservation_id);
    } catch (err) {
      deps.log?.error(
        { err, reservationId: reservation_id },
        'a refund we owe could not be made now; retried at the next run',
      );
    }
  }
  const retiring = await deps.db
    .selectFrom('payments')
    .select('reservation_id')
    .distinct()
    .where('status', '=', 'canceling')
    .limit(100)
    .execute();
  for (const { reservation_id } of retiring) await cancelRetiredCharges(deps, { reservationId: reservation_id });
  return { refunds: refunds.length, retired: retiring.length };
}
