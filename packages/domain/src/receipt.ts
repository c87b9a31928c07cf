import { ADDON_LABELS } from './constants.ts';
import { isWaivedFee, waivedNote } from './end-trip.ts';
import { endingIn, formatDateShort, formatInstantInZone } from './format.ts';
import { TAX_LABEL, discountLabel, lineItemLabel, netTotalCents, rentalLabel } from './line-items.ts';
import { formatTotal } from './money.ts';
import { groupThousands } from './format-number.ts';
import {
  type ReceiptCard,
  type ReceiptPayment,
  type ReceiptTransaction,
  grossPaidCents,
  paidCents,
  receiptCards,
  refundedCents,
} from './receipt-cards.ts';
import { toLocal } from './time.ts';

export {
  type ReceiptCard,
  type ReceiptCardKind,
  type ReceiptLabel,
  type ReceiptPayment,
  type ReceiptTransaction,
  depositHoldPlaced,
  depositLabel,
  depositReceiptLabel,
  grossPaidCents,
  onReceipt,
  paidCents,
  receiptCards,
  refundedCents,
} from './receipt-cards.ts';

/**
 * Receipts (spec 4 'Receipt card labels' and 'Receipt grouping', spec 2 'Receipt pages', decision
 * 051): everything the receipt shows, already worded, from the cards of ./receipt-cards.ts. The trip's receipt page, the shared (token) receipt page and the
 * receipt PDF all render `receiptView`, so they cannot disagree.
 */

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

/** What a receipt is made from: the trip, its ride, its payments and its transactions, as the API sends them. */
export interface ReceiptSource {
  platform_id: string;
  pickup_at: string;
  return_at: string;
  /** The pickup place's zone: every time on the receipt is on its clock. */
  timezone: string;
  vehicle: { vin: string; year: number; model: { name: string } };
  damage_waiver: boolean;
  /** The coupon on the trip, named on the discount line. */
  discount_code: string | null;
  rides: readonly RideReadings[];
  payments: readonly ReceiptPayment[];
  transactions: readonly ReceiptTransaction[];
}

export interface ReceiptViewLine {
  key: string;
  label: string;
  /** 'Pulled from security deposit' on a fee kept from the deposit; null otherwise. */
  note: string | null;
  amount: string;
}

export interface ReceiptViewCard {
  key: string;
  title: string;
  /** Spec 4's label, in full ('Payment', 'Partially Captured', 'Refund', …). */
  label: string;
  date: string;
  /** What the card's total is: 'Total' paid, 'Kept from deposit', or 'Refunded' (a negative amount). */
  totalLabel: 'Total' | 'Kept from deposit' | 'Refunded';
  total: string;
  /** A deposit's card: '$200.00 held → $45.00 kept for the Recharge Fee → $155.00 released on Dec 3, 2026'. */
  story: string | null;
  lines: ReceiptViewLine[];
  /** 'Paid with card ending in ...4242', 'Held on …', 'Refunded to …'; null when no card is known. */
  paidWith: string | null;
}

