import { type Kysely, type Transaction, sql } from 'kysely';
import { type ChargeStatus, type DisputeOutcome, byChargeOrder } from '@ampere/domain/charges';
import type { FeeTypeId } from '@ampere/domain/fees';
import type { TransactionCategory } from '@ampere/domain/contract/booking';
import type { Database } from '../../db/schema.ts';
import { OPEN_STATUSES } from '../payments/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Charges, their evidence and disputes, staff refunds and deposit reviews (decisions 091–093). */

export function tripForMoney(db: Db, tripId: string) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.user_id',
      'r.status',
      'r.timezone',
      'r.pickup_location_id',
      'r.returned_at',
      'r.on_rent_at',
      'r.pickup_at',
      'l.timezone as location_timezone',
      sql<string | null>`nullif(trim(concat(u.first_name, ' ', u.last_name)), '')`.as('renter_name'),
    ])
    .where('r.id', '=', tripId)
    .executeTakeFirst();
}
export type MoneyTrip = NonNullable<Awaited<ReturnType<typeof tripForMoney>>>;

const CHARGE_COLUMNS = [
  'c.id',
  'c.reservation_id',
  'c.fee_type',
  'c.quantity',
  'c.unit_cents',
  'c.amount',
  'c.reason',
  'c.status',
  'c.posted_by',
  'c.posted_at',
  'c.administration_of',
  'c.external_reference',
  'c.occurred_at',
  'r.platform_id',
  'r.pickup_location_id',
  'r.user_id',
  'r.timezone',
  's.name as posted_by_name',
] as const;

function chargesBase(db: Db) {
  return db
    .selectFrom('charges as c')
    .innerJoin('reservations as r', 'r.id', 'c.reservation_id')
    .leftJoin('staff as s', 's.id', 'c.posted_by')
    .select(CHARGE_COLUMNS);
}
export type ChargeRow = Awaited<ReturnType<typeof chargesOfTrip>>[number];

/** A trip's charges in the order every list shows them (`byChargeOrder`: category, time posted, a charge before its fee, id). */
export async function chargesOfTrip(db: Db, tripId: string) {
  const rows = await chargesBase(db).where('c.reservation_id', '=', tripId).execute();
  return byChargeOrder(rows, (r) => ({
    id: r.id,
    type: r.fee_type,
    postedAt: r.posted_at,
    administrationOf: r.administration_of,
  }));
}

export function chargesByIds(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return chargesBase(db)
    .where('c.id', 'in', [...ids])
    .orderBy('c.posted_at')
    .orderBy('c.id')
    .execute();
}

export function lockCharge(trx: Transaction<Database>, chargeId: string) {
  return trx.selectFrom('charges').selectAll().where('id', '=', chargeId).forUpdate().executeTakeFirst();
}

export async function setChargeStatus(trx: Db, chargeIds: readonly string[], status: ChargeStatus, now: Date) {
  if (chargeIds.length === 0) return;
  await trx
    .updateTable('charges')
    .set({ status, updated_at: now })
    .where('id', 'in', [...chargeIds])
    .execute();
}

