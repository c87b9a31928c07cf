import {
  type AliasableExpression,
  type Compilable,
  type DeleteQueryBuilder,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type SqlBool,
  type Transaction,
  type UpdateQueryBuilder,
  sql,
} from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema.ts';
import { type LastStatement, lastStatement } from '../../db/transact.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What the gateway needs to know about a renter to make their customer. */
export function findCustomerOwner(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'phone', 'email', 'gateway_customer_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Records the renter's gateway customer unless one is recorded already, in one statement: true
 * when this one was. Of two at once, the second waits for the first's row lock and then finds the
 * id set, so the first one recorded is the renter's for good.
 */
export async function setCustomerIdIfNone(db: Db, userId: string, customerId: string): Promise<boolean> {
  const set = await db
    .updateTable('users')
    .set({ gateway_customer_id: customerId })
    .where('id', '=', userId)
    .where('gateway_customer_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return set !== undefined;
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

export const PAYMENT_COLUMNS = [
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
  'card_brand',
  'last_error',
  'created_at',
  'updated_at',
] as const;

export type PaymentRow = Awaited<ReturnType<typeof paymentsOf>>[number];

export function paymentsOf(db: Db, reservationId: string) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('reservation_id', '=', reservationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** `paymentsOf`, each row saying whether a refund of it is recorded and not yet made (`refundsDue`). */
export function paymentsWithRefundsDue(db: Db, reservationId: string) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('payment_refunds as r')
            .select('r.id')
            .whereRef('r.payment_id', '=', 'payments.id')
            .where('r.refunded_at', 'is', null),
        )
        .as('refund_due'),
    )
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

/** Several payment rows locked in one statement, in the order `paymentsOf` lists them. */
export function lockPayments(trx: Transaction<Database>, paymentIds: readonly string[]) {
  return trx
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('id', 'in', paymentIds)
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * `lockPayments`, each row with the status and amounts of the line items linked to it (what a
 * charge's settlement adds up), read in the same statement.
 */
export function lockPaymentsWithItems(trx: Transaction<Database>, paymentIds: readonly string[]) {
  return trx
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('transactions')
          .select(['transactions.status', 'transactions.amount', 'transactions.discount_amount'])
          .whereRef('transactions.payment_id', '=', 'payments.id'),
      ).as('linked_items'),
    )
    .where('id', 'in', paymentIds)
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The reservation's line items still to be paid: a statement for the caller to run, or to send with another. */
function pendingItemsQuery(db: QueryCreator<Database>, reservationId: string) {
  return (
    db
      .selectFrom('transactions')
      .select(['id', 'category', 'amount', 'discount_amount', 'payment_id'])
      .where('reservation_id', '=', reservationId)
      .where('status', '=', 'Pending')
      // A disputed charge waits for the decision (decision 091): it is not part of the balance paid now.
      .where((eb) =>
        eb.or([
          eb('charge_id', 'is', null),
          eb('charge_id', 'not in', eb.selectFrom('charges').select('id').where('status', '=', 'disputed')),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
  );
}

/**
 * `paymentsOf` and the line items still to be paid, read in one statement (one snapshot): what
 * paying plans its charge from. The trip's row is the statement's anchor, so a trip without
 * payments still answers its items. `also`, when given, is read in the same statement and answered
 * as it read (what else the plan needs to know, without a round trip of its own).
 */
export async function paymentsAndPendingItems<Also = undefined>(
  db: Db,
  reservationId: string,
  also?: AliasableExpression<Also>,
) {
  const rows = await db
    .selectFrom('reservations as r')
    .leftJoin('payments', 'payments.reservation_id', 'r.id')
    .select(PAYMENT_COLUMNS.map((c) => `payments.${c}` as const))
    .select(() => jsonArrayFrom(pendingItemsQuery(db, reservationId)).as('pending'))
    .select(() => ((also ?? sql`null`) as AliasableExpression<Also>).as('also'))
    .where('r.id', '=', reservationId)
    .orderBy('payments.created_at')
    .orderBy('payments.id')
    .execute();
  const isPayment = (row: (typeof rows)[number]): row is (typeof rows)[number] & PaymentRow => row.id !== null;
  return {
    payments: rows.filter(isPayment).map(({ pending: _, also: __, ...payment }) => payment),
    pending: rows[0]?.pending ?? [],
    also: rows[0]?.also as Also,
  };
}

interface NewPayment {
  reservation_id: string;
  user_id: string;
  kind: 'CHARGE' | 'DEPOSIT_HOLD';
  provider: string;
  amount: number;
  capture_method: 'automatic' | 'manual';
  now: Date;
  replaces_payment_id?: string;
  /** A charge after the trip on the trip's card, without the renter (decision 091). */
  off_session?: boolean;
}

export function insertPayment(trx: Transaction<Database>, values: NewPayment) {
  return insertPaymentQuery(trx, values).executeTakeFirstOrThrow();
}

function insertPaymentQuery(trx: Transaction<Database>, values: NewPayment) {
  return trx.insertInto('payments').values(newPaymentRow(values)).returning(PAYMENT_COLUMNS);
}

function newPaymentRow(values: NewPayment) {
  const { now, ...rest } = values;
  return {
    ...rest,
    provider_intent_id: null,
    client_secret: null,
    status: 'creating',
    payment_method_id: null,
    card_last_4: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * New payments of different kinds, each with its line items linked to it, in one statement (the
 * items' update joins the inserted rows), as a transaction's last statement (decision 110): `answer` is
 * given the payments' rows, in the order given. Each item is linked to the inserted row of its
 * payment's kind, so no two may share a kind.
 */
export function lastInsertPaymentsFor<T>(
  trx: Transaction<Database>,
  payments: readonly { values: NewPayment; transactionIds: readonly string[] }[],
  answer: (rows: PaymentRow[]) => T,
): LastStatement<T> {
  const kinds = payments.map((p) => p.values.kind);
  if (kinds.length === 0) throw new Error('lastInsertPaymentsFor: no payment to insert');
  if (new Set(kinds).size !== kinds.length) throw new Error('lastInsertPaymentsFor: two new payments of one kind');
  const linking = payments.filter((p) => p.transactionIds.length > 0);
  const insert = () =>
    trx
      .insertInto('payments')
      .values(payments.map((p) => newPaymentRow(p.values)))
      .returning(PAYMENT_COLUMNS);
  const query =
    linking.length === 0
      ? insert()
      : trx
          .with('payment', insert)
          .with('linked', (db) =>
            db
              .updateTable('transactions')
              .from('payment')
              .set((eb) => ({ payment_id: eb.ref('payment.id') }))
              .where((eb) =>
                eb.or(
                  linking.map((p) =>
                    eb.and([
                      eb('payment.kind', '=', p.values.kind),
                      eb('transactions.id', 'in', [...p.transactionIds]),
                    ]),
                  ),
                ),
              ),
          )
          .selectFrom('payment')
          .selectAll();
  return lastStatement(query as Compilable<PaymentRow>, (rows) =>
    answer(kinds.map((kind) => rows.find((r) => r.kind === kind)!)),
  );
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
 * same intent). A row retired meanwhile stays 'canceling'. Answers the row as it then stands, or
 * undefined when another request recorded the intent first. Given `watch`, another payment's id,
 * the row also carries that payment's status as the same statement read it (`watched_status`).
 */
export function setIntent(
  db: Db,
  paymentId: string,
  intent: { id: string; clientSecret: string; status: string },
  now: Date,
  watch?: string,
): Promise<(PaymentRow & { watched_status: string | null }) | undefined> {
  return db
    .updateTable('payments')
    .set((eb) => ({
      provider_intent_id: intent.id,
      client_secret: intent.clientSecret,
      status: eb.case().when('status', '=', 'creating').then(intent.status).else(eb.ref('status')).end(),
      updated_at: now,
    }))
    .where('id', '=', paymentId)
    .where('provider_intent_id', 'is', null)
    .returning(PAYMENT_COLUMNS)
    .returning(
      (watch === undefined
        ? sql<string | null>`null::text`
        : sql<string | null>`(select w.status from payments as w where w.id = ${watch}::uuid)`
      ).as('watched_status'),
    )
    .executeTakeFirst();
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
    /** The card's brand, as the provider last reported it (decision 091). */
    card_brand: string | null;
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

/**
 * Several payments' provider values (as `updatePayment` writes one) in one statement; one row is
 * written as `updatePayment` writes it.
 */
export async function updatePayments(
  trx: Transaction<Database>,
  changes: readonly { id: string; values: Parameters<typeof updatePayment>[2] }[],
  now: Date,
): Promise<void> {
  if (changes.length === 0) return;
  if (changes.length === 1) return updatePayment(trx, changes[0]!.id, changes[0]!.values, now);
  const rows = sql.join(
    changes.map(
      ({ id, values: v }) =>
        sql`(${id}::uuid, ${v.status}::text, ${v.amount_captured}::integer, ${v.amount_refunded}::integer, ${v.payment_method_id}::text, ${v.card_last_4}::text, ${v.card_brand}::text, ${v.last_error}::text)`,
    ),
  );
  await sql`
    update payments set
      status = v.status,
      amount_captured = v.amount_captured,
      amount_refunded = v.amount_refunded,
      payment_method_id = v.payment_method_id,
      card_last_4 = v.card_last_4,
      card_brand = v.card_brand,
      last_error = v.last_error,
      updated_at = ${now}
    from (values ${rows}) as v (id, status, amount_captured, amount_refunded, payment_method_id, card_last_4, card_brand, last_error)
    where payments.id = v.id`.execute(trx);
}

// --- Line items changed: open charges retired; mismatched charges refunded (decision 018) --------

/**
 * The reservation's line items are changing, inside the caller's transaction (which holds the
 * reservation row): every unpaid charge is retired — marked 'canceling' and its Pending items
 * unlinked — in that same transaction, so an old client secret can never settle the new items.
 * The provider is asked to cancel after commit (`cancelRetiredCharges`). The coupon claimed for
 * them (`claim`) is given back in the same statement. Returns how many.
 */
export function retireOpenCharges(
  trx: Transaction<Database>,
  reservationId: string,
  now: Date,
  claim: ClaimGivenBack,
): Promise<number> {
  return retireWhere(trx, (eb) => eb('reservation_id', '=', reservationId), now, claim);
}

/**
 * The coupon claimed for the retired charges given back (`giveBackClaim`, decision 052): two
 * statements, sent in the retirement's statement (`with`).
 */
export type ClaimGivenBack = readonly [
  DeleteQueryBuilder<Database, 'coupon_claims', { code: string }>,
  UpdateQueryBuilder<Database, 'discounts', 'discounts', { code: string }>,
];

/**
 * A trip not going ahead, inside the caller's transaction (which holds the reservation row): its
 * unpaid charges retired as `retireOpenCharges` retires them, and its deposit hold, authorised or
 * still open, marked for release ('canceling'), both in one statement; the provider cancels and
 * releases them after commit.
 */
export async function retireOpenPayments(trx: Transaction<Database>, reservationId: string, now: Date): Promise<void> {
  const retired = await trx
    .updateTable('payments')
    .set({ status: CANCELING, updated_at: now })
    .where('reservation_id', '=', reservationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'CHARGE'), eb('status', 'in', [...OPEN_STATUSES])]),
        eb.and([eb('kind', '=', 'DEPOSIT_HOLD'), eb('status', 'in', ['requires_capture', ...OPEN_STATUSES])]),
      ]),
    )
    .returning(['id', 'kind'])
    .execute();
  const charges = retired.filter((p) => p.kind === 'CHARGE').map((p) => p.id);
  if (charges.length === 0) return;
  await trx
    .updateTable('transactions')
    .set({ payment_id: null })
    .where('payment_id', 'in', charges)
    .where('status', '=', 'Pending')
    .execute();
}

/** Charges retired and not yet canceled at the provider, of one renter or one reservation. */
export function retiringCharges(db: Db, of: { userId: string } | { reservationId: string }) {
  const q = db.selectFrom('payments').select(PAYMENT_COLUMNS).where('status', '=', CANCELING);
  return ('userId' in of ? q.where('user_id', '=', of.userId) : q.where('reservation_id', '=', of.reservationId))
    .orderBy('created_at')
    .execute();
}

/** How many charges each open transaction has retired (`retireCharges`), for its after-commit step. */
const retiredIn = new WeakMap<Transaction<Database>, number>();

/**
 * How many charges `trx` has retired. None: the change it made left nothing of its own to cancel
 * at the provider, so its after-commit step need not look (a charge left 'canceling' by an earlier
 * failure is canceled by the next payment step or the outbox sweep).
 */
export const chargesRetiredIn = (trx: Transaction<Database>): number => retiredIn.get(trx) ?? 0;

/** Retires these unpaid charges (still open): 'canceling', their Pending items unlinked. */
export function retireCharges(trx: Transaction<Database>, paymentIds: readonly string[], now: Date): Promise<number> {
  if (paymentIds.length === 0) return Promise.resolve(0);
  return retireWhere(trx, (eb) => eb('id', 'in', [...paymentIds]), now);
}

/**
 * The open charges among the payments `which` picks retired, and their Pending items unlinked, in
 * one statement: the items' update reads the ids the payments' update returns. How many.
 */
async function retireWhere(
  trx: Transaction<Database>,
  which: (eb: ExpressionBuilder<Database, 'payments'>) => Expression<SqlBool>,
  now: Date,
  claim?: ClaimGivenBack,
): Promise<number> {
  // Built on the transaction, so that the statement can start with the claim's; `unlinked` reads
  // `retired` by name.
  const retiring = () =>
    trx
      .updateTable('payments')
      .set({ status: CANCELING, updated_at: now })
      .where(which)
      .where('kind', '=', 'CHARGE')
      .where('status', 'in', [...OPEN_STATUSES])
      .returning('id');
  const unlinked = () =>
    trx
      .updateTable('transactions')
      .set({ payment_id: null })
      .where(sql<boolean>`payment_id in (select id from retired)`)
      .where('status', '=', 'Pending');
  const counted = sql<number>`count(*)`.as('n');
  const row = claim
    ? await trx
        .with('claim_removed', () => claim[0])
        .with('claim_uncounted', () => claim[1])
        .with('retired', retiring)
        .with('unlinked', unlinked)
        .selectFrom('retired')
        .select(counted)
        .executeTakeFirstOrThrow()
    : await trx
        .with('retired', retiring)
        .with('unlinked', unlinked)
        .selectFrom('retired')
        .select(counted)
        .executeTakeFirstOrThrow();
  const retired = Number(row.n);
  if (retired > 0) retiredIn.set(trx, chargesRetiredIn(trx) + retired);
  return retired;
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

/**
 * Records refunds as made at the provider, each with the provider's refund id (null when the
 * provider had nothing left to refund), in one statement; one already recorded as made is left as it is.
 */
export async function markRefundsMade(
  db: Db,
  made: readonly { refundId: string; providerRefundId: string | null }[],
  now: Date,
): Promise<void> {
  if (made.length === 0) return;
  const providerRefundId = sql<string | null>`case id ${sql.join(
    made.map((m) => sql`when ${m.refundId}::uuid then ${m.providerRefundId}::text`),
    sql` `,
  )} end`;
  await db
    .updateTable('payment_refunds')
    .set({ provider_refund_id: providerRefundId, refunded_at: now })
    .where(
      'id',
      'in',
      made.map((m) => m.refundId),
    )
    .where('refunded_at', 'is', null)
    .execute();
}

/**
 * Every succeeded charge of a trip is to be refunded all it kept (what it took less what it gave
 * back), recorded once per payment as `insertRefund` records one, in one statement. Returns what
 * is due back in all, a charge recorded before included.
 */
export async function recordRefundsInFull(
  trx: Transaction<Database>,
  reservationId: string,
  reason: string,
  now: Date,
): Promise<number> {
  const row = await trx
    .with('due', (db) =>
      db
        .selectFrom('payments')
        .select(['id', 'reservation_id', sql<number>`amount_captured - amount_refunded`.as('amount')])
        .where('reservation_id', '=', reservationId)
        .where('kind', '=', 'CHARGE')
        .where('status', '=', 'succeeded')
        .whereRef('amount_captured', '>', 'amount_refunded'),
    )
    .with('recorded', (db) =>
      db
        .insertInto('payment_refunds')
        .columns(['payment_id', 'reservation_id', 'amount', 'reason', 'created_at'])
        .expression((eb) =>
          eb.selectFrom('due').select([
            'id',
            'reservation_id',
            'amount',
            // Typed here: a parameter in a select list would be read as text.
            sql<string>`${reason}::text`.as('reason'),
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ]),
        )
        .onConflict((oc) => oc.column('payment_id').doNothing()),
    )
    .selectFrom('due')
    .select(sql<number>`coalesce(sum(amount), 0)::integer`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Trips with refunds recorded and not yet made at the provider, with their renters (at most `limit`). */
export function tripsWithRefundsDue(db: Db, limit: number) {
  return db
    .selectFrom('payment_refunds as f')
    .innerJoin('reservations as r', 'r.id', 'f.reservation_id')
    .select(['f.reservation_id', 'r.user_id'])
    .distinct()
    .where('f.refunded_at', 'is', null)
    .limit(limit)
    .execute();
}

/** Trips with payments retired ('canceling') and not yet canceled at the provider, with their renters (at most `limit`). */
export function tripsWithRetiringPayments(db: Db, limit: number) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.reservation_id', 'r.user_id'])
    .distinct()
    .where('p.status', '=', CANCELING)
    .limit(limit)
    .execute();
}
