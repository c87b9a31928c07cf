import type { Transaction } from 'kysely';
import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { TRIP_NOT_FOUND, getReservationForRenter } from '../reservations/serializer.ts';
import type { PaymentKind } from './gateway.ts';
import * as repo from './repository.ts';
import { ensureCustomer } from './service.ts';
import { type SyncDeps, syncPaymentIntent } from './sync.ts';
import { transact } from '../../db/transact.ts';

/**
 * Paying for a reservation (spec 7, POST /api/v1/payments): a CHARGE intent for the pending line
 * items other than the deposit, net of discounts, and on a new reservation a DEPOSIT_HOLD intent
 * (manual capture) for the deposit row. The browser confirms both with the provider.
 *
 * One charge per set of items, however often or concurrently this is called: the plan is made
 * with the reservation row locked, and a payment row is written (status 'creating', linked to its
 * items) before the provider is asked, with an idempotency key made from that row's id — so a
 * racing call finds the row and gets the same intent back from the provider. An unpaid charge for
 * exactly the same items and amount is reused (its client secret returned again, e.g. after a
 * declined card); one for other items is canceled at the provider first, then replaced.
 */

interface Plan {
  charge: repo.PaymentRow | null;
  deposit: repo.PaymentRow | null;
  /** Unpaid charges for items that have changed since: canceled before a new one is made. */
  stale: repo.PaymentRow[];
}

const isOpen = (p: repo.PaymentRow) => (repo.OPEN_STATUSES as readonly string[]).includes(p.status);
const LIVE_HOLD = (p: repo.PaymentRow) => p.kind === 'DEPOSIT_HOLD' && p.status !== 'canceled' && p.status !== 'failed';

async function plan(trx: Transaction<Database>, reservationId: string, provider: string, now: Date): Promise<Plan> {
  const reservation = await repo.lockReservation(trx, reservationId);
  if (!reservation.user_id) throw new AppError('NOT_FOUND', 'No trip with that id.');
  const payments = await repo.paymentsOf(trx, reservationId);
  const byId = new Map(payments.map((p) => [p.id, p]));
  const pending = await repo.pendingTransactions(trx, reservationId);
  // Items under a payment in flight or done (neither open nor canceled) are not charged again.
  const settling = (paymentId: string | null) => {
    const p = paymentId ? byId.get(paymentId) : undefined;
    return p !== undefined && !isOpen(p) && p.status !== 'canceled';
  };
  const chargeable = pending.filter((t) => t.category !== 'Deposit' && !settling(t.payment_id));
  const amount = chargeable.reduce((sum, t) => sum + t.amount - t.discount_amount, 0);
  const ids = new Set(chargeable.map((t) => t.id));

  let charge: repo.PaymentRow | null = null;
  const stale: repo.PaymentRow[] = [];
  for (const p of payments.filter((p) => p.kind === 'CHARGE' && isOpen(p))) {
    const linked = pending.filter((t) => t.payment_id === p.id).map((t) => t.id);
    const same = amount > 0 && p.amount === amount && linked.length === ids.size && linked.every((id) => ids.has(id));
    if (same && !charge) charge = p;
    else stale.push(p);
  }
  if (stale.length > 0) return { charge: null, deposit: null, stale };

  const insert = async (kind: PaymentKind, sum: number, rows: string[]) => {
    const payment = await repo.insertPayment(trx, {
      reservation_id: reservationId, user_id: reservation.user_id!, kind, provider, amount: sum, capture_method: kind === 'CHARGE' ? 'automatic' : 'manual', now,
    });
    await repo.linkTransactions(trx, rows, payment.id);
    return payment;
  };
  if (!charge && amount > 0) charge = await insert('CHARGE', amount, [...ids]);

  let deposit: repo.PaymentRow | null = null;
  const depositRow = pending.find((t) => t.category === 'Deposit');
  const hold = payments.find(LIVE_HOLD);
  if (hold) deposit = isOpen(hold) ? hold : null;
  else if (depositRow && depositRow.amount > 0) deposit = await insert('DEPOSIT_HOLD', depositRow.amount, [depositRow.id]);
  return { charge, deposit, stale: [] };
}