export interface ReceiptView {
  heading: 'Your Receipts';
  /** 'Total paid': what the renter paid, net of refunds. */
  total: string;
  /** When anything was refunded, what was paid and what was given back (total = paid − refunded); null otherwise. */
  refunds: { paid: string; refunded: string } | null;
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

/** Spec 4's 'Pulled from' reads in full as 'Pulled from security deposit'; the other labels as they are. */
export function receiptLabelText(label: string): string {
  return label === 'Pulled from' ? PULLED_FROM_DEPOSIT : label;
}
const PULLED_FROM_DEPOSIT = 'Pulled from security deposit';

/** Spec 2: 'Receipt #{second part of the id}-{001 numbering}'. */
export function receiptTitle(platformId: string, index: number): string {
  const part = platformId.split('-')[1] ?? platformId;
  return `Receipt #${part}-${String(index + 1).padStart(3, '0')}`;
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
 * Spec 2 'Receipt pages', worded: the total paid (with what was paid and refunded when anything
 * was), the car, the dates (the ride's actual pickup and return when present, else the
 * reservation's), the Damage Waiver badge, mileage and battery out and in, and the cards titled
 * 'Receipt #{part}-{001}'. Times on the pickup place's clock.
 */
export function receiptView(r: ReceiptSource): ReceiptView {
  const zone = r.timezone;
  const ride = r.rides[0];
  const cards = receiptCards(r.transactions, r.payments);
  const titles = cards.map((_, i) => receiptTitle(r.platform_id, i));
  const refunded = refundedCents(r.transactions);
  return {
    heading: RECEIPT_HEADING,
    total: formatTotal(paidCents(r.transactions)),
    refunds:
      refunded > 0 ? { paid: formatTotal(grossPaidCents(r.transactions)), refunded: formatTotal(refunded) } : null,
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
    cards: cards.map((card, i) => {
      const base = {
        key: titles[i]!,
        title: titles[i]!,
        label: receiptLabelText(card.label),
        date: formatInstantInZone(card.at, zone),
      };
      if (card.kind === 'deposit') return { ...base, ...depositCard(card, zone) };
      if (card.kind === 'refund') {
        const paid = cards.findIndex((c) => c.kind !== 'refund' && c.payment !== null && c.payment === card.payment);
        return { ...base, ...refundCard(card, paid === -1 ? null : titles[paid]!) };
      }
      if (card.label === 'Waived') return { ...base, ...waivedCard(card) };
      return { ...base, ...paymentCard(card, r.discount_code) };
    }),
  };
}

type CardBody = Omit<ReceiptViewCard, 'key' | 'title' | 'label' | 'date'>;
const cardOf = (verb: string, last4: string | null) => (last4 ? `${verb} card ${endingIn(last4)}` : null);

/** A charge: its items at their price, the coupon's discount, the tax, and the card it was paid with. */
function paymentCard(card: ReceiptCard<ReceiptTransaction>, discountCode: string | null): CardBody {
  const discount = card.items.reduce((sum, t) => sum + t.discount_amount, 0);
  const lines = itemLines(card.items, null);
  if (discount > 0) {
    // The discount comes off before the tax, which is on the discounted price.
    const tax = lines.findIndex((l) => l.label === TAX_LABEL);
    lines.splice(tax === -1 ? lines.length : tax, 0, {
      key: `${card.at}-discount`,
      label: discountLabel(discountCode),
      note: null,
      amount: formatTotal(-discount),
    });
  }
  return {
    totalLabel: 'Total',
    total: formatTotal(netTotalCents(card.items)),
    story: null,
    lines,
    paidWith: cardOf('Paid with', card.card_last_4),
  };
}

/**
 * A deposit hold told as one story, from the ledger: what was held, what was kept and for which
 * fees, and what was released and when (on the place's clock). The receipt's deposit card and the
 * summary after End Trip both say it this way:
 * '$200.00 held → $45.00 kept for the Recharge Fee → $155.00 released on Dec 3, 2026'.
 */
export function depositStory(
  d: { held: number; kept: number; releasedAt: string | null; fees: readonly string[] },
  zone: string,
): string {
  const story = [`${formatTotal(d.held)} held`];
  if (d.kept > 0) story.push(`${formatTotal(d.kept)} kept${feeNames(d.fees)}`);
  const released = d.held - d.kept;
  if (d.releasedAt && released > 0) {
    const on = formatDateShort(toLocal(new Date(d.releasedAt), zone).date);
    story.push(`${formatTotal(released)} released on ${on}`);
  }
  return story.join(' → ');
}

/** The deposit's card: its story, and the fees kept as its lines. */
function depositCard(card: ReceiptCard<ReceiptTransaction>, zone: string): CardBody {
  const deposit = card.items.find((t) => t.category === 'Deposit')!;
  const fees = card.items.filter((t) => t.category !== 'Deposit' && !isWaivedFee(t));
  const kept = deposit.status === 'Captured' || deposit.status === 'Refunded' ? deposit.captured_amount : 0;
  return {
    totalLabel: 'Kept from deposit',
    total: formatTotal(kept),
    story: depositStory(
      { held: deposit.amount, kept, releasedAt: deposit.released_at, fees: fees.map(lineItemLabel) },
      zone,
    ),
    lines: [...itemLines(fees, PULLED_FROM_DEPOSIT), ...waivedLines(card.items.filter(isWaivedFee))],
    paidWith: cardOf('Held on', card.card_last_4),
  };
}

/** The fees written off below the minimum card charge (decision 056): each named, nothing taken. */
function waivedLines(items: readonly ReceiptTransaction[]): ReceiptViewLine[] {
  return items.map((t, i) => ({
    key: t.id ?? `${t.initiated_at}-waived-${i}`,
    label: lineItemLabel(t),
    note: waivedNote(t.amount),
    amount: formatTotal(0),
  }));
}

/** A card of waived fees alone, when no deposit hold was there to keep the others: it charged nothing. */
function waivedCard(card: ReceiptCard<ReceiptTransaction>): CardBody {
  return { totalLabel: 'Total', total: formatTotal(0), story: null, lines: waivedLines(card.items), paidWith: null };
}

/** ' for the Recharge Fee and the Late Return Fee': the fees' names without their details in brackets. */
function feeNames(labels: readonly string[]): string {
  const names = [...new Set(labels.map((label) => label.replace(/\s*\(.*\)$/, '')))].map((n) => `the ${n}`);
  if (names.length === 0) return '';
  const last = names.pop()!;
  return ` for ${names.length > 0 ? `${names.join(', ')} and ${last}` : last}`;
}

/** A payment given back: how much, of which receipt, to which card. */
function refundCard(card: ReceiptCard<ReceiptTransaction>, paidTitle: string | null): CardBody {
  const total = formatTotal(-netTotalCents(card.items));
  return {
    totalLabel: 'Refunded',
    total,
    story: null,
    lines: [
      { key: `${card.at}-refund`, label: paidTitle ? `Refund of ${paidTitle}` : 'Refund', note: null, amount: total },
    ],
    paidWith: cardOf('Refunded to', card.card_last_4),
  };
}

/**
 * A card's items as a renter reads them, at their price before any discount, as the trip page
 * groups them: a rental written a row per day is one 'Rental (3 days)' row, and an add-on charged
 * by the day one row.
 */
function itemLines(items: readonly ReceiptTransaction[], note: string | null): ReceiptViewLine[] {
  const rows: (ReceiptViewLine & { group: string; cents: number; days: number })[] = [];
  for (const t of items) {
    const group = t.category === 'Rack' ? 'Rack' : lineItemLabel(t);
    const same = rows.find((row) => row.group === group);
    if (same) {
      same.cents += t.amount;
      if (t.category === 'Rack') {
        same.days += t.number_of_days ?? 1;
        same.label = rentalLabel(same.days);
      }
      continue;
    }
    rows.push({
      key: t.id ?? `${t.initiated_at}-${rows.length}`,
      group,
      label: lineItemLabel(t),
      note,
      amount: '',
      cents: t.amount,
      days: t.number_of_days ?? 1,
    });
  }
  return rows.map(({ key, label, cents }) => ({ key, label, note, amount: formatTotal(cents) }));
}
