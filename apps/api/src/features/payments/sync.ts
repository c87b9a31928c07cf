import type { Kysely, Transaction } from 'kysely';
import type { RealtimeEvent } from '@ampere/domain/realtime';
import type { Clock } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import type { GatewayPaymentIntent, PaymentGateway } from './gateway.ts';
import * as repo from './repository.ts';
import { transact } from '../../db/transact.ts';

/** Tells the renter's open pages (the realtime channel) that a payment moved. */
export type PublishRealtime = (userId: string, event: RealtimeEvent, data: Record<string, unknown>) => Promise<void> | void;

export interface SyncDeps {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  clock: Clock;
  /** Vehicle search, told when a reservation's status changes. */
  searchIndex?: { markStale(): void } | undefined;
  publish?: PublishRealtime | undefined;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void } | undefined;
}

export interface SyncResult {
  /** False when the intent is not one of ours, or the guard said it was already applied. */
  applied: boolean;
  /** Whether anything was written. */
  changed: boolean;
  reservationConfirmed: boolean;
}

type PaymentValues = Parameters<typeof repo.updatePayment>[2];

/** The payment row as the provider's current intent says it is; pure. */
export function paymentValues(payment: repo.PaymentRow, intent: GatewayPaymentIntent): PaymentValues {
  return {
    status: intent.status,
    amount_captured: intent.amount_received,
    amount_refunded: intent.amount_refunded,
    payment_method_id: intent.payment_method ?? payment.payment_method_id,
    card_last_4: intent.card?.last4 ?? payment.card_last_4,
    // The provider clears its last error when a later attempt succeeds; so do we.
    last_error: intent.last_error?.message ?? null,
  };
}

function sameValues(payment: repo.PaymentRow, next: PaymentValues): boolean {
  return (Object.keys(next) as Array<keyof PaymentValues>).every((k) => payment[k] === next[k]);
}

/** What the renter's open pages hear (spec 4: succeeded refreshes the reservation; failed and canceled are logged). */
export function realtimeEventFor(before: repo.PaymentRow, after: PaymentValues): RealtimeEvent | null {
  if (after.status !== before.status && (after.status === 'succeeded' || after.status === 'requires_capture')) return 'payment-intent-succeeded';
  if (after.status !== before.status && after.status === 'canceled') return 'payment-intent-canceled';
  if (after.last_error !== null && after.last_error !== before.last_error) return 'payment-intent-failed';
  return null;
}

/** The line items follow the payment; every statement only moves rows still in the state it expects, so a second run changes nothing. */
async function applyToTransactions(trx: Transaction<Database>, payment: repo.PaymentRow, intent: GatewayPaymentIntent, now: Date): Promise<number> {
  const last4 = intent.card?.last4 ?? payment.card_last_4;
  const fullyRefunded = intent.amount_received > 0 && intent.amount_refunded >= intent.amount_received;
  let n = 0;
  if (payment.kind === 'CHARGE') {
    if (intent.status === 'succeeded') n += await repo.settleCharge(trx, payment.id, last4);
    if (intent.status === 'canceled') n += await repo.unlinkPending(trx, payment.id);
  } else {
    if (intent.status === 'requires_capture') n += await repo.markHoldAuthorised(trx, payment.id, last4);
    if (intent.status === 'canceled') n += await repo.releaseHold(trx, payment.id, now);
    if (intent.status === 'succeeded') n += await repo.captureHold(trx, payment.id, intent.amount_received, last4, now);
  }
  if (fullyRefunded) n += await repo.markRefunded(trx, payment.id);
  return n;
}

/**
 * Brings our record of one provider intent up to date: the one function behind both the webhook
 * and the browser's confirm call. It re-reads the intent from the provider rather than trusting
 * an event's body, so events that arrive late, twice or out of order change nothing wrong; and it
 * compares before writing, so applying the same state twice changes nothing.
 *
 * In one transaction, with the reservation and the payment row locked: the payment's status,
 * amounts, card and error; its line items (a succeeded charge's become Successful; a hold's
 * deposit row stays Pending while authorised, is Canceled with released_at when released, Captured
 * when captured; fully refunded ones become Refunded); then a Started reservation whose items are
 * all paid and whose deposit is secured becomes Pending (confirmed). `guard` runs first in the
 * same transaction (the webhook records its event id there); when it returns false nothing is
 * applied. The provider is read before the transaction opens: a lock must not wait on the network.
 */
export async function syncPaymentIntent(deps: SyncDeps, providerIntentId: string, opts: { guard?: (trx: Transaction<Database>) => Promise<boolean> } = {}): Promise<SyncResult> {
  const { db, clock } = deps;
  const known = await repo.findPaymentByIntent(db, providerIntentId);
  if (!known) {
    // Not one of ours (another integration on the same account): only the guard's record is kept.
    if (opts.guard) await transact(db, (trx) => opts.guard!(trx));
    return { applied: false, changed: false, reservationConfirmed: false };
  }
  const intent = await deps.gateway.retrievePaymentIntent(providerIntentId);
  const now = clock();
  const outcome = await transact(db, async (trx) => {
    if (opts.guard && !(await opts.guard(trx))) return null;
    const reservation = await repo.lockReservation(trx, known.reservation_id);
    const payment = await repo.lockPayment(trx, known.id);
    const next = paymentValues(payment, intent);
    const paymentChanged = !sameValues(payment, next);
    if (paymentChanged) await repo.updatePayment(trx, payment.id, next, now);
    const rowsChanged = await applyToTransactions(trx, payment, intent, now);
    const confirmed = reservation.status === 'Started' && (await repo.paymentsComplete(trx, reservation.id)) && (await repo.confirmReservation(trx, reservation.id, now));
    if (payment.kind === 'CHARGE' && intent.status === 'succeeded' && rowsChanged === 0 && payment.status !== 'succeeded') {
      // Paid, yet settling nothing: its items were moved to a newer charge after it was confirmed.
      deps.log?.error({ paymentId: payment.id, intentId: intent.id, amount: intent.amount_received }, 'a charge succeeded without line items to settle; refund it');
    }
    return { payment, next, paymentChanged, rowsChanged, confirmed, reservation };
  });
  if (!outcome) return { applied: false, changed: false, reservationConfirmed: false };
  if (outcome.confirmed) deps.searchIndex?.markStale();
  const event = outcome.paymentChanged ? realtimeEventFor(outcome.payment, outcome.next) : null;
  if (event && deps.publish) {
    // Realtime is a courtesy to open pages: a failure to publish must not undo a payment.
    try {
      await deps.publish(outcome.payment.user_id, event, { platform_id: outcome.reservation.platform_id, payment_intent_id: intent.id, kind: outcome.payment.kind, status: intent.status });
    } catch (err) {
      deps.log?.warn({ err, event }, 'realtime publish failed');
    }
  }
  return { applied: true, changed: outcome.paymentChanged || outcome.rowsChanged > 0 || outcome.confirmed, reservationConfirmed: outcome.confirmed };
}
