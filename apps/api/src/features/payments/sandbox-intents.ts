import type { Kysely, QueryCreator, Transaction } from 'kysely';
import { PROVIDER_MINIMUM_CHARGE_CENTS } from '@ampere/domain/money';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type {
  CreatePaymentIntentParams,
  GatewayPaymentIntent,
  GatewayPaymentIntentRef,
  PaymentIntentStatus,
} from './gateway.ts';
import {
  type AcceptedCard,
  CARD_MESSAGES,
  type CardBehaviour,
  type CardError,
  type CardInput,
  brandName,
  evaluateCardForSetup,
} from './sandbox-cards.ts';
import { SandboxApiError } from './sandbox-errors.ts';
import {
  type SandboxEventType,
  type SandboxIntentRow,
  chargeObject,
  deliveryDelayMs,
  eventInsert,
  intentObject,
  newId,
  randomChars,
} from './sandbox-events.ts';
import { type LastStatement, isDatabaseError, lastStatement, transact } from '../../db/transact.ts';

/**
 * The sandbox's PaymentIntents, with Stripe's states and rules: created requires_payment_method;
 * confirmed in the browser to succeeded, or to requires_capture when captured manually (a hold);
 * a refused card leaves it requires_payment_method with last_payment_error, ready for another
 * card; capture only from requires_capture, cancel from anything not yet succeeded, refunds only
 * of a succeeded intent and never more than was received. Every change writes its event to the
 * outbox in the same transaction.
 */

export interface SandboxIntentDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Told after a commit that wrote an event, and how soon it is due. */
  onEnqueued: (delayMs: number) => void;
}

/** The intent as the sandbox's browser call returns it (Stripe's PaymentIntent, trimmed). */
export interface SandboxPaymentIntentView {
  id: string;
  status: PaymentIntentStatus;
  amount: number;
  payment_method: string | null;
  last_payment_error: { code: string; decline_code: string | null; message: string } | null;
}

const CONFIRMABLE: readonly string[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const CANCELABLE: readonly string[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
];

type StoredError = { code: string; decline_code: string | null; message: string };

/** What a confirm came to: the intent's view, or the card's refusal (recorded on the intent). */
type Confirmed = { ok: true; view: SandboxPaymentIntentView } | { ok: false; error: CardError };

/** What charging 4000 0000 0000 0341 answers: it attached, but the issuer declines its charges. */
const CHARGE_DECLINED: CardError = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: CARD_MESSAGES.declined,
};

const refused = (message: string) => new AppError('UNPROCESSABLE', message);
const noSuchIntent = (id: string) => refused(`No such payment_intent: '${id}'`);

function view(row: SandboxIntentRow): SandboxPaymentIntentView {
  return {
    id: row.id,
    status: row.status as PaymentIntentStatus,
    amount: row.amount,
    payment_method: row.payment_method_id,
    last_payment_error: (row.last_error as StoredError | null) ?? null,
  };
}

/** An event for the outbox, as a statement to send with the change it reports (`with`). */
type Emit = (
  db: QueryCreator<Database>,
  type: SandboxEventType,
  object: object,
) => ReturnType<typeof eventInsert>['query'];

/**
 * Runs one state change and its event in a transaction, then tells the deliverer. The work may end
 * with its last statement (`updateReporting`'s), which goes to the server with the commit.
 */
async function change<T>(
  deps: SandboxIntentDeps,
  work: (trx: Transaction<Database>, emit: Emit) => Promise<T | LastStatement<T>>,
): Promise<T> {
  const delays: number[] = [];
  const result = await transact(deps.db, (trx) => {
    // A retried transaction enqueues its events again: only the committed attempt's delays count.
    delays.length = 0;
    return work(trx, (db, type, object) => {
      const delay = deliveryDelayMs();
      delays.push(delay);
      return eventInsert(db, deps.clock(), type, object, delay).query;
    });
  });
  for (const d of delays) deps.onEnqueued(d);
  return result;
}

