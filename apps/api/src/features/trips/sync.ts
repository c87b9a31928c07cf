import type { Kysely, Transaction } from 'kysely';
import type { RealtimeEvent } from '@ampere/domain/realtime';
import type { Clock } from '../../clock.ts';
import { type MessageRecorder, recordMoneyMoved } from '../messages/record.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { claimAtPayment, redeemClaim } from '../discounts/service.ts';
import * as trips from './repository.ts';
import * as lifecycle from './status-repository.ts';
import { applyPaidDateChange } from './change-dates.ts';
import { removeDiscount } from './line-items.ts';
import type { GatewayPaymentIntent, PaymentGateway } from '../payments/gateway.ts';
import * as ledger from '../payments/ledger-repository.ts';
import * as repo from '../payments/repository.ts';
import { transact } from '../../db/transact.ts';
import { crashPoint } from '../../crash.ts';

/** Tells the renter's open pages (the realtime channel) that payments moved: one notice each, in order. */
export type PublishRealtime = (
  userId: string,
  notices: readonly { event: RealtimeEvent; data: Record<string, unknown> }[],
) => Promise<void> | void;

export interface SyncDeps {
  db: Kysely<Database>;
  gateway: PaymentGateway;
  clock: Clock;
  /** Vehicle search, told when a reservation's status changes. */
  searchIndex?: { markStale(): void } | undefined;
  publish?: PublishRealtime | undefined;
  /** Runs after a payment changed a reservation's line items (a paid, held trip may now get its key). */
  afterPayment?: ((reservationId: string) => Promise<void>) | undefined;
  /** The renter's trip messages (decision 070): the booking confirmation is recorded with the payment that confirms it. */
  messages?: MessageRecorder | undefined;
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

/** What `syncIntents` needs of a payment: which row, and which provider intent to read for it. */
type PaymentRef = Pick<repo.PaymentRow, 'id' | 'provider_intent_id'>;

/**
 * A payment the provider has just acted on (a cancel), left for the caller's own sync of the trip:
 * the provider's answer, when it gave one, is the intent as it now is and is not read again.
 */
export interface Answered {
  payment: PaymentRef;
  answer?: GatewayPaymentIntent | undefined;
}

/**
 * Rows a payment moved (not counting the moves it left waiting, counted when written), the refund
 * it newly recorded, and whether it took the trip's coupon off.
 */
interface Outcome {
  n: number;
  refund: { amount: number; itemsSum: number } | null;
  tripChanged?: boolean | undefined;
  /** It may have moved line items of the trip's other payments too (a coupon taken off, a balance waived). */
  othersMoved?: boolean | undefined;
  /** A charge that settled its items here: whether one is a charge posted after the trip. */
  paysAfterTripCharges?: boolean | undefined;
}

/** What applying one payment is told by the sync applying it with the others. */
interface ApplyContext {
  /** The charge's linked items as read with its row, or undefined when they must be read again. */
  linked: ledger.LinkedSums | undefined;
  /**
   * Moves of this payment's own line items left for the sync to write with the other payments'
   * (each payment's rows are its own, so they can wait): unlinking its Pending items, and marking
   * what it paid Refunded, in that order for each payment as when made one by one.
   */
  waiting: { unlink: string[]; refunded: string[] };
  /**
   * Writes what waits (the payments' rows, then the moves above): before any statement that reads
   * the payments, or reads or moves line items beyond one payment's own (but see a released hold).
   */
  writeWaiting: () => Promise<void>;
}

/** The payment row as the provider's current intent says it is; pure. */
export function paymentValues(payment: repo.PaymentRow, intent: GatewayPaymentIntent): PaymentValues {
  // A retired charge the provider has not canceled yet stays retired: it must not be offered again.
  const stillRetiring =
    payment.status === repo.CANCELING && (repo.OPEN_STATUSES as readonly string[]).includes(intent.status);
  return {
    status: stillRetiring ? repo.CANCELING : intent.status,
    amount_captured: intent.amount_received,
    amount_refunded: intent.amount_refunded,
    payment_method_id: intent.payment_method ?? payment.payment_method_id,
    card_last_4: intent.card?.last4 ?? payment.card_last_4,
    card_brand: intent.card?.brand ?? payment.card_brand,
    // The provider clears its last error when a later attempt succeeds; so do we.
    last_error: intent.last_error?.message ?? null,
  };
}

function sameValues(payment: repo.PaymentRow, next: PaymentValues): boolean {
  return (Object.keys(next) as Array<keyof PaymentValues>).every((k) => payment[k] === next[k]);
}

/** What the renter's open pages hear (spec 4: succeeded refreshes the reservation; failed and canceled are logged). */
export function realtimeEventFor(before: repo.PaymentRow, after: PaymentValues): RealtimeEvent | null {
  if (after.status !== before.status && (after.status === 'succeeded' || after.status === 'requires_capture'))
    return 'payment-intent-succeeded';
  if (after.status !== before.status && after.status === 'canceled') return 'payment-intent-canceled';
  if (after.last_error !== null && after.last_error !== before.last_error) return 'payment-intent-failed';
  return null;
}

/**
 * A succeeded charge settles its line items only when what the provider received is exactly what
 * they add up to (net of discounts). Otherwise — its items changed after the renter was shown the
 * amount, or were moved to a newer charge — it settles nothing: its Pending items are unlinked (the
 * next charge covers them, a move left waiting) and a refund of what it took is recorded, to be
 * made after commit. Returns the rows changed and whether a refund was newly recorded.
 */
async function settleOrRefund(
  trx: Transaction<Database>,
  payment: repo.PaymentRow,
  intent: GatewayPaymentIntent,
  last4: string | null,
  now: Date,
  trip: trips.ReservationRow | undefined,
  ctx: ApplyContext,
): Promise<Outcome> {
  let linked = ctx.linked ?? (await ledger.linkedSums(trx, payment.id));
  if (linked.settledCount > 0) {
    ctx.waiting.unlink.push(payment.id); // settled before
    return { n: 0, refund: null };
  }
  // The trip's coupon must hold its claim (decision 052; one prepared before claims existed claims
  // now), and a first-trip code is refused when another trip of the renter was paid since: then
  // it is taken off, the items no longer add up, and the charge is refunded.
  const discountProblem = trip ? await claimAtPayment(trx, trip, now, 'settle') : null;
  if (trip && discountProblem) {
    await ctx.writeWaiting();
    await removeDiscount(trx, trip, now);
    linked = await ledger.linkedSums(trx, payment.id);
  }
  const tripChanged = Boolean(trip && discountProblem);
  if (linked.pendingCount > 0 && linked.pending === intent.amount_received) {
    const settled = await ledger.settleCharge(trx, payment.id, last4, redeemClaim(trx, payment.reservation_id, now));
    return { n: settled.n, refund: null, tripChanged, paysAfterTripCharges: settled.paysAfterTripCharges };
  }
  ctx.waiting.unlink.push(payment.id);
  const left = intent.amount_received - intent.amount_refunded;
  if (left <= 0) return { n: 0, refund: null, tripChanged };
  const reason = `received ${intent.amount_received} cents for line items adding up to ${linked.pending} cents${discountProblem ? ` (${discountProblem})` : ''}`;
  const recorded = await repo.insertRefund(trx, {
    payment_id: payment.id,
    reservation_id: payment.reservation_id,
    amount: left,
    reason,
    now,
  });
  return {
    n: recorded ? 1 : 0,
    refund: recorded ? { amount: left, itemsSum: linked.pending } : null,
    tripChanged,
  };
}

/** The line items follow the payment; every statement only moves rows still in the state it expects, so a second run changes nothing. */
async function applyToTransactions(
  trx: Transaction<Database>,
  payment: repo.PaymentRow,
  intent: GatewayPaymentIntent,
  now: Date,
  trip: trips.ReservationRow | undefined,
  ctx: ApplyContext,
): Promise<Outcome> {
  const last4 = intent.card?.last4 ?? payment.card_last_4;
  const fullyRefunded = intent.amount_received > 0 && intent.amount_refunded >= intent.amount_received;
  let n = 0;
  let refund: { amount: number; itemsSum: number } | null = null;
  let tripChanged: boolean | undefined;
  let paysAfterTripCharges: boolean | undefined;
  // A released hold that waives the trip's small balance moves rows of whichever payment they were linked to.
  let othersMoved = false;
  if (payment.kind === 'CHARGE') {
    if (intent.status === 'succeeded') {
      const settled = await settleOrRefund(trx, payment, intent, last4, now, trip, ctx);
      ({ n, refund, tripChanged, paysAfterTripCharges } = settled);
    }
    if (intent.status === 'canceled') ctx.waiting.unlink.push(payment.id);
  } else {
    if (intent.status === 'requires_capture') n += await ledger.markHoldAuthorised(trx, payment.id, last4);
    if (intent.status === 'canceled') {
      // The waiting moves may stay waiting: the waive reads only Pending rows' amounts, which they
      // leave as they are, and the rows it settles are unlinked, which those moves then pass over.
      const released = await ledger.releaseHold(trx, payment.id, now);
      n += released.n;
      othersMoved = released.waived;
    }
    if (intent.status === 'succeeded')
      n += await ledger.captureHold(trx, payment.id, intent.amount_received, last4, now);
  }
  if (fullyRefunded) ctx.waiting.refunded.push(payment.id);
  return { n, refund, tripChanged, othersMoved: othersMoved || tripChanged, paysAfterTripCharges };
}

/**
 * Makes the reservation's recorded refunds at the provider (the outbox of `payment_refunds`), each
 * with an idempotency key from its row so that a retry refunds once, then records the provider's
 * answer. A refund the provider refuses because nothing is left to refund is recorded as made.
 * Returns how many were recorded as made.
 */
export async function makeDueRefunds(
  deps: SyncDeps,
  reservationId: string,
  answered: readonly Answered[] = [],
): Promise<number> {
  const made = { refunds: 0, payments: answered.map((a) => a.payment) };
  try {
    await makeEachRefund(deps, reservationId, made);
  } finally {
    // The refunded payments, and those the caller had the provider answer for, are brought up to
    // date together, once, even when a later refund failed.
    if (made.payments.length > 0)
      await syncIntents(
        deps,
        reservationId,
        made.payments,
        new Map(answered.flatMap((a) => (a.answer ? [[a.payment.id, a.answer] as const] : []))),
      );
  }
  return made.refunds;
}

/**
 * The provider's part of `makeDueRefunds`: each refund made, then those made recorded together (also
 * when a later one failed), counted in `made` with their payments. A refund made and not yet
 * recorded is made again by the next attempt under the same idempotency key: the provider answers
 * with the same refund.
 */
async function makeEachRefund(
  deps: SyncDeps,
  reservationId: string,
  made: { refunds: number; payments: PaymentRef[] },
): Promise<void> {
  const done: { refundId: string; providerRefundId: string | null; payment: PaymentRef }[] = [];
  try {
    for (const due of await repo.refundsDue(deps.db, reservationId)) {
      if (!due.provider_intent_id) continue;
      let refundId: string | null;
      try {
        refundId = await deps.gateway.refund(due.provider_intent_id, due.amount, `refund-${due.id}`);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
        const intent = await deps.gateway.retrievePaymentIntent(due.provider_intent_id);
        if (intent.amount_refunded < intent.amount_received) {
          deps.log?.error(
            { err, paymentId: due.payment_id, intentId: due.provider_intent_id },
            'the provider refused a refund we owe; it is retried at the next sync',
          );
          continue;
        }
        refundId = null;
      }
      done.push({
        refundId: due.id,
        providerRefundId: refundId,
        payment: { id: due.payment_id, provider_intent_id: due.provider_intent_id },
      });
    }
  } finally {
    if (done.length > 0) {
      await repo.markRefundsMade(deps.db, done, deps.clock());
      made.refunds += done.length;
      for (const { payment } of done) if (!made.payments.some((p) => p.id === payment.id)) made.payments.push(payment);
    }
  }
}

/**
 * Brings our record of one provider intent up to date: the one function behind the webhook, and
 * (through `syncIntents`) behind the browser's confirm call. It re-reads the intent from the
 * provider rather than trusting an event's body, so events that arrive late, twice or out of order
 * change nothing wrong; and it compares before writing, so applying the same state twice changes
 * nothing. `guard` runs first in the transaction (the webhook records its event id there); when it
 * returns false nothing is applied.
 */
export async function syncPaymentIntent(
  deps: SyncDeps,
  providerIntentId: string,
  opts: {
    guard?: (db: Kysely<Database> | Transaction<Database>) => Promise<boolean>;
    /** Our payment for the intent as the caller has just read it (null: none), when it has. */
    known?: repo.PaymentRow | null;
  } = {},
): Promise<SyncResult> {
  const known =
    opts.known === undefined ? await repo.findPaymentByIntent(deps.db, providerIntentId) : (opts.known ?? undefined);
  if (!known) {
    // Not one of ours (another integration on the same account): only the guard's record is kept.
    if (opts.guard) await opts.guard(deps.db);
    return { applied: false, changed: false, reservationConfirmed: false };
  }
  const intent = await deps.gateway.retrievePaymentIntent(providerIntentId);
  // An event about what is already applied (most are: the renter's own confirm brings the payment up
  // to date before the provider's event arrives) changes nothing. The payment's row only ever takes
  // the provider's values in applyIntents, in the one transaction that also settles its line items,
  // its dates and the trip's confirmation; so a row that already says what the provider says has
  // nothing left to follow from it, and only the event's record is written (one statement, decision 102).
  if (opts.guard && sameValues(known, paymentValues(known, intent))) {
    const recorded = await opts.guard(deps.db);
    return { applied: recorded, changed: false, reservationConfirmed: false };
  }
  return applyIntents(deps, known.reservation_id, new Map([[known.id, intent]]), opts.guard);
}

/**
 * Brings one of our payments up to date with its intent as the provider has just answered with it
 * (its answer to a cancel is the intent as it now is, as a retrieve would read it); without an
 * answer, the intent is read from the provider now. Otherwise as `syncPaymentIntent`.
 */
export async function syncPayment(
  deps: SyncDeps,
  payment: Pick<repo.PaymentRow, 'id' | 'reservation_id'>,
  intentId: string,
  answer?: GatewayPaymentIntent,
): Promise<SyncResult> {
  const intent = answer ?? (await deps.gateway.retrievePaymentIntent(intentId));
  return applyIntents(deps, payment.reservation_id, new Map([[payment.id, intent]]));
}

/**
 * Brings every given payment of one reservation up to date with the provider in ONE transaction
 * (decision 101, addendum): the provider is read first, one intent after another (an intent the
 * provider has just answered with, in `answers`, is not read again; a lock must not
 * wait on the network); then the reservation is locked once and the payments read in one
 * statement, and each payment is applied as `syncPaymentIntent` applies one; whether new dates are
 * paid and whether the trip is now confirmed is asked once, after all of them. If the provider
 * cannot be read for one payment, those read before it are applied and the error is thrown.
 */
export async function syncIntents(
  deps: SyncDeps,
  reservationId: string,
  payments: readonly PaymentRef[],
  answers: ReadonlyMap<string, GatewayPaymentIntent> = new Map(),
): Promise<SyncResult> {
  const intents = new Map<string, GatewayPaymentIntent>();
  let failure: { err: unknown } | null = null;
  for (const p of payments) {
    if (!p.provider_intent_id) continue;
    try {
      intents.set(p.id, answers.get(p.id) ?? (await deps.gateway.retrievePaymentIntent(p.provider_intent_id)));
    } catch (err) {
      failure = { err };
      break;
    }
  }
  const result =
    intents.size > 0
      ? await applyIntents(deps, reservationId, intents)
      : { applied: false, changed: false, reservationConfirmed: false };
  if (failure) throw failure.err;
  return result;
}

interface Applied {
  payment: repo.PaymentRow;
  next: PaymentValues;
  intent: GatewayPaymentIntent;
  paymentChanged: boolean;
}

/**
 * In one transaction, with the reservation and the payment rows locked: each payment's status,
 * amounts, card and error; its line items (a succeeded charge's become Successful; a hold's
 * deposit row stays Pending while authorised, is Canceled with released_at when released, Captured
 * when captured; fully refunded ones become Refunded); then a change of dates now paid becomes the
 * trip's dates, and a Started reservation whose items are all paid and whose deposit is secured
 * becomes Pending (confirmed).
 */
async function applyIntents(
  deps: SyncDeps,
  reservationId: string,
  intents: ReadonlyMap<string, GatewayPaymentIntent>,
  guard?: (trx: Transaction<Database>) => Promise<boolean>,
): Promise<SyncResult> {
  const now = deps.clock();
  const outcome = await transact(deps.db, async (trx) => {
    if (guard && !(await guard(trx))) return null;
    // What the renter's messages name comes with the locked row (one round trip less when one is told).
    const locked = deps.messages
      ? await trips.lockReservationWithMessageFacts(trx, reservationId)
      : await trips
          .findReservationById(trx, reservationId, { lock: true })
          .then((row) => row && { row, forMessage: null });
    if (!locked) throw new Error(`reservation ${reservationId} not found`);
    const reservation = locked.row;
    // Good for a message while the trip's dates are as read (the names and addresses do not move with it).
    const messageTrip = (datesMoved: boolean) => (!datesMoved && locked.forMessage) || reservation.id;
    // The row the coupon check reads; read again only after a payment took the trip's coupon off.
    let trip: trips.ReservationRow | undefined = reservation;
    const applied: Applied[] = [];
    let rowsChanged = 0;
    const refunds: { payment: repo.PaymentRow; intent: GatewayPaymentIntent; amount: number; itemsSum: number }[] = [];
    // The payments' new values, and the moves each leaves waiting on its own line items, are written
    // together: before anything reads the payments (a coupon taken off retires open charges) or
    // line items beyond one payment's own, and at the latest after the last payment.
    const unwritten: { id: string; values: PaymentValues }[] = [];
    const waiting = { unlink: [] as string[], refunded: [] as string[] };
    const writeWaiting = async () => {
      await repo.updatePayments(trx, unwritten.splice(0), now);
      rowsChanged += await ledger.unlinkAndMarkRefunded(trx, waiting.unlink.splice(0), waiting.refunded.splice(0));
    };
    // Each charge's linked items come with its locked row; they stay as read until a payment may
    // have moved other payments' items too, after which each is read again.
    let linkedAsLocked = true;
    for (const { linked_items, ...payment } of await repo.lockPaymentsWithItems(trx, [...intents.keys()])) {
      const intent = intents.get(payment.id)!;
      const next = paymentValues(payment, intent);
      const paymentChanged = !sameValues(payment, next);
      if (paymentChanged) unwritten.push({ id: payment.id, values: next });
      const done = await applyToTransactions(trx, payment, intent, now, trip, {
        linked: linkedAsLocked ? ledger.sumLinked(linked_items) : undefined,
        waiting,
        writeWaiting,
      });
      if (done.othersMoved) linkedAsLocked = false;
      if (done.tripChanged) trip = await trips.findReservationById(trx, reservationId);
      rowsChanged += done.n;
      if (done.refund) refunds.push({ payment, intent, ...done.refund });
      applied.push({ payment, next, intent, paymentChanged });
      // A later charge on a confirmed trip (new dates, fees owed) is told; the first one, by the confirmation.
      // A charge after the trip has its own message (decision 091), told by the charge itself.
      const told =
        payment.kind === 'CHARGE' &&
        payment.status !== 'succeeded' &&
        next.status === 'succeeded' &&
        !done.refund &&
        reservation.status !== 'Started' &&
        next.amount_captured > 0 &&
        deps.messages !== undefined;
      // Which items the charge pays: as it settled them here, or else read as they now are, its own
      // waiting moves written.
      if (told) await writeWaiting();
      const charged = told && !(done.paysAfterTripCharges ?? (await ledger.paysAfterTripCharges(trx, payment.id)));
      if (charged && deps.messages)
        await recordMoneyMoved(
          deps.messages,
          trx,
          messageTrip(false),
          now,
          { kind: 'charge_made', amountCents: next.amount_captured, description: "your trip's balance" },
          payment.id,
        );
    }
    await writeWaiting();
    // A change of dates whose added days are now paid becomes the trip's dates (decision 027).
    const datesChanged = await applyPaidDateChange(trx, reservation.id, now, trip);
    const confirmed =
      reservation.status === 'Started' &&
      (await ledger.paymentsComplete(trx, reservation.id)) &&
      (await lifecycle.confirmReservation(trx, reservation.id, now));
    if (confirmed) await deps.messages?.record(trx, messageTrip(datesChanged), now, { kind: 'booking_confirmed' });
    crashPoint(guard ? 'webhook-before-commit' : 'payment-sync-before-commit');
    return { applied, rowsChanged, confirmed, reservation, refunds, datesChanged };
  });
  if (!outcome) return { applied: false, changed: false, reservationConfirmed: false };
  if (outcome.refunds.length > 0) {
    for (const r of outcome.refunds)
      deps.log?.warn(
        {
          paymentId: r.payment.id,
          intentId: r.intent.id,
          reservationId: outcome.reservation.id,
          received: r.intent.amount_received,
          itemsSum: r.itemsSum,
          refund: r.amount,
        },
        'a charge succeeded for an amount other than its line items; it settles nothing and is refunded',
      );
    try {
      await makeDueRefunds(deps, outcome.reservation.id);
    } catch (err) {
      // Recorded in payment_refunds (the outbox): the reservation's next sync or payment makes it.
      deps.log?.error(
        { err, paymentIds: outcome.refunds.map((r) => r.payment.id) },
        'the refund could not be made now; it stays due',
      );
    }
  }
  if (outcome.confirmed || outcome.datesChanged) deps.searchIndex?.markStale();
  if ((outcome.confirmed || outcome.rowsChanged > 0) && deps.afterPayment) {
    try {
      await deps.afterPayment(outcome.reservation.id);
    } catch (err) {
      deps.log?.warn(
        { err, reservationId: outcome.reservation.id },
        'a follow-up to a payment failed; it is retried on the next change',
      );
    }
  }
  // The sync's notices go out together, each renter's at once (a confirm moves two payments).
  const notices = new Map<string, { event: RealtimeEvent; data: Record<string, unknown> }[]>();
  for (const a of outcome.applied) {
    const event = a.paymentChanged ? realtimeEventFor(a.payment, a.next) : null;
    if (!event) continue;
    const data = {
      platform_id: outcome.reservation.platform_id,
      payment_intent_id: a.intent.id,
      kind: a.payment.kind,
      status: a.intent.status,
    };
    notices.set(a.payment.user_id, [...(notices.get(a.payment.user_id) ?? []), { event, data }]);
  }
  const publish = deps.publish;
  for (const [userId, list] of publish ? notices : []) {
    // Realtime is a courtesy to open pages: a failure to publish must not undo a payment.
    try {
      await publish?.(userId, list);
    } catch (err) {
      deps.log?.warn({ err, event: list.map((n) => n.event).join(', ') }, 'realtime publish failed');
    }
  }
  return {
    applied: true,
    changed: outcome.applied.some((a) => a.paymentChanged) || outcome.rowsChanged > 0 || outcome.confirmed,
    reservationConfirmed: outcome.confirmed,
  };
}
