/**
 * Receipts (spec 4 'Receipt card labels' and 'Receipt grouping', spec 2 'Receipt pages'): how a
 * trip's transactions become dated receipt cards, and what each card is called. The API, the web
 * pages and the PDFs read them from here.
 */

export interface ReceiptTransaction {
  category: string;
  status: string;
  amount: number;
  captured_amount: number;
  discount_amount: number;
  initiated_at: string;
  released_at: string | null;
  stripe_reserve_applied_payment_intent_id: string | null;
}

export type ReceiptLabel = 'Partially Captured' | 'Authorization' | 'Failed' | 'Released' | 'Refund' | 'Pulled from' | 'Payment';

/** Spec 4: the deposit's status as a receipt names it. */
export function depositReceiptLabel(status: string): ReceiptLabel | string {
  if (status === 'Captured') return 'Partially Captured';
  if (status === 'Pending' || status === 'Successful') return 'Authorization';
  if (status === 'Failed') return 'Failed';
  if (status === 'Canceled') return 'Released';
  return status;
}

/** Spec 4: the order of items within a card. */
const ITEM_ORDER = ['Rack', 'Addon', 'Damage Waiver', 'Additional', 'Violation', 'Incidental', 'Reimbursement', 'Tax', 'Deposit'];

export interface ReceiptCard<T extends ReceiptTransaction> {
  /** The instant the card is dated by (ISO). */
  at: string;
  label: ReceiptLabel | string;
  items: T[];
}

/**
 * Spec 4 'Receipt grouping': deposit transactions that are not Failed, grouped by release time (or
 * initiation time when not released); other transactions that are not Canceled, not Pending and not
 * a zero-captured Tax, grouped by initiation time. Cards by date ascending; within a card Rack,
 * Addon, Additional, Violation, Incidental, Reimbursement (then tax and the deposit).
 * Labels: a deposit card by the deposit's status; a card with any Refunded item 'Refund'; one
 * taken from the security deposit (reserve-applied) 'Pulled from'; otherwise 'Payment'.
 */
export function receiptCards<T extends ReceiptTransaction>(transactions: readonly T[]): ReceiptCard<T>[] {
  const groups = new Map<string, T[]>();
  const add = (at: string, t: T) => {
    const key = new Date(at).toISOString();
    groups.set(key, [...(groups.get(key) ?? []), t]);
  };
  for (const t of transactions) {
    if (t.category === 'Deposit') {
      if (t.status !== 'Failed') add(t.released_at ?? t.initiated_at, t);
    } else if (t.status !== 'Canceled' && t.status !== 'Pending' && !(t.category === 'Tax' && t.captured_amount === 0)) {
      add(t.initiated_at, t);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([at, items]) => {
      const sorted = [...items].sort((x, y) => rank(x.category) - rank(y.category));
      return { at, label: cardLabel(sorted), items: sorted };
    });
}

const rank = (category: string) => (ITEM_ORDER.indexOf(category) === -1 ? ITEM_ORDER.length : ITEM_ORDER.indexOf(category));

function cardLabel(items: readonly ReceiptTransaction[]): ReceiptLabel | string {
  const deposit = items.find((t) => t.category === 'Deposit');
  if (deposit) return depositReceiptLabel(deposit.status);
  if (items.some((t) => t.status === 'Refunded')) return 'Refund';
  if (items.some((t) => t.stripe_reserve_applied_payment_intent_id !== null)) return 'Pulled from';
  return 'Payment';
}

/** Spec 2: 'Receipt #{second part of the id}-{001 numbering}'. */
export function receiptTitle(platformId: string, index: number): string {
  const part = platformId.split('-')[1] ?? platformId;
  return `Receipt #${part}-${String(index + 1).padStart(3, '0')}`;
}

/** What a card's items came to: the amounts taken for them (the deposit's hold amount when only held). */
export function cardTotal(card: ReceiptCard<ReceiptTransaction>): number {
  return card.items.reduce((sum, t) => {
    if (t.category === 'Deposit') return sum + (t.status === 'Captured' ? t.captured_amount : t.amount);
    return sum + (t.status === 'Successful' || t.status === 'Refunded' ? t.amount - t.discount_amount : 0);
  }, 0);
}
