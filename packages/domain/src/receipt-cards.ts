import { isWaivedFee } from './end-trip.ts';
import { type LabelledItem, byLineOrder, netTotalCents } from './line-items.ts';

/**
 * Receipt cards (spec 4 'Receipt card labels' and 'Receipt grouping', decision 051): which of a
 * trip's transactions are on its receipt, and how they fall into cards — one per payment, one per
 * deposit hold (with the fees kept from it), one per refund — each dated when its money moved.
 */

export interface ReceiptTransaction extends LabelledItem {
  id?: string;
  category: string;
  status: string;
  amount: number;
  captured_amount: number;
  discount_amount: number;
  initiated_at: string;
  released_at: string | null;
  /** The card the payment or hold was made with; on a deposit row, set once the hold is placed. */
  card_last_4: string | null;
  stripe_reserve_applied_payment_intent_id: string | null;
  /** Which of the trip's payments paid or holds this item (a `ReceiptPayment.ref`); null when none. */
  payment: number | null;
  /** The day a rental's line is for. */
  effective_date?: string | null;
  /** On an administration fee's line: the charge it administers (a ticket's), whose lines come first. */
  administration_of?: string | null;
}

/**
 * A card's lines in the one order (`byLineOrder`, shared with the lists of charges): spec 4's
 * category order, then initiated, then the day, then a charge before its administration fee, then id.
 */
export function byReceiptOrder<T extends ReceiptTransaction>(items: readonly T[]): T[] {
  return byLineOrder(items, (t) => ({
    category: t.category,
    at: t.initiated_at,
    day: t.effective_date ?? null,
    administration: Boolean(t.administration_of),
    id: t.id ?? '',
  }));
}

/** One of the trip's payments as the provider made it: a charge, or a deposit hold. */
export interface ReceiptPayment {
  /** 1, 2, … in the order the trip's payments were made; the same on every item it paid. */
  ref: number;
  /** When the charge was made or the hold placed (ISO). */
  at: string;
  card_last_4: string | null;
  /** When the provider gave the charge back, if it did (ISO). */
  refunded_at: string | null;
}

export type ReceiptLabel =
  'Partially Captured' | 'Authorization' | 'Failed' | 'Released' | 'Refund' | 'Pulled from' | 'Payment' | 'Waived';

/** Spec 4: the deposit's status as a receipt names it. */
export function depositReceiptLabel(status: string): ReceiptLabel | string {
  // A hold captured in part and then given back in part or whole (a dispute accepted, a refund):
  // still the capture on its card; the money given back has its own 'Refund' card.
  if (status === 'Captured' || status === 'Refunded') return 'Partially Captured';
  if (status === 'Pending' || status === 'Successful') return 'Authorization';
  if (status === 'Failed') return 'Failed';
  if (status === 'Canceled') return 'Released';
  return status;
}

/**
 * Whether a hold was ever placed for this Deposit row. The row is written Pending with the booking,
 * before any card is held (decision 012); the card goes on it when the provider authorises the hold.
 * A row without a card that is still Pending has no hold yet, and one Canceled without a card was
 * dropped with an unpaid booking: neither is an 'Authorization' or a 'Released' hold.
 */
export function depositHoldPlaced(t: { status: string; card_last_4?: string | null }): boolean {
  return Boolean(t.card_last_4) || t.status === 'Captured' || t.status === 'Successful';
}

/** The deposit's label wherever it is shown: spec 4's, once a hold was placed (or it failed); null while there is none. */
export function depositLabel(t: { status: string; card_last_4?: string | null }): ReceiptLabel | string | null {
  if (t.status === 'Failed') return 'Failed';
  return depositHoldPlaced(t) ? depositReceiptLabel(t.status) : null;
}

/**
 * Spec 4 'Receipt grouping', which items are on a receipt: a deposit that held something and did
 * not fail; any other item that is not Canceled, not Pending and not a zero-captured Tax.
 */
export function onReceipt(t: ReceiptTransaction): boolean {
  if (t.category === 'Deposit') return t.status !== 'Failed' && depositHoldPlaced(t);
  return t.status !== 'Canceled' && t.status !== 'Pending' && !(t.category === 'Tax' && t.captured_amount === 0);
}

export type ReceiptCardKind = 'payment' | 'deposit' | 'refund';

export interface ReceiptCard<T extends ReceiptTransaction> {
  kind: ReceiptCardKind;
  /** The instant the card is dated by (ISO): the charge, the hold's release (or placing), the refund. */
  at: string;
  label: ReceiptLabel | string;
  /** In spec 4's order: Rack, Addon, Additional, Violation, Incidental, Reimbursement, then tax and the deposit. */
  items: T[];
  /** The last four of the card the money moved on, when known. */
  card_last_4: string | null;
  /** The `ReceiptPayment.ref` the card tells of (a refund card: the payment it gives back); null when not known. */
  payment: number | null;
}

