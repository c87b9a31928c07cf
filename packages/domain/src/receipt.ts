import { ADDON_LABELS } from './constants.ts';
import { endingIn, formatInstantInZone } from './format.ts';
import { type LabelledItem, byItemOrder, lineItemLabel, netCents, netTotalCents, rentalLabel } from './line-items.ts';
import { formatTotal } from './money.ts';
import { groupThousands } from './format-number.ts';

/**
 * Receipts (spec 4 'Receipt card labels' and 'Receipt grouping', spec 2 'Receipt pages'): how a
 * trip's transactions become dated receipt cards, what each card is called, and everything the
 * receipt shows, already worded. The trip's receipt page, the shared (token) receipt page and the
 * receipt PDF all render `receiptView`, so they cannot disagree.
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
}

export type ReceiptLabel =
  'Partially Captured' | 'Authorization' | 'Failed' | 'Released' | 'Refund' | 'Pulled from' | 'Payment';

/** Spec 4: the deposit's status as a receipt names it. */
export function depositReceiptLabel(status: string): ReceiptLabel | string {
  if (status === 'Captured') return 'Partially Captured';
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

export interface ReceiptCard<T extends ReceiptTransaction> {
  /** The instant the card is dated by (ISO). */
  at: string;
  label: ReceiptLabel | string;
  items: T[];
}

/**
 * Spec 4 'Receipt grouping': deposit transactions that are not Failed (and that held something),
 * grouped by release time (or initiation time when not released); other transactions that are not
 * Canceled, not Pending and not a zero-captured Tax, grouped by initiation time. Cards by date
 * ascending (payments before a hold of the same instant); within a card Rack, Addon, Additional, Violation, Incidental, Reimbursement (then tax
 * and the deposit). Labels: a deposit card by the deposit's status; a card with any Refunded item
 * 'Refund'; one taken from the security deposit (reserve-applied) 'Pulled from'; otherwise 'Payment'.
 */
export function receiptCards<T extends ReceiptTransaction>(transactions: readonly T[]): ReceiptCard<T>[] {
  // Deposits and other items are grouped apart: a booking writes its rental and its deposit at the
  // same instant, and a hold is not a payment (a card shows one or the other, under its own label).
  const groups = new Map<string, { at: string; deposit: boolean; items: T[] }>();
  const add = (when: string, t: T) => {
    const at = new Date(when).toISOString();
    const deposit = t.category === 'Deposit';
    const key = `${at} ${deposit ? 'deposit' : 'items'}`;
    const group = groups.get(key) ?? { at, deposit, items: [] };
    group.items.push(t);
    groups.set(key, group);
  };
  for (const t of transactions) {
    if (t.category === 'Deposit') {
      if (t.status !== 'Failed' && depositHoldPlaced(t)) add(t.released_at ?? t.initiated_at, t);
    } else if (
      t.status !== 'Canceled' &&
      t.status !== 'Pending' &&
      !(t.category === 'Tax' && t.captured_amount === 0)
    ) {
      add(t.initiated_at, t);
    }
  }
  return [...groups.values()]
    .sort((a, b) => a.at.localeCompare(b.at) || Number(a.deposit) - Number(b.deposit))
    .map(({ at, items }) => {
      const sorted = byItemOrder(items);
      return { at, label: cardLabel(sorted), items: sorted };
    });
}

function cardLabel(items: readonly ReceiptTransaction[]): ReceiptLabel | string {
  const deposit = items.find((t) => t.category === 'Deposit');
  if (deposit) return depositReceiptLabel(deposit.status);
  if (items.some((t) => t.status === 'Refunded')) return 'Refund';
  if (items.some((t) => t.stripe_reserve_applied_payment_intent_id !== null)) return 'Pulled from';
  return 'Payment';
}

/** Spec 4's 'Pulled from' reads in full as 'Pulled from security deposit'; the other labels as they are. */
export function receiptLabelText(label: ReceiptLabel | string): string {
  return label === 'Pulled from' ? 'Pulled from security deposit' : label;
}

/** Spec 2: 'Receipt #{second part of the id}-{001 numbering}'. */
export function receiptTitle(platformId: string, index: number): string {
  const part = platformId.split('-')[1] ?? platformId;
  return `Receipt #${part}-${String(index + 1).padStart(3, '0')}`;
}

/** What one item of a card came to: the amount taken from a captured deposit, the hold itself otherwise, any other item net of its discount. */
export function receiptLineCents(t: ReceiptTransaction): number {
  if (t.category === 'Deposit') return t.status === 'Captured' ? t.captured_amount : t.amount;
  return netCents(t);
}

/** What a card's items came to: the amounts taken for them (the deposit's hold amount when only held). */
export function cardTotal(card: ReceiptCard<ReceiptTransaction>): number {
  return card.items.reduce((sum, t) => {
    if (t.category === 'Deposit') return sum + receiptLineCents(t);
    return sum + (t.status === 'Successful' || t.status === 'Refunded' ? netCents(t) : 0);
  }, 0);
}

/**
 * What the renter paid on the trip: the items paid (net of discounts), the return's fees taken from
 * the deposit among them; refunded items and the deposit hold itself are not payments.
 */
export function paidCents(
  transactions: readonly { category: string; status: string; amount: number; discount_amount: number }[],
): number {
  return netTotalCents(transactions.filter((t) => t.category !== 'Deposit' && t.status === 'Successful'));
}

// Ride readings are formatted here rather than with the other formatters, which every page loads.
/** A ride's odometer reading or distance as a renter reads it: '24,970 mi'; `missing` when the car gave none. */
export const formatMiles = (n: number | null, missing = '—') =>
  n === null ? missing : `${groupThousands(Math.round(n))} mi`;

/** A battery level (a fraction) as a percentage: '80%'; `missing` when the car gave none. */
export const formatBattery = (n: number | null, missing = '—') => (n === null ? missing : `${Math.round(n * 100)}%`);

export interface RideReadings {
  mileage_in: number | null;
  mileage_out: number | null;
  battery_in: number | null;
  battery_out: number | null;
  vehicle_pickup_at: string | null;
  vehicle_return_at: string | null;
}

/** What a receipt is made from: the trip, its ride and its transactions, as the API sends them. */
export interface ReceiptSource {
  platform_id: string;
  pickup_at: string;
  return_at: string;
  /** The pickup place's zone: every time on the receipt is on its clock. */
  timezone: string;
  vehicle: { vin: string; year: number; model: { name: string } };
  damage_waiver: boolean;
  rides: readonly RideReadings[];
  transactions: readonly ReceiptTransaction[];
}

export interface ReceiptViewLine {
  key: string;
  label: string;
  /** 'card ending in ...4242', when the item says. */
  note: string | null;
  amount: string;
}

export interface ReceiptViewCard {
  key: string;
  title: string;
  label: string;
  date: string;
  total: string;
  lines: ReceiptViewLine[];
}

export interface ReceiptView {
  heading: 'Your Receipts';
  total: string;
  vehicle: string;
  vin: string;
  from: string;
  to: string;
  /** The Damage Waiver badge: 'Collision Protection active' or '… declined'. */
  waiver: { active: boolean; text: string };
  /** Mileage and battery out and in once the trip has a ride; 'On Rent' for a reading still to come. */
  readings: { label: string; value: string }[];
  cards: ReceiptViewCard[];
}

/** A receipt link's token: 32 random bytes, base64url (43 characters, 256 bits). */
export const RECEIPT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const RECEIPT_HEADING = 'Your Receipts';
/** Spec 8 'Receipt fetch failure', and spec 2: the token receipt page's words when there is nothing to show. */
export const RECEIPT_UNAVAILABLE_MESSAGE = 'Unable to load receipt information. Please try again later.';

/**
 * Rule (spec 2, the token receipt page): a shared receipt shows once the trip has a ride, i.e. the
 * car has gone out; before that the page and its PDF answer RECEIPT_UNAVAILABLE_MESSAGE instead.
 */
export const isSharedReceiptReady = (receipt: Pick<ReceiptSource, 'rides'>): boolean => receipt.rides.length > 0;
const ON_RENT = 'On Rent';

/**
 * Spec 2 'Receipt pages', worded: the total paid, the car, the dates (the ride's actual pickup and
 * return when present, else the reservation's), the Damage Waiver badge, mileage and battery out and
 * in, and one card per date titled 'Receipt #{part}-{001}'. Times on the pickup place's clock.
 */
export function receiptView(r: ReceiptSource): ReceiptView {
  const zone = r.timezone;
  const ride = r.rides[0];
  const cards = receiptCards(r.transactions);
  return {
    heading: RECEIPT_HEADING,
    total: formatTotal(paidCents(r.transactions)),
    vehicle: `${r.vehicle.year} ${r.vehicle.model.name}`,
    vin: r.vehicle.vin,
    from: formatInstantInZone(ride?.vehicle_pickup_at ?? r.pickup_at, zone),
    to: formatInstantInZone(ride?.vehicle_return_at ?? r.return_at, zone),
    waiver: {
      active: r.damage_waiver,
      text: `${ADDON_LABELS.DAMAGE_WAIVER} ${r.damage_waiver ? 'active' : 'declined'}`,
    },
    readings: ride
      ? [
          { label: 'Mileage out', value: formatMiles(ride.mileage_out, ON_RENT) },
          { label: 'Mileage in', value: formatMiles(ride.mileage_in, ON_RENT) },
          { label: 'Battery out', value: formatBattery(ride.battery_out, ON_RENT) },
          { label: 'Battery in', value: formatBattery(ride.battery_in, ON_RENT) },
        ]
      : [],
    cards: cards.map((card, i) => ({
      key: receiptTitle(r.platform_id, i),
      title: receiptTitle(r.platform_id, i),
      label: receiptLabelText(card.label),
      date: formatInstantInZone(card.at, zone),
      total: formatTotal(cardTotal(card)),
      lines: cardLines(card.items).map((line, j) => ({
        key: line.id ?? `${card.at}-${j}`,
        label: line.label,
        note: line.card_last_4 ? `card ${endingIn(line.card_last_4)}` : null,
        amount: formatTotal(line.cents),
      })),
    })),
  };
}

/**
 * A card's rows as a renter reads them, as the trip page groups them: a rental written a row per
 * day is one 'Rental (3 days)' row, and an add-on charged by the day one row. Rows only merge when
 * they were paid with the same card and stand in the same state.
 */
function cardLines(
  items: readonly ReceiptTransaction[],
): { id: string | undefined; label: string; card_last_4: string | null; cents: number }[] {
  const rows: {
    id: string | undefined;
    key: string;
    label: string;
    card_last_4: string | null;
    cents: number;
    days: number;
  }[] = [];
  for (const t of items) {
    const key = `${t.category === 'Rack' ? 'Rack' : lineItemLabel(t)}|${t.card_last_4 ?? ''}|${t.status}`;
    const same = rows.find((row) => row.key === key);
    if (same) {
      same.cents += receiptLineCents(t);
      if (t.category === 'Rack') {
        same.days += t.number_of_days ?? 1;
        same.label = rentalLabel(same.days);
      }
      continue;
    }
    rows.push({
      id: t.id,
      key,
      label: lineItemLabel(t),
      card_last_4: t.card_last_4,
      cents: receiptLineCents(t),
      days: t.number_of_days ?? 1,
    });
  }
  return rows;
}
