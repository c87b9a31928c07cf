import type { Transaction } from 'kysely';
import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { netTotalCents } from '@ampere/domain/line-items';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { claimAtPayment } from '../discounts/service.ts';
import * as trips from './repository.ts';
import { TRIP_NOT_FOUND, getReservationForRenter } from './serializer.ts';
import { removeDiscount, syncUnderageFeeLocked, underageFeeFacts } from './line-items.ts';
import type { GatewayPaymentIntent, PaymentKind } from '../payments/gateway.ts';
import * as repo from '../payments/repository.ts';
import { type CustomerOwner, ensureCustomer } from '../payments/service.ts';
import { type Answered, type SyncDeps, makeDueRefunds, syncIntents, syncPayment } from './sync.ts';
import { type LastStatement, transact } from '../../db/transact.ts';
import { crashPoint } from '../../crash.ts';

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
 * declined card).
 *
 * A charge whose items changed is retired (decision 018): every path that changes line items
 * (add-ons, the damage waiver, a coupon, the underage fee) marks the reservation's unpaid charges
 * 'canceling' and unlinks their items in its own transaction (`retireOpenCharges`), then asks the
 * provider to cancel them (`cancelRetiredCharges`). A 'canceling' row is the outbox: one left by a
 * crash is canceled here before anything new is made. Whatever the timing, a charge settles its
 * items only if it received exactly their sum (sync.ts); otherwise it is refunded.
 */

interface Plan {
  charge: repo.PaymentRow | null;
  deposit: repo.PaymentRow | null;
  /** Charges retired and not yet canceled at the provider: canceled before a new one is made. */
  retiring: repo.PaymentRow[];
  /** Why the trip's coupon was refused and taken off (nothing was planned then). */
  couponRefused?: string;
}

/** Statuses no step of the renter's can move: "I have paid" does not read them again (syncReservationPayments). */
const SETTLED_FOR_THE_RENTER: ReadonlySet<string> = new Set(['succeeded', 'requires_capture', 'canceled']);
const isOpen = (p: { status: string }) => (repo.OPEN_STATUSES as readonly string[]).includes(p.status);
const LIVE_HOLD = (p: repo.PaymentRow) => p.kind === 'DEPOSIT_HOLD' && p.status !== 'canceled' && p.status !== 'failed';