const KIND_ORDER: Record<ReceiptCardKind, number> = { payment: 0, deposit: 1, refund: 2 };
const isDeposit = (t: ReceiptTransaction) => t.category === 'Deposit';
const firstInstant = (items: readonly ReceiptTransaction[]) =>
  items.map((t) => new Date(t.initiated_at).toISOString()).sort()[0]!;
const iso = (at: string) => new Date(at).toISOString();

/**
 * The receipt's cards, by date ascending (at one instant a payment, then a hold, then a refund).
 * Items fall into cards by the payment that paid or holds them, not by the instant they were
 * written: a rental and the tax added when an extra was chosen are one charge, so one card. A
 * deposit hold's card carries the fees kept from it and is dated at its release (spec 4), labelled
 * by the deposit's status. A payment given back keeps its 'Payment' card and gains a 'Refund' card
 * dated when the provider refunded it. Items no payment is known for fall back to spec 4's
 * grouping by instant.
 */
export function receiptCards<T extends ReceiptTransaction>(
  transactions: readonly T[],
  payments: readonly ReceiptPayment[],
): ReceiptCard<T>[] {
  const byRef = new Map(payments.map((p) => [p.ref, p]));
  const groups = new Map<string, { payment: ReceiptPayment | undefined; items: T[] }>();
  const waived: T[] = [];
  for (const t of transactions) {
    if (!onReceipt(t)) continue;
    if (isWaivedFee(t)) {
      waived.push(t);
      continue;
    }
    const key =
      t.payment !== null && byRef.has(t.payment)
        ? `payment ${t.payment}`
        : `${iso(isDeposit(t) ? (t.released_at ?? t.initiated_at) : t.initiated_at)} ${isDeposit(t) ? 'hold' : 'items'}`;
    const group = groups.get(key) ?? { payment: t.payment === null ? undefined : byRef.get(t.payment), items: [] };
    group.items.push(t);
    groups.set(key, group);
  }
  const cards: ReceiptCard<T>[] = [];
  for (const { payment, items: unsorted } of groups.values()) {
    const items = byReceiptOrder(unsorted);
    const deposit = items.find(isDeposit);
    const card = payment?.card_last_4 ?? items.find((t) => t.card_last_4)?.card_last_4 ?? null;
    const paidAt = payment ? iso(payment.at) : firstInstant(items);
    if (deposit) {
      cards.push({
        kind: 'deposit',
        at: iso(deposit.released_at ?? payment?.at ?? deposit.initiated_at),
        label: depositReceiptLabel(deposit.status),
        items,
        card_last_4: card,
        payment: payment?.ref ?? null,
      });
    } else {
      const fromDeposit = items.some((t) => t.stripe_reserve_applied_payment_intent_id !== null);
      cards.push({
        kind: 'payment',
        at: paidAt,
        label: fromDeposit ? 'Pulled from' : 'Payment',
        items,
        card_last_4: card,
        payment: payment?.ref ?? null,
      });
    }
    const refunded = items.filter((t) => !isDeposit(t) && t.status === 'Refunded');
    if (refunded.length > 0) {
      cards.push({
        kind: 'refund',
        at: payment?.refunded_at ? iso(payment.refunded_at) : paidAt,
        label: 'Refund',
        items: refunded,
        card_last_4: card,
        payment: payment?.ref ?? null,
      });
    }
  }
  // A remainder written off at the return (decision 056) is told beside the fees the deposit kept;
  // with no hold to keep them, on a card of its own that charged nothing.
  const hold = cards.findLast((c) => c.kind === 'deposit');
  if (waived.length > 0 && hold) hold.items = byReceiptOrder([...hold.items, ...waived]);
  else if (waived.length > 0)
    cards.push({
      kind: 'payment',
      at: firstInstant(waived),
      label: 'Waived',
      items: byReceiptOrder(waived),
      card_last_4: null,
      payment: null,
    });
  return cards.sort((a, b) => a.at.localeCompare(b.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

type Money = Pick<ReceiptTransaction, 'category' | 'status' | 'amount' | 'discount_amount'>;

/** What was paid on the trip, refunds not taken off: every item paid, net of its discount; the deposit hold is not a payment. */
export const grossPaidCents = (transactions: readonly Money[]): number =>
  netTotalCents(
    transactions.filter((t) => !isDepositItem(t) && (t.status === 'Successful' || t.status === 'Refunded')),
  );

/** What was given back: the items whose payment the provider refunded. */
export const refundedCents = (transactions: readonly Money[]): number =>
  netTotalCents(transactions.filter((t) => !isDepositItem(t) && t.status === 'Refunded'));

/**
 * What the renter paid on the trip, net of refunds: the items paid (net of discounts), the return's
 * fees taken from the deposit among them; refunded items and the deposit hold itself are not
 * payments. It is what the provider kept: captured less refunded.
 */
export const paidCents = (transactions: readonly Money[]): number =>
  grossPaidCents(transactions) - refundedCents(transactions);

function isDepositItem(t: { category: string }): boolean {
  return t.category === 'Deposit';
}
