import type { Reservation, Transaction, TransactionStatus } from '@ampere/domain/contract/booking';
import { formatInstant } from '@ampere/domain/format';
import { hasDamageWaiver, isDamageWaiverLine, paymentBalance, signaturesNeeded } from '@ampere/domain/booking';
import { netTotalCents } from '@ampere/domain/line-items';

/**
 * Display helpers for a reservation, used by the booking flow and the trip pages (and by home, which
 * shows the next trip). The rules themselves (submit label, confirmation title, signatures needed,
 * where to go after booking) are the domain's, in packages/domain/src/booking.ts; re-exported here
 * so pages import one module.
 */
export {
  afterBookingRoute,
  confirmationTitle,
  damageWaiverRoute,
  hasPendingCharges,
  signaturesNeeded,
  submitLabel,
} from '@ampere/domain/booking';
export { formatInstant, formatInstantInZone } from '@ampere/domain/format';

type Tx = Pick<Transaction, 'category' | 'status' | 'amount' | 'discount_amount' | 'addon' | 'effective_date'>;
type WithTx = { transactions: Tx[] };

const isDeposit = (t: Tx) => t.category === 'Deposit';
const dead = (s: TransactionStatus) => s === 'Canceled' || s === 'Failed';

/** Line items that count toward the trip's price: everything but the deposit, less anything canceled or failed. */
export const chargeItems = <T extends Tx>(r: { transactions: T[] }): T[] =>
  r.transactions.filter((t) => !isDeposit(t) && !dead(t.status));

/** Booking navbar total: the reservation's non-deposit line items net of discounts. */
export const tripTotalCents = (r: WithTx) => netTotalCents(chargeItems(r));

/** Spec 4 (pay page): any non-Deposit line item still Pending is a balance to pay. */
export const pendingCharges = <T extends Tx>(r: { transactions: T[] }): T[] =>
  r.transactions.filter((t) => !isDeposit(t) && t.status === 'Pending');
/** The balance still to pay (the domain's rule). */
export const pendingTotalCents = (r: WithTx) => paymentBalance(r.transactions);

/** The add-ons already on the reservation and not yet paid: PATCH addons sends these plus the waiver. */
export function pendingAddonIds(r: WithTx): string[] {
  return [...new Set(r.transactions.filter((t) => t.addon && t.status === 'Pending').map((t) => t.addon!.id))];
}

/** Collision protection is on the trip (paid or not). */
export const hasDamageWaiverOn = (r: WithTx & { damage_waiver?: boolean }) =>
  !!r.damage_waiver || hasDamageWaiver(r.transactions);
/** Collision protection is on the trip and not yet paid. */
export const damageWaiverPending = (r: WithTx) =>
  r.transactions.some((t) => isDamageWaiverLine(t) && t.status === 'Pending');

/** Spec 4: a signature is still missing (rental agreement, or the waiver when collision protection is on). */
export const signaturesMissing = (r: Parameters<typeof signaturesNeeded>[0]) => signaturesNeeded(r).any;

/** How line items read and group, and the deposit's label (none before a hold exists): the domain's rules. */
export { groupedLines } from '@ampere/domain/line-items';
export { depositLabel } from '@ampere/domain/receipt';

/** Spec 9: when free cancellation ends (the server's answer, by the domain rule), on the pickup place's clock. */
export function freeCancellationUntil(r: Pick<Reservation, 'free_cancellation_until' | 'pickup_location'>): string {
  return formatInstant(r.free_cancellation_until, r.pickup_location.timezone);
}