async function plan(
  trx: Transaction<Database>,
  reservationId: string,
  provider: string,
  now: Date,
): Promise<Plan | LastStatement<Plan>> {
  // The whole row, read once under the lock: the underage fee and the coupon read it too (neither
  // changes the reservation's row before the coupon check).
  const trip = await trips.findReservationById(trx, reservationId, { lock: true });
  if (!trip?.user_id) throw new AppError('NOT_FOUND', 'No trip with that id.');
  const userId = trip.user_id;
  // The payments, the unpaid items and what the underage fee depends on: one statement after the lock.
  const first = await repo.paymentsAndPendingItems(trx, reservationId, underageFeeFacts(trx, userId, reservationId));
  // Spec 5: a payment made for a renter under 25 adds the underage fee (a birthday given after booking).
  const feeChanged = await syncUnderageFeeLocked(trx, reservationId, now, trip, first.also);
  // The coupon is claimed in the transaction that makes the charge (decision 052): one refused comes
  // off the trip here, before anything is charged, and the renter is told why.
  const couponRefused = await claimAtPayment(trx, trip, now, 'prepare');
  if (couponRefused) {
    await removeDiscount(trx, trip, now);
    return { charge: null, deposit: null, retiring: [], couponRefused };
  }
  // A fee added or canceled changed the unpaid items (and their tax): read again.
  const read = feeChanged ? await repo.paymentsAndPendingItems(trx, reservationId) : first;
  const pending = read.pending;
  let payments = read.payments;
  const byId = new Map(payments.map((p) => [p.id, p]));
  // Items under a payment in flight or done (neither open, retiring nor canceled) are not charged again.
  const settling = (paymentId: string | null) => {
    const p = paymentId ? byId.get(paymentId) : undefined;
    return p !== undefined && !isOpen(p) && p.status !== repo.CANCELING && p.status !== 'canceled';
  };
  const chargeable = pending.filter((t) => t.category !== 'Deposit' && !settling(t.payment_id));
  const amount = netTotalCents(chargeable);
  const ids = new Set(chargeable.map((t) => t.id));

  let charge: repo.PaymentRow | null = null;
  const stale: string[] = [];
  for (const p of payments.filter((p) => p.kind === 'CHARGE' && isOpen(p))) {
    const linked = pending.filter((t) => t.payment_id === p.id).map((t) => t.id);
    const same = amount > 0 && p.amount === amount && linked.length === ids.size && linked.every((id) => ids.has(id));
    if (same && !charge) charge = p;
    else stale.push(p.id);
  }
  // Items changed by a path that did not retire the charge itself: retired here, in this transaction.
  if (stale.length > 0) {
    await repo.retireCharges(trx, stale, now);
    payments = await repo.paymentsOf(trx, reservationId);
  }
  const retiring = payments.filter((p) => p.status === repo.CANCELING);
  if (retiring.length > 0) return { charge: null, deposit: null, retiring };

  const values = (kind: PaymentKind, sum: number) => ({
    reservation_id: reservationId,
    user_id: userId,
    kind,
    provider,
    amount: sum,
    capture_method: kind === 'CHARGE' ? ('automatic' as const) : ('manual' as const),
    now,
  });
  // The new payments and their items' links to them: one statement.
  const making: { values: ReturnType<typeof values>; transactionIds: string[] }[] = [];
  if (!charge && amount > 0) making.push({ values: values('CHARGE', amount), transactionIds: [...ids] });

  let deposit: repo.PaymentRow | null = null;
  const depositRow = pending.find((t) => t.category === 'Deposit');
  const hold = payments.find(LIVE_HOLD);
  if (hold) deposit = isOpen(hold) ? hold : null;
  else if (depositRow && depositRow.amount > 0)
    making.push({ values: values('DEPOSIT_HOLD', depositRow.amount), transactionIds: [depositRow.id] });
  if (making.length === 0) return { charge, deposit, retiring: [] };
  // The last statement: it goes to the server with the commit (decision 110).
  return repo.lastInsertPaymentsFor(trx, making, (made) => {
    for (const row of made) {
      if (row.kind === 'CHARGE') charge = row;
      else deposit = row;
    }
    return { charge, deposit, retiring: [] };
  });
}

/**
 * The payment's intent at the provider, made on first need; the same intent for every caller. When
 * it made one, also the row's status as read after recording it, and, given `watch`, that other
 * payment's status as the same statement read it.
 */
async function ensureIntent(
  deps: SyncDeps,
  payment: repo.PaymentRow,
  customerId: string,
  watch?: string,
): Promise<{ id: string; clientSecret: string; status?: string; watchedStatus?: string }> {
  if (payment.provider_intent_id && payment.client_secret)
    return { id: payment.provider_intent_id, clientSecret: payment.client_secret };
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
  crashPoint('payment-after-intent-created');
  // The row as recording the intent left it; read again only when another request recorded one first.
  const recorded = await repo.setIntent(deps.db, payment.id, intent, deps.clock(), watch);
  const stored = recorded ?? (await repo.findPayment(deps.db, payment.id));
  return {
    id: stored.provider_intent_id!,
    clientSecret: stored.client_secret!,
    status: stored.status,
    watchedStatus: recorded?.watched_status ?? undefined,
  };
}

/**
 * Cancels a retired charge at the provider; if it was paid meanwhile, the sync records that (and
 * refunds it: it no longer has items to settle). A row retired before its intent was made gets
 * the intent from the provider by its idempotency key first, so that a racing creator's intent
 * cannot be left open; only then is the renter's customer needed (`customerId`, or made now).
 */
async function retire(deps: SyncDeps, payment: repo.PaymentRow, customerId?: string): Promise<void> {
  const { id, answer } = await cancelAtProvider(deps, payment, customerId);
  await syncPayment(deps, payment, id, answer);
}

/** `retire` at the provider only: the intent's id, and the provider's answer when it canceled it. */
async function cancelAtProvider(
  deps: SyncDeps,
  payment: repo.PaymentRow,
  customerId?: string,
): Promise<{ id: string; answer?: GatewayPaymentIntent }> {
  const { id } =
    payment.provider_intent_id && payment.client_secret
      ? { id: payment.provider_intent_id }
      : await ensureIntent(deps, payment, customerId ?? (await ensureCustomer(deps, payment.user_id)));
  try {
    return { id, answer: await deps.gateway.cancel(id) };
  } catch (err) {
    // Already succeeded or canceled at the provider: the sync reads what it is.
    if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
    return { id };
  }
}