/** The payment's intent at the provider, made on first need; the same intent for every caller. */
async function ensureIntent(deps: SyncDeps, payment: repo.PaymentRow, customerId: string): Promise<{ id: string; clientSecret: string }> {
  if (payment.provider_intent_id && payment.client_secret) return { id: payment.provider_intent_id, clientSecret: payment.client_secret };
  const intent = await deps.gateway.createPaymentIntent({
    customerId,
    amount: payment.amount,
    currency: 'usd',
    captureMethod: payment.capture_method,
    // The card used is saved for the trip's later off-session charges (extensions, incidentals).
    setupFutureUsage: 'off_session',
    metadata: { reservation_id: payment.reservation_id, payment_id: payment.id, kind: payment.kind },
    idempotencyKey: `payment-${payment.id}`,
  });
  await repo.setIntent(deps.db, payment.id, intent, deps.clock());
  const stored = await repo.findPayment(deps.db, payment.id);
  return { id: stored.provider_intent_id!, clientSecret: stored.client_secret! };
}

/** Cancels an unpaid charge whose items changed; if it was paid meanwhile, records that instead. */
async function retire(deps: SyncDeps, payment: repo.PaymentRow, customerId: string): Promise<void> {
  const { id } = await ensureIntent(deps, payment, customerId);
  try {
    await deps.gateway.cancel(id);
  } catch (err) {
    // Already succeeded or canceled at the provider: the sync below records what it is.
    if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
  }
  await syncPaymentIntent(deps, id);
}

/**
 * The client secrets the browser confirms: the charge's (null when nothing is owed) and the
 * deposit hold's (null when the deposit is already secured or there is none); null altogether when
 * there is nothing to confirm.
 */
export async function preparePayments(deps: SyncDeps, userId: string, reservationId: string): Promise<PaymentSecrets | null> {
  // An intent confirmed a moment ago, whose webhook has not come yet, must not be offered again.
  for (const p of await repo.paymentsOf(deps.db, reservationId)) {
    if (p.provider_intent_id && isOpen(p)) await syncPaymentIntent(deps, p.provider_intent_id);
  }
  const customerId = await ensureCustomer(deps, userId);
  for (let attempt = 0; attempt < 5; attempt++) {
    const planned = await transact(deps.db, (trx) => plan(trx, reservationId, deps.gateway.kind, deps.clock()));
    if (planned.stale.length > 0) {
      for (const p of planned.stale) await retire(deps, p, customerId);
      continue;
    }
    const charge = planned.charge ? await ensureIntent(deps, planned.charge, customerId) : null;
    const deposit = planned.deposit ? await ensureIntent(deps, planned.deposit, customerId) : null;
    if (!charge && !deposit) return null;
    return { provider: deps.gateway.kind, publishable_key: deps.gateway.publishableKey, client_secret: charge?.clientSecret ?? null, deposit_client_secret: deposit?.clientSecret ?? null };
  }
  throw new AppError('CONFLICT', 'The trip changed while the payment was being prepared. Please try again.');
}

/** The browser's "I have paid": every payment of the reservation brought up to date with the provider now, not at the webhook. */
export async function syncReservationPayments(deps: SyncDeps, reservationId: string): Promise<void> {
  for (const p of await repo.paymentsOf(deps.db, reservationId)) {
    if (p.provider_intent_id) await syncPaymentIntent(deps, p.provider_intent_id);
  }
}

/** The renter's own reservation's internal id; anyone else's (or an unknown id) is the reservations feature's 404. */
async function ownReservationId(deps: SyncDeps, userId: string, platformId: string): Promise<string> {
  const own = await repo.findRenterReservation(deps.db, userId, platformId);
  if (!own) {
    await getReservationForRenter(deps.db, userId, platformId); // throws its 404
    throw notFound(TRIP_NOT_FOUND, 'platform_id');
  }
  return own.id;
}

/** Spec 7, POST /api/v1/payments: the reservation and the secrets to pay it with. */
export async function payForReservation(deps: SyncDeps, userId: string, platformId: string): Promise<{ reservation: Reservation; stripe: PaymentSecrets | null }> {
  const reservationId = await ownReservationId(deps, userId, platformId);
  const stripe = await preparePayments(deps, userId, reservationId);
  return { reservation: await getReservationForRenter(deps.db, userId, platformId), stripe };
}

/** Spec 7, 'Confirm reservation after payment': the reservation as the provider's answers leave it. */
export async function confirmAfterPayment(deps: SyncDeps, userId: string, platformId: string): Promise<{ reservation: Reservation }> {
  const reservationId = await ownReservationId(deps, userId, platformId);
  await syncReservationPayments(deps, reservationId);
  return { reservation: await getReservationForRenter(deps.db, userId, platformId) };
}
