import { AppError } from '../../http/errors.ts';
import { transact } from '../../db/transact.ts';
import * as holds from '../payments/holds-repository.ts';
import * as repo from '../payments/repository.ts';
import * as trips from './repository.ts';
import { ensureCustomer } from '../payments/service.ts';
import { type SyncDeps, syncPaymentIntent } from './sync.ts';

/**
 * Card networks keep an authorisation about 7 days, and Stripe cancels an uncaptured hold after
 * that (the sandbox too). A deposit hold on a trip that is still ahead or under way is renewed
 * after this many days, leaving a day's margin (decision 028).
 */
export const REAUTHORIZE_AFTER_DAYS = 6;

/**
 * The job 'reauthorize-deposit-holds' (decision 028): each live deposit hold older than
 * REAUTHORIZE_AFTER_DAYS on a Pending or On Rent trip is replaced by a new one on the same saved
 * card, placed off-session; once the new one is authorised the deposit row moves to it and the old
 * one is released. A refused card leaves the old hold to run out; the renter then secures the
 * deposit again before a key is given. Returns the trips renewed and those whose renewal failed.
 * The renter of each trip renewed is told once (`publish`, REFRESH): the receipt's authorisation
 * is the new hold's.
 */
export async function reauthorizeDepositHolds(
  deps: SyncDeps,
  publish?: (userId: string) => Promise<void>,
): Promise<{ renewed: string[]; failed: string[] }> {
  const cutoff = new Date(deps.clock().getTime() - REAUTHORIZE_AFTER_DAYS * 86_400_000);
  const due = await holds.holdsDueForRenewal(deps.db, cutoff, 50);
  const renewed: string[] = [];
  const failed: string[] = [];
  const told = new Set<string>();
  for (const hold of due) {
    try {
      if (await renew(deps, hold.id)) {
        renewed.push(hold.reservation_id);
        if (hold.user_id) told.add(hold.user_id);
      } else failed.push(hold.reservation_id);
    } catch (err) {
      deps.log?.error({ err, paymentId: hold.id }, 'a deposit hold could not be renewed now; retried at the next run');
      failed.push(hold.reservation_id);
    }
  }
  for (const userId of told) await publish?.(userId);
  return { renewed, failed };
}

/** Renews one hold; false when the card refused the new authorisation. */
async function renew(deps: SyncDeps, holdId: string): Promise<boolean> {
  const now = deps.clock();
  // The new hold's row first, under the trip's lock, so that two runs cannot both renew it.
  const planned = await transact(deps.db, async (trx) => {
    // The lock order of the payment step: the trip, then the payment.
    const { reservation_id } = await repo.findPayment(trx, holdId);
    await trips.lockReservation(trx, reservation_id);
    const current = await repo.lockPayment(trx, holdId);
    if (current.status !== 'requires_capture' || !current.payment_method_id) return null;
    // A renewal cut off earlier (a crash between its steps) is not repeated: the hold runs out, and
    // the trip asks for the deposit again (decision 028).
    if (await holds.hasRenewal(trx, reservation_id, holdId)) return null;
    const fresh = await repo.insertPayment(trx, {
      reservation_id,
      user_id: current.user_id,
      kind: 'DEPOSIT_HOLD',
      provider: deps.gateway.kind,
      amount: current.amount,
      capture_method: 'manual',
      now,
      replaces_payment_id: current.id,
    });
    return { old: current, fresh };
  });
  if (!planned) return false;
  const { old, fresh } = planned;
  const customerId = await ensureCustomer(deps, old.user_id);
  const intent = await deps.gateway.createPaymentIntent({
    customerId,
    amount: fresh.amount,
    currency: 'usd',
    captureMethod: 'manual',
    metadata: { reservation_id: fresh.reservation_id, payment_id: fresh.id, kind: 'DEPOSIT_HOLD' },
    idempotencyKey: `payment-${fresh.id}`,
  });
  await repo.setIntent(deps.db, fresh.id, intent, deps.clock());
  try {
    await deps.gateway.confirmOffSession(intent.id, old.payment_method_id!);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
    deps.log?.warn(
      { err, reservationId: old.reservation_id },
      'the card refused the renewed deposit hold; the old hold stays until it runs out',
    );
    await syncPaymentIntent(deps, intent.id);
    await deps.gateway.cancel(intent.id);
    await syncPaymentIntent(deps, intent.id);
    return false;
  }
  // Authorised: the deposit row moves to the new hold, and the old one is released.
  await transact(deps.db, async (trx) => {
    await trips.lockReservation(trx, old.reservation_id);
    await holds.moveDepositToHold(trx, old.id, fresh.id, deps.clock());
  });
  await syncPaymentIntent(deps, intent.id);
  try {
    await deps.gateway.cancel(old.provider_intent_id!);
  } catch (err) {
    // Already lapsed at the provider: the sync records what it is.
    if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
  }
  await syncPaymentIntent(deps, old.provider_intent_id!);
  return true;
}