/**
 * After a change to a renter's line items has committed: their retired charges are canceled at the
 * provider now. A failure here loses nothing — the rows stay 'canceling' and the next payment step
 * cancels them — so it is logged, not thrown at the renter whose change went through. True when
 * there were some and they were all canceled.
 */
export async function cancelRetiredCharges(
  deps: SyncDeps,
  of: { userId: string } | { reservationId: string },
): Promise<boolean> {
  return (await cancelRetiring(deps, of)).canceled;
}

/**
 * `cancelRetiredCharges` for a renter, except that those of `reservationId` (a trip being cancelled)
 * are only canceled at the provider: they are returned, with the provider's answers, for the
 * caller to bring up to date in its own sync of that trip.
 */
export async function cancelRetiredChargesLeaving(
  deps: SyncDeps,
  userId: string,
  reservationId: string,
): Promise<Answered[]> {
  return (await cancelRetiring(deps, { userId }, reservationId)).left;
}

async function cancelRetiring(
  deps: SyncDeps,
  of: { userId: string } | { reservationId: string },
  leaveOf?: string,
): Promise<{ canceled: boolean; left: Answered[] }> {
  const retiring = await repo.retiringCharges(deps.db, of);
  const left: Answered[] = [];
  if (retiring.length === 0) return { canceled: false, left };
  try {
    for (const p of retiring) {
      const { id, answer } = await cancelAtProvider(deps, p);
      if (p.reservation_id === leaveOf) left.push({ payment: { id: p.id, provider_intent_id: id }, answer });
      else await syncPayment(deps, p, id, answer);
    }
    return { canceled: true, left };
  } catch (err) {
    deps.log?.error({ err, ...of }, 'a retired charge could not be canceled now; the next payment step cancels it');
    return { canceled: false, left };
  }
}

/** What the features that change line items call after their change has committed. */
export type CancelRetiredCharges = (userId: string) => Promise<void>;

/** A trip's payment as read before paying or confirming: enough to bring it up to date with the provider. */
interface KnownPayment {
  id: string;
  provider_intent_id: string | null;
  status: string;
  /** A refund of it is recorded and not yet made. */
  refund_due: unknown;
}

/**
 * The client secrets the browser confirms: the charge's (null when nothing is owed) and the
 * deposit hold's (null when the deposit is already secured or there is none); null altogether when
 * there is nothing to confirm. `read` is the trip's payments and the renter, as read just before
 * (each read here when not given).
 */
export async function preparePayments(
  deps: SyncDeps,
  userId: string,
  reservationId: string,
  read: { payments?: readonly KnownPayment[]; owner?: CustomerOwner } = {},
): Promise<PaymentSecrets | null> {
  const known = read.payments ?? (await repo.paymentsWithRefundsDue(deps.db, reservationId));
  // An intent confirmed a moment ago, whose webhook has not come yet, must not be offered again.
  const open = known.filter((p) => p.provider_intent_id && (isOpen(p) || p.status === repo.CANCELING));
  if (open.length > 0) await syncIntents(deps, reservationId, open);
  // A refund the sync records is made by the sync itself; one left due before is made here.
  if (known.some((p) => p.refund_due)) await makeDueRefunds(deps, reservationId);
  const customerId = await ensureCustomer(deps, userId, read.owner);
  for (let attempt = 0; attempt < 5; attempt++) {
    const planned = await transact(deps.db, (trx) => plan(trx, reservationId, deps.gateway.kind, deps.clock()));
    if (planned.couponRefused) {
      await cancelRetiredCharges(deps, { reservationId });
      throw new AppError(
        'CONFLICT',
        `${planned.couponRefused} It has been taken off this trip: check the new total, then pay again.`,
      );
    }
    if (planned.retiring.length > 0) {
      for (const p of planned.retiring) await retire(deps, p, customerId);
      continue;
    }
    const charge = planned.charge ? await ensureIntent(deps, planned.charge, customerId) : null;
    const deposit = planned.deposit ? await ensureIntent(deps, planned.deposit, customerId, planned.charge?.id) : null;
    // The items changed while the intent was being made: the charge was retired; plan again. The
    // charge's row as `ensureIntent` read it is as fresh when no deposit intent was made after it,
    // and when one was, the statement recording the deposit's intent read the charge's status.
    const chargeStatus = !planned.charge
      ? undefined
      : deposit?.watchedStatus !== undefined
        ? deposit.watchedStatus
        : charge?.status === undefined || deposit?.status !== undefined
          ? (await repo.findPayment(deps.db, planned.charge.id)).status
          : charge.status;
    if (chargeStatus === repo.CANCELING) continue;
    if (!charge && !deposit) return null;
    return {
      provider: deps.gateway.kind,
      publishable_key: deps.gateway.publishableKey,
      client_secret: charge?.clientSecret ?? null,
      deposit_client_secret: deposit?.clientSecret ?? null,
    };
  }
  throw new AppError('CONFLICT', 'The trip changed while the payment was being prepared. Please try again.');
}