export function insertCharge(
  trx: Transaction<Database>,
  values: {
    reservation_id: string;
    fee_type: FeeTypeId;
    quantity: number;
    unit_cents: number;
    amount: number;
    reason: string;
    status: ChargeStatus;
    posted_by: string | null;
    posted_at: Date;
    administration_of?: string | null;
    external_reference?: string | null;
    occurred_at?: Date | null;
    import_key?: string | null;
  },
) {
  return trx
    .insertInto('charges')
    .values({ ...values, updated_at: values.posted_at })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Which of these import keys (a statement's row already posted) exist. */
export async function importedKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('charges')
    .select('import_key')
    .where('import_key', 'in', [...keys])
    .execute();
  return new Set(rows.map((r) => r.import_key!));
}

/** A charge's line item in the ledger. */
export function insertChargeItem(
  trx: Transaction<Database>,
  values: {
    reservation_id: string;
    charge_id: string;
    category: TransactionCategory;
    description: string;
    amount: number;
    payment_id: string | null;
    now: Date;
    date: string;
  },
) {
  return trx
    .insertInto('transactions')
    .values({
      reservation_id: values.reservation_id,
      charge_id: values.charge_id,
      category: values.category,
      status: 'Pending',
      description: values.description,
      cost: values.amount,
      amount: values.amount,
      number_of_days: null,
      effective_date: values.date,
      initiated_at: values.now,
      released_at: null,
      card_last_4: null,
      payment_id: values.payment_id,
      reserve_applied_payment_id: values.payment_id,
      addon_id: null,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The ledger rows of these charges, with the payment each is linked to. */
export function chargeItems(db: Db, chargeIds: readonly string[]) {
  if (chargeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .select([
      't.id',
      't.charge_id',
      't.status',
      't.amount',
      't.discount_amount',
      't.captured_amount',
      't.payment_id',
      't.reserve_applied_payment_id',
      't.card_last_4',
      'p.kind as payment_kind',
      'p.card_brand',
      'p.card_last_4 as payment_last4',
    ])
    .where('t.charge_id', 'in', [...chargeIds])
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
}
export type ChargeItem = Awaited<ReturnType<typeof chargeItems>>[number];

/** A charge's unpaid items not linked to any payment (owed, or waiting on a dispute). */
/**
 * Card charges after the trip made before `before` and never finished (decision 091): the row is
 * written, the provider not yet asked, or its intent not yet confirmed or settled. Oldest first.
 */
export function unfinishedCardCharges(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('payments')
    .select(['id', 'reservation_id', 'user_id', 'amount', 'provider_intent_id'])
    .where('off_session', '=', true)
    .where('kind', '=', 'CHARGE')
    .where('status', 'in', [...OPEN_STATUSES])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Charges posted (or upheld after a dispute) before `before` whose card charge was never begun: items
 * still pending with no payment at all, neither the hold nor a card's (decision 091). Oldest first.
 */
export function uncollectedCharges(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('charges as c')
    .select(['c.id', 'c.reservation_id', 'c.administration_of'])
    .where('c.status', 'in', ['posted', 'upheld'])
    .where('c.updated_at', '<', before)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('transactions as t')
          .select('t.id')
          .whereRef('t.charge_id', '=', 'c.id')
          .where('t.status', '=', 'Pending')
          .where('t.payment_id', 'is', null),
      ),
    )
    .orderBy('c.updated_at')
    .limit(limit)
    .execute();
}

/** The charges whose items a payment carries, with their state. */
export function chargesOfPayment(db: Db, paymentId: string) {
  return db
    .selectFrom('charges as c')
    .select(['c.id', 'c.status', 'c.administration_of'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('transactions as t')
          .select('t.id')
          .whereRef('t.charge_id', '=', 'c.id')
          .where('t.payment_id', '=', paymentId),
      ),
    )
    .orderBy('c.posted_at')
    .execute();
}

export function unlinkedPendingItems(trx: Db, chargeId: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'amount', 'discount_amount'])
    .where('charge_id', '=', chargeId)
    .where('status', '=', 'Pending')
    .where('payment_id', 'is', null)
    .execute();
}

/** A charge's items still waiting on the deposit hold go back to waiting on nothing (a dispute holds them). */
export async function unlinkFromHold(trx: Transaction<Database>, chargeId: string): Promise<void> {
  await trx
    .updateTable('transactions')
    .set({ payment_id: null, reserve_applied_payment_id: null })
    .where('charge_id', '=', chargeId)
    .where('status', '=', 'Pending')
    .where('payment_id', 'is not', null)
    .execute();
}

export async function linkToHold(trx: Transaction<Database>, itemIds: readonly string[], holdId: string) {
  if (itemIds.length === 0) return;
  await trx
    .updateTable('transactions')
    .set({ payment_id: holdId, reserve_applied_payment_id: holdId })
    .where('id', 'in', [...itemIds])
    .execute();
}

export async function cancelPendingItems(trx: Transaction<Database>, chargeId: string, now: Date): Promise<void> {
  await trx
    .updateTable('transactions')
    .set({ status: 'Canceled', released_at: now, payment_id: null, reserve_applied_payment_id: null })
    .where('charge_id', '=', chargeId)
    .where('status', '=', 'Pending')
    .execute();
}

/** The card the trip was paid with: the newest payment that has one. */
export function tripCard(db: Db, tripId: string) {
  return db
    .selectFrom('payments')
    .select(['payment_method_id', 'card_last_4', 'card_brand'])
    .where('reservation_id', '=', tripId)
    .where('payment_method_id', 'is not', null)
    .where('status', 'in', ['succeeded', 'requires_capture', 'canceled'])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

// ---- evidence ----

export function insertEvidence(
  db: Db,
  values: {
    reservation_id: string;
    charge_id: string | null;
    kind: 'photo' | 'document' | 'reading';
    label: string;
    reading_value?: string | null;
    storage_key?: string | null;
    content_type?: string | null;
    bytes?: number | null;
    inspection_photo_id?: string | null;
    uploaded_by: string | null;
    created_at: Date;
  },
) {
  return db
    .insertInto('charge_evidence')
    .values({
      reading_value: null,
      storage_key: null,
      content_type: null,
      bytes: null,
      inspection_photo_id: null,
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function evidenceByIds(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('charge_evidence')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export function findEvidence(db: Db, id: string) {
  return db.selectFrom('charge_evidence').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function attachEvidence(trx: Transaction<Database>, ids: readonly string[], chargeId: string) {
  if (ids.length === 0) return;
  await trx
    .updateTable('charge_evidence')
    .set({ charge_id: chargeId })
    .where('id', 'in', [...ids])
    .where('charge_id', 'is', null)
    .execute();
}

/** The evidence of these charges (an administration fee shows its charge's evidence). */
export function evidenceOfCharges(db: Db, chargeIds: readonly string[]) {
  if (chargeIds.length === 0) return Promise.resolve([]);
  return (
    db
      .selectFrom('charge_evidence')
      // An inspection photo's files are addressed by its inspection (decision 089).
      .leftJoin('inspection_photos as p', (join) =>
        join.on((eb) => eb(sql<string>`p.id::text`, '=', eb.ref('charge_evidence.inspection_photo_id'))),
      )
      .selectAll('charge_evidence')
      .select('p.inspection_id')
      .where('charge_id', 'in', [...chargeIds])
      .orderBy('charge_evidence.created_at')
      .orderBy('charge_evidence.id')
      .execute()
  );
}

/** Of these inspection photos, the ids that belong to an inspection of the trip. */
export async function inspectionPhotosOfTrip(db: Db, reservationId: string, photoIds: readonly string[]) {
  if (photoIds.length === 0) return [];
  const rows = await db
    .selectFrom('inspection_photos as p')
    .innerJoin('inspections as i', 'i.id', 'p.inspection_id')
    .select('p.id')
    .where('i.reservation_id', '=', reservationId)
    .where('p.id', 'in', [...photoIds])
    .execute();
  return rows.map((r) => r.id);
}
export type EvidenceRow = Awaited<ReturnType<typeof evidenceOfCharges>>[number];

// ---- disputes ----

export function disputesOfCharges(db: Db, chargeIds: readonly string[]) {
  if (chargeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('charge_disputes as d')
    .leftJoin('staff as s', 's.id', 'd.decided_by')
    .select([
      'd.id',
      'd.charge_id',
      'd.renter_text',
      'd.opened_at',
      'd.outcome',
      'd.staff_reason',
      'd.decided_by',
      'd.decided_at',
      's.name as decided_by_name',
    ])
    .where('d.charge_id', 'in', [...chargeIds])
    .execute();
}
export type DisputeRow = Awaited<ReturnType<typeof disputesOfCharges>>[number];

export function insertDispute(trx: Transaction<Database>, chargeId: string, text: string, now: Date) {
  return trx
    .insertInto('charge_disputes')
    .values({ charge_id: chargeId, renter_text: text, opened_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function lockDispute(trx: Transaction<Database>, disputeId: string) {
  return trx.selectFrom('charge_disputes').selectAll().where('id', '=', disputeId).forUpdate().executeTakeFirst();
}

export function findDispute(db: Db, disputeId: string) {
  return db
    .selectFrom('charge_disputes as d')
    .innerJoin('charges as c', 'c.id', 'd.charge_id')
    .innerJoin('reservations as r', 'r.id', 'c.reservation_id')
    .select(['d.id', 'd.charge_id', 'd.outcome', 'c.reservation_id', 'r.pickup_location_id'])
    .where('d.id', '=', disputeId)
    .executeTakeFirst();
}

export async function decideDispute(
  trx: Transaction<Database>,
  disputeId: string,
  values: { outcome: DisputeOutcome; staff_reason: string; decided_by: string; decided_at: Date },
) {
  await trx.updateTable('charge_disputes').set(values).where('id', '=', disputeId).execute();
}

/** The dispute queue: open ones oldest first, decided ones newest first; in the staff member's locations. */
export async function disputeQueue(
  db: Db,
  q: { state: 'open' | 'decided'; locationIds: readonly number[] | 'all'; limit: number; offset: number },
) {
  let base = db
    .selectFrom('charge_disputes as d')
    .innerJoin('charges as c', 'c.id', 'd.charge_id')
    .innerJoin('reservations as r', 'r.id', 'c.reservation_id')
    .where('d.outcome', q.state === 'open' ? 'is' : 'is not', null);
  if (q.locationIds !== 'all')
    base = base.where('r.pickup_location_id', 'in', q.locationIds.length > 0 ? [...q.locationIds] : [-1]);
  const [rows, total] = await Promise.all([
    base
      .select(['d.charge_id', 'r.pickup_location_id'])
      .orderBy('d.opened_at', q.state === 'open' ? 'asc' : 'desc')
      .orderBy('d.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

// ---- refunds ----

export function insertRefund(
  trx: Transaction<Database>,
  values: {
    payment_id: string;
    reservation_id: string;
    amount: number;
    reason: string;
    issued_by: string | null;
    dispute_id: string | null;
    created_at: Date;
  },
) {
  return trx.insertInto('refunds').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteRefund(db: Db, refundId: string) {
  await db.deleteFrom('refunds').where('id', '=', refundId).where('provider_refund_id', 'is', null).execute();
}

/** Staff refunds recorded before `before` and never answered, oldest first, with what finishing one needs. */
export function unfinishedRefunds(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('refunds as f')
    .innerJoin('payments as p', 'p.id', 'f.payment_id')
    .innerJoin('reservations as r', 'r.id', 'f.reservation_id')
    .leftJoin('staff as s', 's.id', 'f.issued_by')
    .leftJoin('charge_disputes as d', 'd.id', 'f.dispute_id')
    .select([
      'f.id',
      'f.payment_id',
      'f.reservation_id',
      'f.amount',
      'f.reason',
      'f.issued_by',
      'f.dispute_id',
      's.role as staff_role',
      'd.charge_id',
      'p.provider_intent_id',
      'r.pickup_location_id',
    ])
    .where('f.provider_refund_id', 'is', null)
    .where('p.provider_intent_id', 'is not', null)
    .where('f.created_at', '<', before)
    .orderBy('f.created_at')
    .limit(limit)
    .execute();
}

/**
 * Locks a refund recorded but not yet answered by the provider: the one of a payment (none more is
 * taken meanwhile), or one by its id (undefined when another run finished it first).
 */
export function lockUnfinishedRefund(trx: Transaction<Database>, of: { paymentId: string } | { refundId: string }) {
  const q = trx.selectFrom('refunds').select('id').where('provider_refund_id', 'is', null);
  return ('refundId' in of ? q.where('id', '=', of.refundId) : q.where('payment_id', '=', of.paymentId))
    .forUpdate()
    .executeTakeFirst();
}

export async function setProviderRefund(trx: Transaction<Database>, refundId: string, providerRefundId: string) {
  await trx.updateTable('refunds').set({ provider_refund_id: providerRefundId }).where('id', '=', refundId).execute();
}

export function refundsOfTrip(db: Db, tripId: string) {
  return db
    .selectFrom('refunds as f')
    .leftJoin('staff as s', 's.id', 'f.issued_by')
    .select([
      'f.id',
      'f.payment_id',
      'f.reservation_id',
      'f.amount',
      'f.reason',
      'f.issued_by',
      'f.dispute_id',
      'f.provider_refund_id',
      'f.created_at',
      's.name as issued_by_name',
    ])
    .where('f.reservation_id', '=', tripId)
    .where('f.provider_refund_id', 'is not', null)
    .orderBy('f.created_at')
    .execute();
}
export type RefundRow = Awaited<ReturnType<typeof refundsOfTrip>>[number];

/** The paid items of a payment that a refund can give back, oldest first (optionally one charge's only). */
export function refundableItems(trx: Transaction<Database>, paymentId: string, chargeId: string | null) {
  let q = trx
    .selectFrom('transactions')
    .select(['id', 'amount', 'discount_amount', 'captured_amount', 'charge_id'])
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Successful')
    .where('category', '!=', 'Deposit');
  if (chargeId) q = q.where('charge_id', '=', chargeId);
  return q.orderBy('created_at').orderBy('id').forUpdate().execute();
}

/** Part of a paid item is refunded: the item keeps the rest, and a copy of the part is Refunded. */
export async function splitRefunded(
  trx: Transaction<Database>,
  itemId: string,
  part: number,
  whole: boolean,
): Promise<void> {
  if (whole) {
    await trx.updateTable('transactions').set({ status: 'Refunded' }).where('id', '=', itemId).execute();
    return;
  }
  const item = await trx.selectFrom('transactions').selectAll().where('id', '=', itemId).executeTakeFirstOrThrow();
  await trx
    .updateTable('transactions')
    .set({ amount: item.amount - part, cost: item.cost - part, captured_amount: item.captured_amount - part })
    .where('id', '=', itemId)
    .execute();
  const { id: _id, created_at, ...rest } = item;
  await trx
    .insertInto('transactions')
    .values({
      ...rest,
      effective_date: rest.effective_date,
      status: 'Refunded',
      amount: part,
      cost: part,
      captured_amount: part,
      discount_amount: 0,
      created_at,
    })
    .execute();
}

// ---- deposits ----

const HOLD_COLUMNS = [
  'p.id',
  'p.reservation_id',
  'p.status',
  'p.amount',
  'p.amount_captured',
  'p.amount_refunded',
  'p.card_brand',
  'p.card_last_4',
  'p.created_at',
  'p.updated_at',
  'p.provider_intent_id',
  'r.platform_id',
  'r.status as trip_status',
  'r.returned_at',
  'r.pickup_location_id',
  'dr.settled_at',
] as const;

function holdsBase(db: Db) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('deposit_reviews as dr', 'dr.payment_id', 'p.id')
    .select(HOLD_COLUMNS)
    .select([
      sql<string | null>`nullif(trim(concat(u.first_name, ' ', u.last_name)), '')`.as('renter_name'),
      sql<number>`coalesce((select sum(t.amount - t.discount_amount) from transactions t
        where t.payment_id = p.id and t.category <> 'Deposit' and t.status = 'Pending'), 0)`.as('linked'),
    ])
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.provider_intent_id', 'is not', null);
}
export type HoldRow = Awaited<ReturnType<typeof findHold>> & object;

export function findHold(db: Db, paymentId: string) {
  return holdsBase(db).where('p.id', '=', paymentId).executeTakeFirst();
}

export function tripHold(db: Db, tripId: string) {
  return holdsBase(db)
    .where('p.reservation_id', '=', tripId)
    .where('p.status', 'not in', ['creating', 'canceling'])
    .orderBy('p.created_at', 'desc')
    .executeTakeFirst();
}

/** Statuses as the provider writes them, per console status. */
const PROVIDER_STATUSES: Record<string, readonly string[]> = {
  authorised: ['requires_capture'],
  in_review: ['requires_capture'],
  captured: ['succeeded'],
  released: ['canceled'],
  failed: ['requires_payment_method'],
  pending: ['requires_confirmation', 'requires_action', 'processing', 'creating'],
};

export async function listHolds(
  db: Db,
  q: {
    locationIds: readonly number[] | 'all';
    locationId?: number | undefined;
    status?: string | undefined;
    tripId?: string | undefined;
    limit: number;
    offset: number;
  },
) {
  let base = holdsBase(db).where('p.status', '!=', 'canceling');
  if (q.locationIds !== 'all')
    base = base.where('r.pickup_location_id', 'in', q.locationIds.length > 0 ? [...q.locationIds] : [-1]);
  if (q.locationId !== undefined) base = base.where('r.pickup_location_id', '=', q.locationId);
  if (q.tripId) base = base.where('p.reservation_id', '=', q.tripId);
  if (q.status) {
    base = base.where('p.status', 'in', [...(PROVIDER_STATUSES[q.status] ?? ['none'])]);
    if (q.status === 'in_review') base = base.where('r.status', '=', 'Returned');
    if (q.status === 'authorised') base = base.where('r.status', '!=', 'Returned');
  }
  const [rows, total] = await Promise.all([
    base.orderBy('p.created_at', 'desc').orderBy('p.id').limit(q.limit).offset(q.offset).execute(),
    db
      .selectFrom(base.as('h'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The trip's payments for the console (a card is its brand and last four only). */
export function paymentsOfTrip(db: Db, tripId: string) {
  return db
    .selectFrom('payments')
    .select([
      'id',
      'kind',
      'status',
      'amount',
      'amount_captured',
      'amount_refunded',
      'card_brand',
      'card_last_4',
      'created_at',
      'provider_intent_id',
      'reservation_id',
    ])
    .where('reservation_id', '=', tripId)
    .where('provider_intent_id', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findPaymentForRefund(db: Db, paymentId: string) {
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select([
      'p.id',
      'p.kind',
      'p.status',
      'p.reservation_id',
      'p.provider_intent_id',
      'p.amount_captured',
      'p.amount_refunded',
      'r.pickup_location_id',
    ])
    .where('p.id', '=', paymentId)
    .executeTakeFirst();
}

/** What each of the trip's charge payments is for, by payment id (a charge's label). */
export function chargeLabelsByPayment(db: Db, tripId: string) {
  return db
    .selectFrom('transactions')
    .select(['payment_id', 'description'])
    .where('reservation_id', '=', tripId)
    .where('charge_id', 'is not', null)
    .where('payment_id', 'is not', null)
    .execute();
}

// ---- tolls ----

/** The trips of cars with any of these plates or VINs, with each trip's time out. */
export function tripsOfCars(db: Db, plates: readonly string[], vins: readonly string[]) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.vehicle_id',
      'r.pickup_location_id',
      'l.timezone as location_timezone',
      'r.on_rent_at',
      'r.pickup_at',
      'r.returned_at',
      'r.status',
      'v.vin',
      'v.license_plate',
    ])
    .where('r.status', 'in', ['On Rent', 'Returned'])
    .where((eb) =>
      eb.or([
        eb('v.license_plate', 'in', plates.length > 0 ? [...plates] : ['']),
        eb('v.vin', 'in', vins.length > 0 ? [...vins] : ['']),
      ]),
    )
    .execute();
}

/** The trip's line items, as the books read them. */
export function tripItems(db: Db, tripId: string) {
  return db
    .selectFrom('transactions')
    .select(['category', 'status', 'amount', 'discount_amount'])
    .where('reservation_id', '=', tripId)
    .execute();
}

export function findCharge(db: Db, chargeId: string) {
  return db
    .selectFrom('charges as c')
    .innerJoin('reservations as r', 'r.id', 'c.reservation_id')
    .select(['c.id', 'c.reservation_id', 'c.status', 'c.fee_type', 'r.user_id'])
    .where('c.id', '=', chargeId)
    .executeTakeFirst();
}

/** The administration fees posted with this charge. */
export async function administrationFees(db: Db, chargeId: string): Promise<string[]> {
  const rows = await db.selectFrom('charges').select('id').where('administration_of', '=', chargeId).execute();
  return rows.map((r) => r.id);
}

/** A trip of this renter by its reference. */
export function ownTrip(db: Db, userId: string, platformId: string) {
  return db
    .selectFrom('reservations')
    .select('id')
    .where('platform_id', '=', platformId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}
