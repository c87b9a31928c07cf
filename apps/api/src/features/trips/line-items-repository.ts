import type { Kysely, QueryCreator, Transaction } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { LineItem } from '@ampere/domain/booking';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A trip's line items (the `transactions` rows) as booking and changing it write them. */

/** Writes line items as Pending transactions. */
export async function insertLineItems(
  trx: Transaction<Database>,
  reservationId: string,
  items: readonly LineItem[],
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  await insertLineItemsQuery(trx, reservationId, items, now).execute();
}

/** `insertLineItems`' statement (at least one item), unrun: to send with another (`with`). */
export function insertLineItemsQuery(
  db: QueryCreator<Database>,
  reservationId: string,
  items: readonly LineItem[],
  now: Date,
) {
  return db.insertInto('transactions').values(
    items.map((i) => ({
      reservation_id: reservationId,
      category: i.category,
      status: 'Pending',
      description: i.description,
      cost: i.cost,
      amount: i.amount,
      discount_amount: i.discount_amount,
      number_of_days: i.number_of_days,
      effective_date: i.effective_date,
      initiated_at: now,
      created_at: now,
      released_at: null,
      card_last_4: null,
      payment_id: null,
      reserve_applied_payment_id: null,
      addon_id: i.addon_id,
    })),
  );
}

export function pendingAndPaidAddonRows(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'addon_id', 'status'])
    .where('reservation_id', '=', reservationId)
    .where('category', '=', 'Addon')
    .where('status', 'not in', ['Canceled', 'Failed', 'Refunded'])
    .execute();
}

export async function cancelTransactions(trx: Transaction<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('transactions')
    .set({ status: 'Canceled' })
    .where('id', 'in', ids)
    .where('status', '=', 'Pending')
    .execute();
}

/** Every Pending row of a reservation, for recomputing its tax and discounts. */
export function pendingRows(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'category', 'status', 'cost', 'amount', 'discount_amount', 'effective_date', 'description'])
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .execute();
}

export async function setDiscountAmounts(
  trx: Transaction<Database>,
  changes: { id: string; discount_amount: number }[],
): Promise<void> {
  for (const c of changes)
    await trx.updateTable('transactions').set({ discount_amount: c.discount_amount }).where('id', '=', c.id).execute();
}

const activeFeeRows = (trx: Db, reservationId: string, description: string) =>
  trx
    .selectFrom('transactions')
    .select(['id', 'status'])
    .where('reservation_id', '=', reservationId)
    .where('category', '=', 'Additional')
    .where('description', '=', description)
    .where('status', 'not in', ['Canceled', 'Failed', 'Refunded']);

/** What `birthdayWithFeeRows` answers, as a JSON sub-select for another statement to read with it (null for no such renter). */
export function birthdayWithFeeRowsOf(db: Db, userId: string, reservationId: string, description: string) {
  return jsonObjectFrom(
    db
      .selectFrom('users')
      .select('birthday')
      .select(() => jsonArrayFrom(activeFeeRows(db, reservationId, description)).as('fees'))
      .where('id', '=', userId),
  );
}

/** The renter's birthday, with the trip's live fee rows of one description (not canceled, failed or refunded): one statement. */
export function birthdayWithFeeRows(
  trx: Transaction<Database>,
  userId: string,
  reservationId: string,
  description: string,
) {
  return trx
    .selectFrom('users')
    .select('birthday')
    .select(() => jsonArrayFrom(activeFeeRows(trx, reservationId, description)).as('fees'))
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * A trip not going ahead: its unpaid items are Canceled; a deposit row on a hold is left to the
 * hold's release, which closes it (released_at).
 */
export async function cancelUnpaidItems(trx: Transaction<Database>, reservationId: string): Promise<void> {
  await trx
    .updateTable('transactions')
    .set({ status: 'Canceled' })
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .where((eb) => eb.or([eb('category', '!=', 'Deposit'), eb('payment_id', 'is', null)]))
    .execute();
}

/**
 * A trip's live items, pending or paid, each with the price of the add-on it is for: what the days a
 * change of dates adds are priced by (the daily add-ons, the underage fee) and, of them the pending
 * ones, what the tax is recomputed on. The query, to be narrowed to one trip (or read inside another).
 */
export function liveItemsQuery(db: Db) {
  return db
    .selectFrom('transactions as t')
    .leftJoin('addons as a', 'a.id', 't.addon_id')
    .select([
      't.id',
      't.category',
      't.status',
      't.description',
      't.cost',
      't.amount',
      't.discount_amount',
      't.effective_date',
      't.addon_id',
      'a.type as addon_type',
      'a.amount as addon_amount',
      'a.charge_frequency',
    ])
    .where('t.status', 'in', ['Pending', 'Successful', 'Captured']);
}

/** The trip's live items (see liveItemsQuery). */
export function liveItemsOf(db: Db, reservationId: string) {
  return liveItemsQuery(db).where('t.reservation_id', '=', reservationId).execute();
}

/** The unpaid rental days, add-ons and fees written at this instant (those a change of dates added). */
export async function unpaidItemsAddedAt(trx: Transaction<Database>, reservationId: string, at: Date) {
  const rows = await trx
    .selectFrom('transactions')
    .select('id')
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .where('category', 'in', ['Rack', 'Addon', 'Additional'])
    .where('initiated_at', '=', at)
    .execute();
  return rows.map((r) => r.id);
}

/** The trip's items still to be paid, the deposit aside: a query for a statement to test with `exists`. */
export function unpaidItemsQuery(db: QueryCreator<Database>, reservationId: string) {
  return db
    .selectFrom('transactions')
    .select('id')
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .where('category', '!=', 'Deposit');
}