/** The browser's "I have paid": every payment of the reservation brought up to date with the provider now, not at the webhook. */
export async function syncReservationPayments(
  deps: SyncDeps,
  reservationId: string,
  read?: readonly KnownPayment[],
): Promise<void> {
  const payments = read ?? (await repo.paymentsWithRefundsDue(deps.db, reservationId));
  // A charge that succeeded, a hold already authorised and an intent canceled wait on no step of the
  // renter's: what still happens to them (a capture, a release, a refund) is the app's own doing and
  // is recorded by it, and the provider's events bring the rest. Reading them again at every "I have
  // paid" would cost a provider call each (an extension's confirm read the trip's first charge too).
  const known = payments.filter((p) => p.provider_intent_id && !SETTLED_FOR_THE_RENTER.has(p.status));
  // A refund the sync records is made by the sync itself; one left due before is made here.
  if (known.length > 0) await syncIntents(deps, reservationId, known);
  if (payments.some((p) => p.refund_due)) await makeDueRefunds(deps, reservationId);
}

/**
 * The renter's own reservation's internal id, with its payments and the renter as the gateway
 * needs them read in the same statement; anyone else's (or an unknown id) is the reservations
 * feature's 404.
 */
async function ownReservation(
  deps: SyncDeps,
  userId: string,
  platformId: string,
): Promise<{ id: string; payments: KnownPayment[]; owner?: CustomerOwner }> {
  const rows = await trips.findRenterReservationPayments(deps.db, userId, platformId);
  if (!rows[0]) {
    await getReservationForRenter(deps.db, userId, platformId, deps.clock()); // throws its 404
    throw notFound(TRIP_NOT_FOUND, 'platform_id');
  }
  const payments = rows.flatMap(({ id, provider_intent_id, status, refund_due }) =>
    id !== null && status !== null ? [{ id, provider_intent_id, status, refund_due }] : [],
  );
  const { reservation_id, owner_id, owner_phone, owner_email, owner_customer_id } = rows[0];
  const owner =
    owner_id === null || owner_phone === null
      ? undefined
      : { id: owner_id, phone: owner_phone, email: owner_email, gateway_customer_id: owner_customer_id };
  return { id: reservation_id, payments, owner };
}

/** Spec 7, POST /api/v1/payments: the reservation and the secrets to pay it with. */
export async function payForReservation(
  deps: SyncDeps,
  userId: string,
  platformId: string,
): Promise<{ reservation: Reservation; stripe: PaymentSecrets | null }> {
  const own = await ownReservation(deps, userId, platformId);
  const stripe = await preparePayments(deps, userId, own.id, own);
  return { reservation: await getReservationForRenter(deps.db, userId, platformId, deps.clock()), stripe };
}

/** Spec 7, 'Confirm reservation after payment': the reservation as the provider's answers leave it. */
export async function confirmAfterPayment(
  deps: SyncDeps,
  userId: string,
  platformId: string,
): Promise<{ reservation: Reservation }> {
  const own = await ownReservation(deps, userId, platformId);
  await syncReservationPayments(deps, own.id, own.payments);
  return { reservation: await getReservationForRenter(deps.db, userId, platformId, deps.clock()) };
}
