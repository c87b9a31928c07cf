import { ADDON_LABELS } from '@ampere/domain/constants';
import type { Reservation, Transaction, TransactionStatus } from '@ampere/domain/contract/booking';
import { formatInstant } from '@ampere/domain/format';
import { freeCancellationDeadline, hasDamageWaiver, signaturesNeeded } from '@ampere/domain/booking';

/**
 * Display helpers for the booking flow and trip pages. The rules themselves (submit label,
 * confirmation title, signatures needed, where to go after booking) are the domain's, in
 * packages/domain/src/booking.ts; re-exported here so pages import one module.
 */
export { afterBookingRoute, confirmationTitle, damageWaiverRoute, hasPendingCharges, signaturesNeeded, submitLabel } from '@ampere/domain/booking';
export { formatInstant, formatInstantInZone, zoneAbbreviation } from '@ampere/domain/format';

type Tx = Pick<Transaction, 'category' | 'status' | 'amount' | 'discount_amount' | 'addon' | 'effective_date'>;
type WithTx = { transactions: Tx[] };

export const isDeposit = (t: Tx) => t.category === 'Deposit';
/** What a line item costs after its discount. */
export const netCents = (t: Pick<Tx, 'amount' | 'discount_amount'>) => t.amount - t.discount_amount;
const isDamageWaiver = (t: Tx) => t.addon?.type === 'DAMAGE_WAIVER' || t.category === 'Damage Waiver';
const dead = (s: TransactionStatus) => s === 'Canceled' || s === 'Failed';

/** Line items that count toward the trip's price: everything but the deposit, less anything canceled or failed. */
export const chargeItems = <T extends Tx>(r: { transactions: T[] }): T[] => r.transactions.filter((t) => !isDeposit(t) && !dead(t.status));

/** Booking navbar total: the reservation's non-deposit line items net of discounts. */
export const tripTotalCents = (r: WithTx) => chargeItems(r).reduce((sum, t) => sum + netCents(t), 0);

/** Spec 4 (pay page): any non-Deposit line item still Pending is a balance to pay. */
export const pendingCharges = <T extends Tx>(r: { transactions: T[] }): T[] => r.transactions.filter((t) => !isDeposit(t) && t.status === 'Pending');
export const pendingTotalCents = (r: WithTx) => pendingCharges(r).reduce((sum, t) => sum + netCents(t), 0);

/** The add-ons already on the reservation and not yet paid: PATCH addons sends these plus the waiver. */
export function pendingAddonIds(r: WithTx): string[] {
  return [...new Set(r.transactions.filter((t) => t.addon && t.status === 'Pending').map((t) => t.addon!.id))];
}

/** Collision protection is on the trip (paid or not). */
export const hasDamageWaiverOn = (r: WithTx & { damage_waiver?: boolean }) => !!r.damage_waiver || hasDamageWaiver(r.transactions);
/** Collision protection is on the trip and not yet paid. */
export const damageWaiverPending = (r: WithTx) => r.transactions.some((t) => isDamageWaiver(t) && t.status === 'Pending');

/** Spec 4: a signature is still missing (rental agreement, or the waiver when collision protection is on). */
export const signaturesMissing = (r: Parameters<typeof signaturesNeeded>[0]) => signaturesNeeded(r).any;

/** Spec 4 (receipt labels) for the deposit's status: the domain's rule. */
export { depositReceiptLabel as depositLabel } from '@ampere/domain/receipt';

/** A line item as the renter reads it. */
export function lineItemLabel(t: Pick<Transaction, 'category' | 'description' | 'addon' | 'number_of_days'>): string {
  if (t.addon) return ADDON_LABELS[t.addon.type];
  if (t.category === 'Damage Waiver') return ADDON_LABELS.DAMAGE_WAIVER;
  if (t.category === 'Rack') return t.number_of_days ? `Rental (${t.number_of_days} ${t.number_of_days === 1 ? 'day' : 'days'})` : 'Rental';
  if (t.category === 'Tax') return 'Sales tax';
  if (t.category === 'Deposit') return 'Security deposit';
  return t.description || t.category;
}

/**
 * Line items grouped for display: one row per label (a rental's days, each add-on, tax), in the
 * order the receipt uses, with the amounts summed.
 */
export function groupedLines(items: Pick<Transaction, 'category' | 'description' | 'addon' | 'number_of_days' | 'amount' | 'discount_amount'>[]): { label: string; cents: number; discountCents: number }[] {
  const ORDER = ['Rack', 'Addon', 'Damage Waiver', 'Additional', 'Violation', 'Incidental', 'Reimbursement', 'Tax'];
  const rows = new Map<string, { label: string; cents: number; discountCents: number; order: number; days: number }>();
  for (const t of items) {
    const key = t.category === 'Rack' ? 'Rack' : lineItemLabel(t);
    const row = rows.get(key) ?? { label: '', cents: 0, discountCents: 0, order: ORDER.indexOf(t.category) === -1 ? ORDER.length : ORDER.indexOf(t.category), days: 0 };
    row.cents += t.amount;
    row.discountCents += t.discount_amount;
    row.days += t.category === 'Rack' ? (t.number_of_days ?? 1) : 0;
    row.label = t.category === 'Rack' ? lineItemLabel({ ...t, number_of_days: row.days }) : key;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.order - b.order).map(({ label, cents, discountCents }) => ({ label, cents, discountCents }));
}

/** Spec 9: free cancellation until one day before pickup, on the pickup place's clock (the domain rule). */
export function freeCancellationUntil(r: Pick<Reservation, 'pickup_at' | 'pickup_location'>): string {
  const zone = r.pickup_location.timezone;
  return formatInstant(freeCancellationDeadline(r.pickup_at, zone).toISOString(), zone);
}
