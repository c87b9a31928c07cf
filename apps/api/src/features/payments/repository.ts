import type { Kysely, Transaction } from 'kysely';
import { isBelowCardMinimum } from '@ampere/domain/end-trip';
import { netTotalCents } from '@ampere/domain/line-items';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What the gateway needs to know about a renter to make their customer. */
export function findCustomerOwner(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'phone', 'email', 'gateway_customer_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The renter's gateway customer id, locking the user row until the transaction ends. */
export function lockCustomerId(trx: Transaction<Database>, userId: string) {
  return trx
    .selectFrom('users')
    .select(['gateway_customer_id'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setCustomerId(trx: Transaction<Database>, userId: string, customerId: string): Promise<void> {
  await trx.updateTable('users').set({ gateway_customer_id: customerId }).where('id', '=', userId).execute();
}

// --- Reservation payments: our record of each provider intent and the line items it settles ---

/** Statuses of an intent still waiting for the renter to pay (ours: 'creating', before the provider has it). */
export const OPEN_STATUSES = [
  'creating',
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
] as const;
/**
 * Ours: an unpaid charge whose line items changed, to be canceled at the provider. It is set, and
 * its items unlinked, in the transaction that changed them; the provider is asked after commit,
 * and the row stays 'canceling' (the outbox) until the provider says the intent is canceled.
 */
export const CANCELING = 'canceling';
/** A hold that is authorised or was captured: the deposit is secured. */
export const SECURED_HOLD_STATUSES = ['requires_capture', 'succeeded'] as const;

const PAYMENT_COLUMNS = [
  'id',
  'reservation_id',
  'user_id',
  'kind',
  'provider',
  'provider_intent_id',
  'client_secret',
  'amount',
  'capture_method',
  'status',
  'amount_captured',
  'amount_refunded',
  'payment_method_id',
  'card_last_4',
  'last_error',
  'created_at',
  'updated_at',
] as const;

export type PaymentRow = Awaited<ReturnType<typeof paymentsOf>>[number];

/** The renter's own reservation, by its platform id. */
export function findRenterReservation(db: Db, userId: string, platformId: string) {
  return db
    .selectFrom('reservations')
    .select(['id', 'user_id', 'status', 'platform_id'])
    .where('platform_id', '=', platformId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Locks the reservation row: every change to its payments is made one at a time. */
export function lockReservation(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('reservations')
    .select(['id', 'user_id', 'status', 'platform_id'])
    .where('id', '=', reservationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function paymentsOf(db: Db, reservationId: string) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('reservation_id', '=', reservationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findPaymentByIntent(db: Db, providerIntentId: string) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('provider_intent_id', '=', providerIntentId)
    .executeTakeFirst();
}

export function findPayment(db: Db, paymentId: string) {
  return db.selectFrom('payments').select(PAYMENT_COLUMNS).where('id', '=', paymentId).executeTakeFirstOrThrow();
}

export function lockPayment(trx: Transaction<Database>, paymentId: string) {
  return trx
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('id', '=', paymentId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** The reservation's line items still to be paid. */
export function pendingTransactions(db: Db, reservationId: string) {
  return db
    .selectFrom('transactions')
    .select(['id', 'category', 'amount', 'discount_amount', 'payment_id'])
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function insertPayment(
  trx: Transaction<Database>,
  values: {
    reservation_id: string;
    user_id: string;
    kind: 'CHARGE' | 'DEPOSIT_HOLD';
    provider: string;
    amount: number;
    capture_method: 'automatic' | 'manual';
    now: Date;
    replaces_payment_id?: string;
  },
) {
  const { now, ...rest } = values;
  return trx
    .insertInto('payments')
    .values({
      ...rest,
      provider_intent_id: null,
      client_secret: null,
      status: 'creating',
      payment_method_id: null,
      card_last_4: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .returning(PAYMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function linkTransactions(
  trx: Transaction<Database>,
  transactionIds: string[],
  paymentId: string,
): Promise<void> {
  if (transactionIds.length === 0) return;
  await trx.updateTable('transactions').set({ payment_id: paymentId }).where('id', 'in', transactionIds).execute();
}

/**
 * Records the provider's intent on a row being created; the first writer's stands (they are the
 * same intent). A row retired meanwhile stays 'canceling'.
 */
export async function setIntent(
  db: Db,
  paymentId: string,
  intent: { id: string; clientSecret: string; status: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('payments')
    .set((eb) => ({
      provider_intent_id: intent.id,
      client_secret: intent.clientSecret,
      status: eb.case().when('status', '=', 'creating').then(intent.status).else(eb.ref('status')).end(),
      updated_at: now,
    }))
    .where('id', '=', paymentId)
    .where('provider_intent_id', 'is', null)
    .execute();
}

export async function updatePayment(
  trx: Transaction<Database>,
  paymentId: string,
  values: {
    status: string;
    amount_captured: number;
    amount_refunded: number;
    payment_method_id: string | null;
    card_last_4: string | null;
    last_error: string | null;
  },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('payments')
    .set({ ...values, updated_at: now })
    .where('id', '=', paymentId)
    .execute();
}

/** A succeeded charge: its pending line items are paid, each net of its discount. The count changed. */
export async function settleCharge(
  trx: Transaction<Database>,
  paymentId: string,
  cardLast4: string | null,
): Promise<number> {
  const r = await trx
    .updateTable('transactions')
    .set((eb) => ({
      status: 'Successful',
      captured_amount: eb('amount', '-', eb.ref('discount_amount')),
      card_last_4: cardLast4,
    }))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A canceled charge no longer settles its line items; they wait, unpaid, for the next one. */
export async function unlinkPending(trx: Transaction<Database>, paymentId: string): Promise<number> {
  const r = await trx
    .updateTable('transactions')
    .set({ payment_id: null })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** An authorised hold: the deposit row stays Pending (shown pending or authorised) with the card used. */
export async function markHoldAuthorised(
  trx: Transaction<Database>,
  paymentId: string,
  cardLast4: string | null,
): Promise<number> {
  const r = await trx
    .updateTable('transactions')
    .set({ card_last_4: cardLast4 })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .where((eb) => eb('card_last_4', 'is distinct from', cardLast4))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * A released hold: its deposit row is Canceled (released). Fees that were to be taken from it
 * (end-trip, decision 026) are unlinked and owed as a balance instead: nothing is lost — unless
 * the trip's whole balance is then below the provider's minimum charge, when it is waived as End
 * Trip waives it (decision 056).
 */
export async function releaseHold(trx: Transaction<Database>, paymentId: string, now: Date): Promise<number> {
  const fees = await trx
    .updateTable('transactions')
    .set({ payment_id: null, reserve_applied_payment_id: null })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .where('category', '!=', 'Deposit')
    .returning('reservation_id')
    .execute();
  const r = await trx
    .updateTable('transactions')
    .set({ status: 'Canceled', released_at: now })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .executeTakeFirst();
  if (fees[0]) await waiveBalanceBelowMinimum(trx, fees[0].reservation_id);
  return Number(r.numUpdatedRows) + fees.length;
}

/**
 * Decision 056: a trip's balance above nothing and below the minimum a card can be charged is
 * written off — each owed row settled with a discount of its whole amount — so it is neither
 * charged nor owed for ever. True when it waived something.
 */
export async function waiveBalanceBelowMinimum(trx: Transaction<Database>, reservationId: string): Promise<boolean> {
  const owed = await trx
    .selectFrom('transactions')
    .select(['id', 'category', 'amount', 'discount_amount'])
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .where('category', '!=', 'Deposit')
    .execute();
  // Only the return's fees are written off; a trip owing anything else is not a returned trip's remainder.
  if (owed.some((t) => t.category !== 'Incidental') || !isBelowCardMinimum(netTotalCents(owed))) return false;
  await trx
    .updateTable('transactions')
    .set((eb) => ({ status: 'Successful', discount_amount: eb.ref('amount'), payment_id: null }))
    .where(
      'id',
      'in',
      owed.map((t) => t.id),
    )
    .execute();
  return true;
}

/**
 * A captured hold: the deposit row is Captured with what was taken (the rest was released at the
 * same time); the fees taken from it (decision 026) are paid (Successful, their amount captured).
 * The deposit row's captured amount is the money; the fee rows say what it paid for.
 */
export async function captureHold(
  trx: Transaction<Database>,
  paymentId: string,
  captured: number,
  cardLast4: string | null,
  now: Date,
): Promise<number> {
  const fees = await trx
    .updateTable('transactions')
    .set((eb) => ({
      status: 'Successful',
      captured_amount: eb('amount', '-', eb.ref('discount_amount')),
      card_last_4: cardLast4,
    }))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .where('category', '!=', 'Deposit')
    .executeTakeFirst();
  const r = await trx
    .updateTable('transactions')
    .set({ status: 'Captured', captured_amount: captured, card_last_4: cardLast4, released_at: now })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .where('category', '=', 'Deposit')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) + Number(fees.numUpdatedRows);
}

/** A payment refunded in full: the line items it paid are Refunded. */
export async function markRefunded(trx: Transaction<Database>, paymentId: string): Promise<number> {
  const r = await trx
    .updateTable('transactions')
    .set({ status: 'Refunded' })
    .where('payment_id', '=', paymentId)
    .where('status', 'in', ['Successful', 'Captured'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Whether the reservation is fully paid and its deposit secured (when it has one). */
export async function paymentsComplete(trx: Transaction<Database>, reservationId: string): Promise<boolean> {
  const unpaid = await trx
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .where('category', '!=', 'Deposit')
    .executeTakeFirstOrThrow();
  if (Number(unpaid.n) > 0) return false;
  const deposits = await trx
    .selectFrom('transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .select(['t.status', 'p.status as payment_status'])
    .where('t.reservation_id', '=', reservationId)
    .where('t.category', '=', 'Deposit')
    .execute();
  if (deposits.length === 0) return true;
  return deposits.some(
    (d) =>
      (d.status === 'Pending' || d.status === 'Captured') &&
      (SECURED_HOLD_STATUSES as readonly string[]).includes(d.payment_status ?? ''),
  );
}

/** Started → Pending: the booking is confirmed once the provider says it is paid. */
export async function confirmReservation(
  trx: Transaction<Database>,
  reservationId: string,
  now: Date,
): Promise<boolean> {
  const r = await trx
    .updateTable('reservations')
    .set({ status: 'Pending', confirmed_at: now })
    .where('id', '=', reservationId)
    .where('status', '=', 'Started')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// --- Line items changed: open charges retired; mismatched charges refunded (decision 018) --------

/**
 * The reservation's line items are changing, inside the caller's transaction (which holds the
 * reservation row): every unpaid charge is retired — marked 'canceling' and its Pending items
 * unlinked — in that same transaction, so an old client secret can never settle the new items.
 * The provider is asked to cancel after commit (`cancelRetiredCharges`). Returns how many.
 */
export async function retireOpenCharges(trx: Transaction<Database>, reservationId: string, now: Date): Promise<number> {
  const open = await trx
    .selectFrom('payments')
    .select('id')
    .where('reservation_id', '=', reservationId)
    .where('kind', '=', 'CHARGE')
    .where('status', 'in', [...OPEN_STATUSES])
    .execute();
  return retireCharges(
    trx,
    open.map((p) => p.id),
    now,
  );
}

/** Charges retired and not yet canceled at the provider, of one renter or one reservation. */
export function retiringCharges(db: Db, of: { userId: string } | { reservationId: string }) {
  const q = db.selectFrom('payments').select(PAYMENT_COLUMNS).where('status', '=', CANCELING);
  return ('userId' in of ? q.where('user_id', '=', of.userId) : q.where('reservation_id', '=', of.reservationId))
    .orderBy('created_at')
    .execute();
}

/** Retires these unpaid charges (still open): 'canceling', their Pending items unlinked. */
export async function retireCharges(
  trx: Transaction<Database>,
  paymentIds: readonly string[],
  now: Date,
): Promise<number> {
  if (paymentIds.length === 0) return 0;
  const retired = await trx
    .updateTable('payments')
    .set({ status: CANCELING, updated_at: now })
    .where('id', 'in', [...paymentIds])
    .where('kind', '=', 'CHARGE')
    .where('status', 'in', [...OPEN_STATUSES])
    .returning('id')
    .execute();
  if (retired.length === 0) return 0;
  await trx
    .updateTable('transactions')
    .set({ payment_id: null })
    .where(
      'payment_id',
      'in',
      retired.map((r) => r.id),
    )
    .where('status', '=', 'Pending')
    .execute();
  return retired.length;
}

/** What a charge's linked items add up to: those still to settle, and those it already settled. */
export async function linkedSums(
  trx: Transaction<Database>,
  paymentId: string,
): Promise<{ pending: number; pendingCount: number; settledCount: number }> {
  const rows = await trx
    .selectFrom('transactions')
    .select(['status', 'amount', 'discount_amount'])
    .where('payment_id', '=', paymentId)
    .execute();
  const pending = rows.filter((r) => r.status === 'Pending');
  return {
    pending: netTotalCents(pending),
    pendingCount: pending.length,
    settledCount: rows.filter((r) => r.status === 'Successful' || r.status === 'Refunded').length,
  };
}

/** Records that a payment is to be refunded (once per payment); false when it already was. */
export async function insertRefund(
  trx: Transaction<Database>,
  values: { payment_id: string; reservation_id: string; amount: number; reason: string; now: Date },
): Promise<boolean> {
  const { now, ...rest } = values;
  const r = await trx
    .insertInto('payment_refunds')
    .values({ ...rest, created_at: now, provider_refund_id: null, refunded_at: null })
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Refunds decided but not yet made at the provider, of one reservation. */
export function refundsDue(db: Db, reservationId: string) {
  return db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['r.id', 'r.payment_id', 'r.amount', 'p.provider_intent_id'])
    .where('r.reservation_id', '=', reservationId)
    .where('r.refunded_at', 'is', null)
    .orderBy('r.created_at')
    .execute();
}

export async function markRefundMade(
  db: Db,
  refundId: string,
  providerRefundId: string | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('payment_refunds')
    .set({ provider_refund_id: providerRefundId, refunded_at: now })
    .where('id', '=', refundId)
    .where('refunded_at', 'is', null)
    .execute();
}
