import { ADDON_LABELS, type AddonType } from './constants.ts';
import { assertCents } from './money.ts';

/**
 * How a trip's line items read and in what order they are listed (spec 4 'Receipt grouping':
 * Rack, Addon, Additional, Violation, Incidental, Reimbursement). The trip page, the pay page, the
 * receipts, their PDF and the API's reservation payload all list items by these.
 */

/** Spec 4's order of items, with the categories it does not place (the waiver row, tax, the deposit) after their kin. */
const ITEM_ORDER: readonly string[] = [
  'Rack',
  'Addon',
  'Damage Waiver',
  'Additional',
  'Violation',
  'Incidental',
  'Reimbursement',
  'Tax',
  'Deposit',
];

/** Where a category sits in that order; anything unknown goes last. */
export function itemRank(category: string): number {
  const i = ITEM_ORDER.indexOf(category);
  return i === -1 ? ITEM_ORDER.length : i;
}

/** Sorts by that order, keeping the given order within a category. */
export function byItemOrder<T extends { category: string }>(items: readonly T[]): T[] {
  return items
    .map((t, i) => ({ t, i }))
    .sort((a, b) => itemRank(a.t.category) - itemRank(b.t.category) || a.i - b.i)
    .map(({ t }) => t);
}

export const TAX_LABEL = 'Sales tax';
/** A coupon's line: 'Discount (WELCOME10)', or 'Discount' when the code is not known. */
export const discountLabel = (code: string | null | undefined) => (code ? `Discount (${code})` : 'Discount');
export const DEPOSIT_LABEL = 'Security deposit';

/** 'Rental (1 day)', 'Rental (3 days)'; 'Rental' when the days are not known. */
export function rentalLabel(days: number | null | undefined): string {
  if (days === null || days === undefined) return 'Rental';
  return `Rental (${days} ${days === 1 ? 'day' : 'days'})`;
}

export interface LabelledItem {
  category: string;
  description?: string | null;
  number_of_days?: number | null;
  addon?: { type: AddonType } | null;
}

/** A line item as the renter reads it: the add-on's name, the rental's days, 'Sales tax', or the item's own description. */
export function lineItemLabel(t: LabelledItem): string {
  if (t.addon) return ADDON_LABELS[t.addon.type];
  if (t.category === 'Damage Waiver') return ADDON_LABELS.DAMAGE_WAIVER;
  if (t.category === 'Rack') return rentalLabel(t.number_of_days);
  if (t.category === 'Tax') return TAX_LABEL;
  if (t.category === 'Deposit') return DEPOSIT_LABEL;
  return t.description || t.category;
}

/** What a line item costs after its discount. */
export const netCents = (t: { amount: number; discount_amount: number }) => t.amount - t.discount_amount;

/** Rule: what a set of line items costs, each net of its discount. Every balance, total and charge sums this way. */
export function netTotalCents(items: readonly { amount: number; discount_amount: number }[]): number {
  return items.reduce((sum, t) => sum + netCents(t), 0);
}

export interface GroupedLine {
  label: string;
  cents: number;
  discountCents: number;
}

/**
 * Line items for display: one row per label (the rental's days summed into one row, each add-on,
 * tax), in the order above, with the amounts summed.
 */
export function groupedLines(
  items: readonly (LabelledItem & { amount: number; discount_amount: number })[],
): GroupedLine[] {
  const rows = new Map<string, GroupedLine & { rank: number; days: number }>();
  for (const t of byItemOrder(items)) {
    const key = t.category === 'Rack' ? 'Rack' : lineItemLabel(t);
    const row = rows.get(key) ?? { label: key, cents: 0, discountCents: 0, rank: itemRank(t.category), days: 0 };
    row.cents += t.amount;
    row.discountCents += t.discount_amount;
    if (t.category === 'Rack') {
      row.days += t.number_of_days ?? 1;
      row.label = rentalLabel(row.days);
    }
    rows.set(key, row);
  }
  return [...rows.values()].map(({ label, cents, discountCents }) => ({ label, cents, discountCents }));
}

export type ChargeFrequency = 'DAY' | 'ONE_TIME';

/**
 * Rule (spec 5): what an add-on costs for the whole trip. A daily one is its price per day times
 * the rental days (so the waiver total), a one-off one its price once.
 */
export function addonTotal(addon: { amount: number; frequency: ChargeFrequency }, days: number): number {
  assertCents(addon.amount);
  return addon.frequency === 'DAY' ? addon.amount * days : addon.amount;
}

/** What places a line or a charge among its group's others (see `byLineOrder`). */
export interface LineOrderKey {
  category: string;
  /** When it was posted or initiated. */
  at: string | Date | null;
  /** The day it is for, when it is one of several days' lines (a rental's days). */
  day?: string | null;
  /** True for an administration fee posted with the charge it administers (a ticket's fee). */
  administration?: boolean;
  id: string;
}

const instantOf = (at: string | Date | null): number => (at === null ? 0 : new Date(at).getTime() || 0);

/**
 * The one order of lines within a group, every tie broken so two runs list them alike (the trip
 * page's and the console's charges after the trip, and the lines of each receipt card, on the page
 * and in the PDF): spec 4's category order, then the time posted or initiated, then the day it is
 * for, then a charge before the administration fee that comes with it, then the id.
 */
export function byLineOrder<T>(items: readonly T[], key: (t: T) => LineOrderKey): T[] {
  return items
    .map((t) => ({ t, k: key(t) }))
    .sort(
      (a, b) =>
        itemRank(a.k.category) - itemRank(b.k.category) ||
        instantOf(a.k.at) - instantOf(b.k.at) ||
        (a.k.day ?? '').localeCompare(b.k.day ?? '') ||
        Number(a.k.administration ?? false) - Number(b.k.administration ?? false) ||
        (a.k.id < b.k.id ? -1 : a.k.id > b.k.id ? 1 : 0),
    )
    .map(({ t }) => t);
}