async function lockById(trx: Transaction<Database>, id: string): Promise<SandboxIntentRow> {
  const row = await trx
    .selectFrom('sandbox_payment_intents')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw noSuchIntent(id);
  return row;
}

type IntentChange = Partial<Omit<SandboxIntentRow, 'last_error' | 'metadata'>> & { last_error?: string | null };

/**
 * A locked intent's update and the event that reports it, in one statement: the transaction's last
 * (decision 110), answering the row the update returned. The event shows the intent as the update
 * leaves it, worked out from the locked row and the values set: the lock keeps anything else from
 * moving it in between.
 */
function updateReporting(
  trx: Transaction<Database>,
  emit: Emit,
  intent: SandboxIntentRow,
  values: IntentChange,
  now: Date,
  type: SandboxEventType,
): LastStatement<SandboxIntentRow> {
  const lastError =
    values.last_error === undefined ? intent.last_error : values.last_error && JSON.parse(values.last_error);
  const after: SandboxIntentRow = { ...intent, ...values, last_error: lastError, updated_at: now };
  const query = trx
    .with('event', (db) => emit(db, type, intentObject(after)))
    .updateTable('sandbox_payment_intents')
    .set({ ...values, updated_at: now })
    .where('id', '=', intent.id)
    .returningAll();
  return lastStatement(query, ([row]) => {
    if (!row) throw new Error(`The locked intent ${intent.id} was not updated.`);
    return row;
  });
}

/** A card that passed the test-card rules, stored as a payment method of `customerId` (or of none); its new id. */
export async function insertCard(
  trx: Transaction<Database>,
  card: { brand: string; last4: string; exp_month: number; exp_year: number; behaviour: string },
  customerId: string | null,
  now: Date,
): Promise<string> {
  const id = newId('pm');
  const { brand, last4, exp_month, exp_year, behaviour } = card;
  await trx
    .insertInto('sandbox_payment_methods')
    .values({
      id,
      customer_id: customerId,
      brand,
      last4,
      exp_month,
      exp_year,
      behaviour,
      created_at: now,
      detached_at: null,
    })
    .execute();
  return id;
}

/** A locked intent canceled, with its event: nothing left to capture (a hold falls off the card). */
function cancelLocked(trx: Transaction<Database>, emit: Emit, intent: SandboxIntentRow, now: Date) {
  const values = { status: 'canceled', amount_capturable: 0 };
  return updateReporting(trx, emit, intent, values, now, 'payment_intent.canceled');
}

