import { type Transaction, type UpdateQueryBuilder, sql } from 'kysely';
import { isBelowCardMinimum } from '@ampere/domain/end-trip';
import { netTotalCents } from '@ampere/domain/line-items';
import type { Database } from '../../db/schema.ts';
import { SECURED_HOLD_STATUSES } from './repository.ts';

/**
 * How a trip's line items follow its payments (the ledger): a settled charge pays its items, a
 * hold's deposit row is authorised, released or captured with it, a refund marks what it paid.
 * Every statement moves only rows still in the state it expects, so applying one twice changes nothing.
 */

/**
 * A succeeded charge: its pending line items are paid, each net of its discount. The count changed,
 * and whether any of them is a charge posted after the trip (decision 091), as `paysAfterTripCharges`
 * would answer after it. `redeem` (the trip's coupon claim marked redeemed, `redeemClaim`) runs in
 * the same statement.
 */
export async function settleCharge(
  trx: Transaction<Database>,
  paymentId: string,
  cardLast4: string | null,
  redeem: UpdateQueryBuilder<Database, 'coupon_claims', 'coupon_claims', { code: string }>,
): Promise<{ n: number; paysAfterTripCharges: boolean }> {
  const settled = await trx
    .with('redeemed', () => redeem)
    .updateTable('transactions')
    .set((eb) => ({
      status: 'Successful',
      captured_amount: eb('amount', '-', eb.ref('discount_amount')),
      card_last_4: cardLast4,
    }))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .returning('charge_id')
    .execute();
  return { n: settled.length, paysAfterTripCharges: settled.some((t) => t.charge_id !== null) };
}

/**
 * The line items of canceled charges (`unlink`) no longer settle with them: unlinked, they wait,
 * unpaid, for the next one. Those paid by payments refunded in full (`refunded`) are Refunded. One
 * statement when both have payments: they move different rows (Pending ones; paid ones). How many
 * rows moved.
 */
export async function unlinkAndMarkRefunded(
  trx: Transaction<Database>,
  unlink: readonly string[],
  refunded: readonly string[],
): Promise<number> {
  const unlinking = () =>
    trx
      .updateTable('transactions')
      .set({ payment_id: null })
      .where('payment_id', 'in', unlink)
      .where('status', '=', 'Pending')
      .returning('id');
  const refunding = () =>
    trx
      .updateTable('transactions')
      .set({ status: 'Refunded' })
      .where('payment_id', 'in', refunded)
      .where('status', 'in', ['Successful', 'Captured'])
      .returning('id');
  if (unlink.length === 0 && refunded.length === 0) return 0;
  if (refunded.length === 0) return (await unlinking().execute()).length;
  if (unlink.length === 0) return (await refunding().execute()).length;
  const row = await trx
    .with('unlinked', unlinking)
    .with('refunded', refunding)
    .selectNoFrom(sql<number>`(select count(*) from unlinked) + (select count(*) from refunded)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
export async function releaseHold(
  trx: Transaction<Database>,
  paymentId: string,
  now: Date,
): Promise<{ n: number; waived: boolean }> {
  // One statement for both: the deposit row is Canceled with released_at and stays linked; the
  // fees are unlinked (from the hold and from the reserve they were to be taken from) and stay Pending.
  const moved = await trx
    .updateTable('transactions')
    .set((eb) => {
      const deposit = () => eb.case().when('category', '=', 'Deposit');
      return {
        status: deposit()
          .then('Canceled' as const)
          .else(eb.ref('status'))
          .end(),
        released_at: deposit().then(now).else(eb.ref('released_at')).end(),
        payment_id: deposit().then(eb.ref('payment_id')).else(null).end(),
        reserve_applied_payment_id: deposit().then(eb.ref('reserve_applied_payment_id')).else(null).end(),
      };
    })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'Pending')
    .returning(['category', 'reservation_id'])
    .execute();
  const fees = moved.filter((t) => t.category !== 'Deposit');
  const waived = fees[0] ? await waiveBalanceBelowMinimum(trx, fees[0].reservation_id) : false;
  return { n: moved.length, waived };
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

/**
 * Whether the reservation is fully paid and its deposit secured (when it has one): no pending item
 * other than the deposit, and either no deposit row or one pending or captured under a hold that
 * is authorised or captured. The three counts are read in one statement.
 */
export async function paymentsComplete(trx: Transaction<Database>, reservationId: string): Promise<boolean> {
  const row = await trx
    .selectNoFrom((eb) => [
      eb
        .selectFrom('transactions')
        .select(eb.fn.countAll<number>().as('n'))
        .where('reservation_id', '=', reservationId)
        .where('status', '=', 'Pending')
        .where('category', '!=', 'Deposit')
        .as('unpaid'),
      eb
        .selectFrom('transactions')
        .select(eb.fn.countAll<number>().as('n'))
        .where('reservation_id', '=', reservationId)
        .where('category', '=', 'Deposit')
        .as('deposits'),
      eb
        .selectFrom('transactions as t')
        .innerJoin('payments as p', 'p.id', 't.payment_id')
        .select(eb.fn.countAll<number>().as('n'))
        .where('t.reservation_id', '=', reservationId)
        .where('t.category', '=', 'Deposit')
        .where('t.status', 'in', ['Pending', 'Captured'])
        .where('p.status', 'in', [...SECURED_HOLD_STATUSES])
        .as('secured'),
    ])
    .executeTakeFirstOrThrow();
  if (Number(row.unpaid) > 0) return false;
  if (Number(row.deposits) === 0) return true;
  return Number(row.secured) > 0;
}

/** What a charge's linked items add up to: those still to settle, and those it already settled. */
export interface LinkedSums {
  pending: number;
  pendingCount: number;
  settledCount: number;
}

/** A charge's linked items, read now, added up as `sumLinked` does. */
export async function linkedSums(trx: Transaction<Database>, paymentId: string): Promise<LinkedSums> {
  const rows = await trx
    .selectFrom('transactions')
    .select(['status', 'amount', 'discount_amount'])
    .where('payment_id', '=', paymentId)
    .execute();
  return sumLinked(rows);
}

/** What these linked items add up to (pure). */
export function sumLinked(rows: readonly { status: string; amount: number; discount_amount: number }[]): LinkedSums {
  const pending = rows.filter((r) => r.status === 'Pending');
  return {
    pending: netTotalCents(pending),
    pendingCount: pending.length,
    settledCount: rows.filter((r) => r.status === 'Successful' || r.status === 'Refunded').length,
  };
}

/** Whether this payment pays charges posted after the trip (decision 091): they are told by their own message. */
export async function paysAfterTripCharges(trx: Transaction<Database>, paymentId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('transactions')
    .select('id')
    .where('payment_id', '=', paymentId)
    .where('charge_id', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