export async function createIntent(
  deps: SandboxIntentDeps,
  params: CreatePaymentIntentParams,
): Promise<GatewayPaymentIntentRef> {
  if (!Number.isInteger(params.amount) || params.amount < PROVIDER_MINIMUM_CHARGE_CENTS)
    throw refused('Amount must be at least $0.50 usd');
  const id = newId('pi');
  const now = deps.clock();
  // No read of the customer first: the intent's foreign key refuses one that does not exist.
  const inserted = await deps.db
    .insertInto('sandbox_payment_intents')
    .values({
      id,
      client_secret: `${id}_secret_${randomChars(25)}`,
      customer_id: params.customerId,
      amount: params.amount,
      currency: params.currency,
      capture_method: params.captureMethod,
      status: 'requires_payment_method',
      payment_method_id: null,
      setup_future_usage: params.setupFutureUsage ?? null,
      last_error: null,
      metadata: JSON.stringify(params.metadata),
      idempotency_key: params.idempotencyKey,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(['id', 'client_secret', 'status'])
    .executeTakeFirst()
    .catch((err: unknown) => {
      if (isDatabaseError(err, '23503')) throw refused(`No such customer: '${params.customerId}'`);
      throw err;
    });
  if (inserted)
    return { id: inserted.id, clientSecret: inserted.client_secret, status: inserted.status as PaymentIntentStatus };
  // The key was used before (or by a racing call): as Stripe, answer with the first result,
  // provided the request is the same.
  const existing = await deps.db
    .selectFrom('sandbox_payment_intents')
    .selectAll()
    .where('idempotency_key', '=', params.idempotencyKey)
    .executeTakeFirstOrThrow();
  if (
    existing.amount !== params.amount ||
    existing.capture_method !== params.captureMethod ||
    existing.customer_id !== params.customerId
  ) {
    throw refused('Keys for idempotent requests can only be used with the same parameters they were first used with.');
  }
  return { id: existing.id, clientSecret: existing.client_secret, status: existing.status as PaymentIntentStatus };
}

export async function retrieveIntent(db: Kysely<Database>, id: string): Promise<GatewayPaymentIntent> {
  return viewOf(await readIntent(db, id), id);
}

async function readIntent(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('sandbox_payment_intents as pi')
    .leftJoin('sandbox_payment_methods as pm', 'pm.id', 'pi.payment_method_id')
    .selectAll('pi')
    .select(['pm.brand', 'pm.last4'])
    .where('pi.id', '=', id)
    .executeTakeFirst();
}

function viewOf(row: Awaited<ReturnType<typeof readIntent>>, id: string): GatewayPaymentIntent {
  if (!row) throw noSuchIntent(id);
  const err = row.last_error as StoredError | null;
  return {
    id: row.id,
    status: row.status as PaymentIntentStatus,
    amount: row.amount,
    amount_capturable: row.amount_capturable,
    amount_received: row.amount_received,
    amount_refunded: row.amount_refunded,
    payment_method: row.payment_method_id,
    card: row.last4 ? { brand: brandName(row.brand), last4: row.last4 } : null,
    last_error: err ? { code: err.code, decline_code: err.decline_code, message: err.message } : null,
    metadata: (row.metadata ?? {}) as Record<string, string>,
  };
}

export interface ConfirmSource {
  /** A card saved to the intent's customer. */
  payment_method?: string | undefined;
  /** A new card, checked with the same test-card rules as saving one. */
  card?: CardInput | undefined;
}

type Resolved =
  | { ok: true; paymentMethodId: string | null; newCard: AcceptedCard | null; behaviour: CardBehaviour }
  | { ok: false; error: CardError };

function resolveSource(saved: { id: string; behaviour: string } | null, source: ConfirmSource, now: Date): Resolved {
  if (source.payment_method) {
    // A card saved to another customer is, to this one, no card at all (Stripe says the same).
    if (!saved)
      throw new SandboxApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_method',
        message: `No such PaymentMethod: '${source.payment_method}'`,
      });
    return { ok: true, paymentMethodId: saved.id, newCard: null, behaviour: saved.behaviour as CardBehaviour };
  }
  const checked = evaluateCardForSetup(source.card!, now);
  if (!checked.ok) return checked;
  return { ok: true, paymentMethodId: null, newCard: checked.card, behaviour: checked.card.behaviour };
}

/**
 * The browser's half, as Stripe.js's confirmCardPayment: with a saved card or a new one. A new
 * card is checked as when saving one (so the decline cards fail here); a card that attaches but
 * fails its charges (4000 0000 0000 0341) is declined now. A refusal leaves the intent waiting for
 * another card with last_payment_error set and sends payment_intent.payment_failed; success sends
 * payment_intent.succeeded, or amount_capturable_updated for a hold. A new card is saved to the
 * customer only when the intent asked for it (setup_future_usage) and the payment went through.
 */
export async function confirmIntent(
  deps: SandboxIntentDeps,
  clientSecret: string,
  source: ConfirmSource,
): Promise<SandboxPaymentIntentView> {
  if (Boolean(source.payment_method) === Boolean(source.card)) {
    throw new SandboxApiError(400, {
      type: 'invalid_request_error',
      code: 'parameter_missing',
      param: 'payment_method',
      message: source.card
        ? 'Pass either payment_method or card, not both.'
        : 'You must provide a payment_method (a saved card) or card (a new card) to confirm this PaymentIntent.',
    });
  }
  const now = deps.clock();
  const outcome = await change(deps, async (trx, emit): Promise<LastStatement<Confirmed>> => {
    // The intent locked, and the saved card named (when one is) read in the same statement.
    const locked = await trx
      .selectFrom('sandbox_payment_intents as pi')
      .leftJoin('sandbox_payment_methods as pm', (join) =>
        join
          .on('pm.id', '=', source.payment_method ?? '')
          .onRef('pm.customer_id', '=', 'pi.customer_id')
          .on('pm.detached_at', 'is', null),
      )
      .selectAll('pi')
      .select(['pm.id as saved_card_id', 'pm.behaviour as saved_card_behaviour'])
      .where('pi.client_secret', '=', clientSecret)
      .forUpdate('pi')
      .executeTakeFirst();
    if (!locked) throw SandboxApiError.missingBySecret('payment_intent', clientSecret);
    const { saved_card_id, saved_card_behaviour, ...intent } = locked;
    const saved = saved_card_id && saved_card_behaviour ? { id: saved_card_id, behaviour: saved_card_behaviour } : null;
    if (!CONFIRMABLE.includes(intent.status)) {
      throw new SandboxApiError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          intent.status === 'succeeded'
            ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
            : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.`,
      });
    }
    const resolved = resolveSource(saved, source, now);
    if (!resolved.ok || resolved.behaviour === 'charge_fails') {
      const error = resolved.ok ? CHARGE_DECLINED : resolved.error;
      const stored: StoredError = { code: error.code, decline_code: error.decline_code, message: error.message };
      return updateReporting(
        trx,
        emit,
        intent,
        { status: 'requires_payment_method', payment_method_id: null, last_error: JSON.stringify(stored) },
        now,
        'payment_intent.payment_failed',
      ).map((): Confirmed => ({ ok: false, error }));
    }
    let paymentMethodId = resolved.paymentMethodId;
    if (resolved.newCard) {
      // Saved for later off-session charges only when asked; otherwise it belongs to no customer.
      const customerId = intent.setup_future_usage ? intent.customer_id : null;
      paymentMethodId = await insertCard(trx, resolved.newCard, customerId, now);
    }
    const hold = intent.capture_method === 'manual';
    return updateReporting(
      trx,
      emit,
      intent,
      hold
        ? {
            status: 'requires_capture',
            payment_method_id: paymentMethodId,
            amount_capturable: intent.amount,
            last_error: null,
          }
        : {
            status: 'succeeded',
            payment_method_id: paymentMethodId,
            amount_received: intent.amount,
            last_error: null,
          },
      now,
      hold ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded',
    ).map((row): Confirmed => ({ ok: true, view: view(row) }));
  });
  // The refusal is recorded on the intent (committed above) before the browser hears of it.
  if (!outcome.ok) throw SandboxApiError.card(outcome.error);
  return outcome.view;
}

/** Card networks keep an authorisation this long; Stripe cancels an uncaptured PaymentIntent after it. */
export const AUTHORIZATION_DAYS = 7;

/**
 * As Stripe does, an authorisation not captured within AUTHORIZATION_DAYS is canceled (the hold falls
 * off the card), with its payment_intent.canceled event. Applied when the intent is next touched.
 */
export async function lapseExpiredAuthorization(deps: SandboxIntentDeps, id: string): Promise<void> {
  const cutoff = new Date(deps.clock().getTime() - AUTHORIZATION_DAYS * 86_400_000);
  const due = await deps.db
    .selectFrom('sandbox_payment_intents')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'requires_capture')
    .where('updated_at', '<=', cutoff)
    .executeTakeFirst();
  if (due) await lapse(deps, id, cutoff);
}

/** A retrieve: the intent as it is, its authorisation lapsed first when due. One read when nothing is due (decision 064). */
export async function retrieveLapsingIntent(deps: SandboxIntentDeps, id: string): Promise<GatewayPaymentIntent> {
  const row = await readIntent(deps.db, id);
  const cutoff = new Date(deps.clock().getTime() - AUTHORIZATION_DAYS * 86_400_000);
  if (row?.status !== 'requires_capture' || new Date(row.updated_at).getTime() > cutoff.getTime())
    return viewOf(row, id);
  await lapse(deps, id, cutoff);
  return retrieveIntent(deps.db, id);
}

async function lapse(deps: SandboxIntentDeps, id: string, cutoff: Date): Promise<void> {
  await change(deps, async (trx, emit) => {
    const intent = await lockById(trx, id);
    if (intent.status !== 'requires_capture' || intent.updated_at.getTime() > cutoff.getTime()) return null;
    return cancelLocked(trx, emit, intent, deps.clock());
  });
}

export async function captureIntent(
  deps: SandboxIntentDeps,
  id: string,
  amount?: number,
): Promise<GatewayPaymentIntent> {
  await lapseExpiredAuthorization(deps, id);
  await change(deps, async (trx, emit) => {
    const intent = await lockById(trx, id);
    if (intent.status !== 'requires_capture') {
      throw refused(
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      );
    }
    const toCapture = amount ?? intent.amount_capturable;
    if (!Number.isInteger(toCapture) || toCapture < 1 || toCapture > intent.amount_capturable) {
      throw refused(`The amount to capture must be between 1 and the capturable amount (${intent.amount_capturable}).`);
    }
    // The rest of the hold is released, as Stripe does on a partial capture.
    return updateReporting(
      trx,
      emit,
      intent,
      { status: 'succeeded', amount_received: toCapture, amount_capturable: 0 },
      deps.clock(),
      'payment_intent.succeeded',
    );
  });
  return retrieveIntent(deps.db, id);
}

export async function cancelIntent(deps: SandboxIntentDeps, id: string): Promise<GatewayPaymentIntent> {
  await change(deps, async (trx, emit) => {
    const intent = await lockById(trx, id);
    if (!CANCELABLE.includes(intent.status)) {
      throw refused(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
      );
    }
    return cancelLocked(trx, emit, intent, deps.clock());
  });
  return retrieveIntent(deps.db, id);
}

/**
 * Refunds a succeeded intent, all that is left of it or `amount` cents. As on Stripe, a request
 * repeated with the same idempotency key answers with the first refund and refunds nothing more
 * (with other parameters it is refused).
 */
export async function refundIntent(
  deps: SandboxIntentDeps,
  id: string,
  amount?: number,
  idempotencyKey?: string,
): Promise<string> {
  return change(deps, async (trx, emit) => {
    const intent = await lockById(trx, id);
    if (idempotencyKey) {
      const earlier = await trx
        .selectFrom('sandbox_refunds')
        .select(['id', 'payment_intent_id', 'amount'])
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
      if (earlier) {
        if (earlier.payment_intent_id !== id || (amount !== undefined && amount !== earlier.amount)) {
          throw refused(
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          );
        }
        return earlier.id;
      }
    }
    if (intent.status !== 'succeeded')
      throw refused(`This PaymentIntent does not have a successful charge to refund (status ${intent.status}).`);
    const left = intent.amount_received - intent.amount_refunded;
    const toRefund = amount ?? left;
    if (left <= 0) throw refused(`Charge ch_${id.slice(3)} has already been refunded.`);
    if (!Number.isInteger(toRefund) || toRefund < 1 || toRefund > left) {
      throw refused(
        `Refund amount ($${(toRefund / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      );
    }
    const now = deps.clock();
    const refundId = newId('re');
    // The refund and its event recorded in the statement that takes it off the intent (locked above).
    const refunded = intent.amount_refunded + toRefund;
    const after: SandboxIntentRow = { ...intent, amount_refunded: refunded, updated_at: now };
    const refund = trx
      .with('event', (db) => emit(db, 'charge.refunded', chargeObject(after)))
      .with('refund', (db) =>
        db.insertInto('sandbox_refunds').values({
          id: refundId,
          payment_intent_id: id,
          amount: toRefund,
          idempotency_key: idempotencyKey ?? null,
          created_at: now,
        }),
      )
      .updateTable('sandbox_payment_intents')
      .set({ amount_refunded: refunded, updated_at: now })
      .where('id', '=', id);
    // The transaction's last statement: it carries the commit (decision 110).
    return lastStatement(refund, () => refundId);
  });
}
