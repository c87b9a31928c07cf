import {
  ADDON_LABELS,
  FREE_CANCELLATION_DAYS,
  MINIMUM_RENTER_AGE,
  type ReservationStatus,
  SECURITY_DEPOSIT_CENTS,
  UNDERAGE_FEE_CENTS_PER_DAY,
  UNDERAGE_RENTER_AGE,
} from './constants.ts';
import type { TransactionCategory } from './contract/booking.ts';
import { addonTotal, netTotalCents } from './line-items.ts';
import { applyRatePpm, assertCents } from './money.ts';
import type { PricedAddon } from './pricing.ts';
import { rentalDays } from './rental.ts';
import { depositHoldPlaced } from './receipt.ts';
import { type LocalDate, type LocalDateTime, addDays, compareLocal, isTimeZone, toInstant, toLocal } from './time.ts';

/**
 * A reservation's money as line items (the transaction rows the API writes), and the rules the
 * trip pages derive from them (spec 4, "Derived rules"). Decision 012 explains each choice.
 */

export const RACK_DESCRIPTION = 'Daily Rate';
export const TAX_DESCRIPTION = 'Sales Tax';
export const DEPOSIT_DESCRIPTION = 'Security Deposit';
/** Spec 3: the fee for renters under 25 appears with this description. */
export const UNDERAGE_FEE_DESCRIPTION = 'Underage User Fee';

/** The categories sales tax is charged on. The deposit is a hold, not a sale; tax is not taxed. */
export const TAXABLE_CATEGORIES: readonly TransactionCategory[] = ['Rack', 'Addon', 'Damage Waiver', 'Additional'];

/** One transaction row to create: amounts in cents; `amount` is before the discount. */
export interface LineItem {
  category: TransactionCategory;
  description: string;
  /** Unit price: per day for daily items. */
  cost: number;
  amount: number;
  discount_amount: number;
  number_of_days: number | null;
  /** The local date (in the reservation's zone) the item belongs to: each rack row its own day. */
  effective_date: LocalDate;
  addon_id: string | null;
}

export interface BookingInput {
  rackRateCents: number;
  pickup: LocalDateTime;
  return: LocalDateTime;
  /** The vehicle location's zone, in which pickup and return are read. */
  timeZone: string;
  addons: readonly PricedAddon[];
  taxRatePpm: number;
  /** Whole years on the pickup date; null when the birthday is not known yet. */
  renterAgeAtPickup: number | null;
  /** A new booking carries the $200 deposit (spec 9). */
  isNewReservation: boolean;
  /** A PERCENTAGE discount per rental DAY (spec 3), 1–100. */
  discountPercent?: number | null;
}

/** Rule (spec 3: discount type PERCENTAGE, unit DAY): the discount on one rental day, rounded like tax. */
export function dayDiscountCents(rackCents: number, percent: number | null | undefined): number {
  if (!percent) return 0;
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new RangeError(`A discount percent is a whole number 0–100: ${percent}`);
  return applyRatePpm(rackCents, percent * 10_000);
}

/** Rule (spec 9): under 25 at pickup pays the underage fee. */
export function isUnderage(ageAtPickup: number | null | undefined): boolean {
  return ageAtPickup !== null && ageAtPickup !== undefined && ageAtPickup < UNDERAGE_RENTER_AGE;
}

/** Rule (spec 9): the minimum renter age is 18. An unknown age is not refused here (the profile asks for it before payment). */
export function isOldEnoughToRent(ageAtPickup: number | null | undefined): boolean {
  return ageAtPickup === null || ageAtPickup === undefined || ageAtPickup >= MINIMUM_RENTER_AGE;
}

export function rackItem(rackCents: number, date: LocalDate, discountPercent?: number | null): LineItem {
  return {
    category: 'Rack',
    description: RACK_DESCRIPTION,
    cost: rackCents,
    amount: rackCents,
    discount_amount: dayDiscountCents(rackCents, discountPercent),
    number_of_days: 1,
    effective_date: date,
    addon_id: null,
  };
}

/** Daily add-ons cost their price per rental day; ONE_TIME ones (prepaid charging) once. */
export function addonItem(addon: PricedAddon, days: number, date: LocalDate): LineItem {
  assertCents(addon.amount);
  const daily = addon.frequency === 'DAY';
  return {
    category: 'Addon',
    description: ADDON_LABELS[addon.type],
    cost: addon.amount,
    amount: addonTotal(addon, days),
    discount_amount: 0,
    number_of_days: daily ? days : null,
    effective_date: date,
    addon_id: addon.id,
  };
}

export function underageFeeItem(days: number, date: LocalDate): LineItem {
  return {
    category: 'Additional',
    description: UNDERAGE_FEE_DESCRIPTION,
    cost: UNDERAGE_FEE_CENTS_PER_DAY,
    amount: UNDERAGE_FEE_CENTS_PER_DAY * days,
    discount_amount: 0,
    number_of_days: days,
    effective_date: date,
    addon_id: null,
  };
}

export function taxItem(taxCents: number, date: LocalDate): LineItem {
  return {
    category: 'Tax',
    description: TAX_DESCRIPTION,
    cost: taxCents,
    amount: taxCents,
    discount_amount: 0,
    number_of_days: null,
    effective_date: date,
    addon_id: null,
  };
}

export function depositItem(date: LocalDate): LineItem {
  return {
    category: 'Deposit',
    description: DEPOSIT_DESCRIPTION,
    cost: SECURITY_DEPOSIT_CENTS,
    amount: SECURITY_DEPOSIT_CENTS,
    discount_amount: 0,
    number_of_days: null,
    effective_date: date,
    addon_id: null,
  };
}

type Money = { category: string; amount: number; discount_amount: number };

/**
 * Rule: sales tax is the location's rate on the taxable items net of discounts, rounded half away
 * from zero to the cent — the same arithmetic as quoteTrip, so a booking without fee or discount
 * costs exactly what the search card quoted.
 */
export function taxOn(items: readonly Money[], taxRatePpm: number): number {
  const base = netTotalCents(items.filter((i) => (TAXABLE_CATEGORIES as readonly string[]).includes(i.category)));
  return applyRatePpm(base, taxRatePpm);
}

/**
 * The transaction rows a booking creates, all Pending: one Rack row per rental day (dated each
 * local day from the pickup date), one Addon row per add-on, the Underage User Fee for a renter
 * under 25, one Tax row, and for a new reservation the $200 Deposit (a hold: not taxed, not part
 * of the balance).
 */
export function bookingLineItems(input: BookingInput): LineItem[] {
  assertCents(input.rackRateCents);
  if (!isTimeZone(input.timeZone)) throw new RangeError(`Not a time zone: ${input.timeZone}`);
  const days = rentalDays(input.pickup, input.return);
  if (days < 1) throw new RangeError('The return must be after the pickup.');
  const start = input.pickup.date;
  const items: LineItem[] = [];
  for (let i = 0; i < days; i++) items.push(rackItem(input.rackRateCents, addDays(start, i), input.discountPercent));
  for (const addon of input.addons) items.push(addonItem(addon, days, start));
  if (isUnderage(input.renterAgeAtPickup)) items.push(underageFeeItem(days, start));
  items.push(taxItem(taxOn(items, input.taxRatePpm), start));
  if (input.isNewReservation) items.push(depositItem(start));
  return items;
}

// ---------------------------------------------------------------------------------------------
// Rules on a reservation as the API returns it.

export interface TransactionLike {
  category: string;
  status: string;
  amount: number;
  discount_amount: number;
  effective_date: string | null;
  card_last_4?: string | null;
  addon?: { type: string } | null;
  /** Set on an item the deposit hold is to pay (the return's fees, a charge in the review window). */
  stripe_reserve_applied_payment_intent_id?: string | null;
}

export interface ReservationLike {
  status: ReservationStatus;
  pickup_at: string | Date;
  return_at: string | Date;
  timezone: string;
  transactions: readonly TransactionLike[];
  agreements?: readonly { type: string }[];
}

/** Pending, not the deposit, and not waiting to be taken from the deposit hold (decision 092). */
const pendingNonDeposit = (t: TransactionLike) =>
  t.status === 'Pending' && t.category !== 'Deposit' && !t.stripe_reserve_applied_payment_intent_id;

/**
 * Rule: the balance is the pending items other than the deposit, net of their discounts; items the
 * deposit hold is to pay when it settles are not owed by card.
 */
export function paymentBalance(transactions: readonly TransactionLike[]): number {
  return netTotalCents(transactions.filter(pendingNonDeposit));
}

/** Pay page (spec 4): any non-Deposit transaction with status Pending means a payment form. */
export function hasPendingCharges(transactions: readonly TransactionLike[]): boolean {
  return transactions.some(pendingNonDeposit);
}

/**
 * Rule (spec 4): the security deposit is required when no pending Deposit transaction holds it.
 * The Deposit row is written Pending with the booking, before any card is held; the payments
 * feature writes the card's last 4 on it when the hold is authorised (it stays Pending until
 * captured or released). So "pending Deposit" here means a Pending Deposit row with a card on it
 * (shown 'authorized'); a Captured one (after a capture) also counts. Decision 012.
 */
export function securityDepositRequired(transactions: readonly TransactionLike[]): boolean {
  return !transactions.some(
    (t) =>
      t.category === 'Deposit' &&
      (t.status === 'Pending' || t.status === 'Successful' || t.status === 'Captured') &&
      depositHoldPlaced(t),
  );
}

/** Rule (spec 4): outstanding balance — a Deposit transaction exists and a non-deposit one is Pending. */
export function hasOutstandingBalance(transactions: readonly TransactionLike[]): boolean {
  return transactions.some((t) => t.category === 'Deposit') && transactions.some(pendingNonDeposit);
}

/** Rule (spec 4): a trip's damage waiver line is its damage waiver add-on (or a Damage Waiver row), not Canceled. */
export function isDamageWaiverLine(t: Pick<TransactionLike, 'category' | 'status' | 'addon'>): boolean {
  return (
    t.status !== 'Canceled' &&
    (t.category === 'Damage Waiver' || (t.category === 'Addon' && t.addon?.type === 'DAMAGE_WAIVER'))
  );
}

/** Rule (spec 4): the trip has a damage waiver line. */
export function hasDamageWaiver(
  transactions: readonly Pick<TransactionLike, 'category' | 'status' | 'addon'>[],
): boolean {
  return transactions.some(isDamageWaiverLine);
}

const pendingRackDates = (r: ReservationLike) =>
  r.transactions
    .filter((t) => t.category === 'Rack' && t.status === 'Pending' && t.effective_date)
    .map((t) => t.effective_date!)
    .sort();

// Here rather than in constants.ts, which the search page's first download carries; SQL filters use them too.
/** A trip before its pickup: a new booking (Started) or a paid, upcoming one (Pending). */
export const BEFORE_PICKUP_STATUSES = ['Started', 'Pending'] as const satisfies readonly ReservationStatus[];
/** An open trip: paid and not over, upcoming (Pending) or running (On Rent). Only an open trip has a key (spec 4). */
export const OPEN_TRIP_STATUSES = ['Pending', 'On Rent'] as const satisfies readonly ReservationStatus[];

/** Rule (spec 4): a trip's add-ons, coupon and agreements can change, and it can be cancelled, only before its pickup. */
export function isBeforePickup(status: ReservationStatus): boolean {
  return (BEFORE_PICKUP_STATUSES as readonly ReservationStatus[]).includes(status);
}

/** Rule (spec 2 'modify-reservation area', decision 027): a trip's dates can change while it is open, paid and not over. */
export function isOpenTrip(status: ReservationStatus): boolean {
  return (OPEN_TRIP_STATUSES as readonly ReservationStatus[]).includes(status);
}

/** Rule (spec 4): moved-up pickup — the earliest pending rack date is before pickup_at (Pending or On Rent). */
export function movedUpPickup(r: ReservationLike): boolean {
  if (!isOpenTrip(r.status)) return false;
  const first = pendingRackDates(r)[0];
  return first !== undefined && first < toLocal(new Date(r.pickup_at), r.timezone).date;
}

/**
 * Rule (spec 4): extended return — the latest pending rack day is after return_at (Pending or On
 * Rent). A rack day starts at the pickup's clock time on its date, so the last day of an unchanged
 * trip always starts before the return and a day added at the end starts at or after it.
 */
export function extendedReturn(r: ReservationLike): boolean {
  if (!isOpenTrip(r.status)) return false;
  const last = pendingRackDates(r).at(-1);
  if (last === undefined) return false;
  const pickup = toLocal(new Date(r.pickup_at), r.timezone);
  return compareLocal({ date: last, time: pickup.time }, toLocal(new Date(r.return_at), r.timezone)) >= 0;
}

/** A new reservation is one not yet paid for (status Started): deposit and free-cancellation card show. */
export function isNewReservation(r: Pick<ReservationLike, 'status'>): boolean {
  return r.status === 'Started';
}

export type SubmitLabel = 'Confirm Booking' | 'Modify Trip' | 'Extend Trip' | 'Pay Now';

/** Rule (spec 2, payment page): the submit button's label. */
export function submitLabel(r: ReservationLike): SubmitLabel {
  if (isNewReservation(r)) return 'Confirm Booking';
  if (movedUpPickup(r)) return 'Modify Trip';
  if (extendedReturn(r)) return 'Extend Trip';
  return 'Pay Now';
}

export type ConfirmationTitle =
  | 'Your rental is booked!'
  | 'Your trip has been modified!'
  | 'Your trip has been extended!'
  | 'Your Payment was successfull!';

/**
 * Rule (spec 2, confirmation page), read on the reservation as it stood when the renter pressed
 * pay: only pending rack charges → booked; paid and pending rack charges with a moved-up pickup →
 * modified; with an extended return → extended; otherwise the payment message (spelled as the
 * spec shows it).
 */
export function confirmationTitle(r: ReservationLike): ConfirmationTitle {
  const rack = r.transactions.filter((t) => t.category === 'Rack' && t.status !== 'Canceled');
  const pending = rack.some((t) => t.status === 'Pending');
  const paid = rack.some((t) => t.status === 'Successful' || t.status === 'Captured');
  if (pending && !paid) return 'Your rental is booked!';
  if (pending && paid && movedUpPickup(r)) return 'Your trip has been modified!';
  if (pending && paid && extendedReturn(r)) return 'Your trip has been extended!';
  return 'Your Payment was successfull!';
}

export type DateChangeTitle = Extract<
  ConfirmationTitle,
  'Your trip has been modified!' | 'Your trip has been extended!'
>;

/**
 * Rule (spec 2, confirmation titles; decision 027), for a change of dates already applied: read
 * off what it changed — a pickup moved earlier 'modified' (as with a moved-up pickup on the pay
 * page, even when the return moved too), a return moved later 'extended'. Null when the trip's
 * dates were never changed.
 */
export function dateChangeTitle(r: {
  pickup_at: string;
  return_at: string;
  last_change: { pickup_at: string; return_at: string } | null;
}): DateChangeTitle | null {
  const before = r.last_change;
  if (!before) return null;
  if (Date.parse(r.pickup_at) < Date.parse(before.pickup_at)) return 'Your trip has been modified!';
  if (Date.parse(r.return_at) > Date.parse(before.return_at)) return 'Your trip has been extended!';
  return null;
}

export interface SignaturesNeeded {
  damageWaiver: boolean;
  rentalAgreement: boolean;
  /** Either one: payment sends back to the signature page. */
  any: boolean;
}

/**
 * Rule (spec 4): the damage waiver needs a signature when a damage waiver add-on exists and no
 * DAMAGE_WAIVER agreement does; the rental agreement when no RENTAL_AGREEMENT agreement exists.
 */
export function signaturesNeeded(r: Pick<ReservationLike, 'transactions' | 'agreements'>): SignaturesNeeded {
  const signed = new Set((r.agreements ?? []).map((a) => a.type));
  const damageWaiver = hasDamageWaiver(r.transactions) && !signed.has('DAMAGE_WAIVER');
  const rentalAgreement = !signed.has('RENTAL_AGREEMENT');
  return { damageWaiver, rentalAgreement, any: damageWaiver || rentalAgreement };
}

/**
 * Rule (spec 4): the damage waiver page redirects to the trip page unless the status is Started or
 * Pending, and skips ahead to the signature page when the waiver is already on the reservation.
 */
export function damageWaiverRoute(r: Pick<ReservationLike, 'status' | 'transactions'>): 'trip' | 'signature' | 'page' {
  if (!isBeforePickup(r.status)) return 'trip';
  if (hasDamageWaiver(r.transactions)) return 'signature';
  return 'page';
}

/**
 * Rule (spec 4, Booking): after creating a reservation, the damage waiver page comes first when
 * the collision protection add-on exists, was not chosen and the skip-damage-waiver flag is off,
 * or when redirectToDamageWaiver is set; otherwise the signature page.
 */
export function afterBookingRoute(input: {
  waiverAvailable: boolean;
  waiverChosen: boolean;
  skipDamageWaiver: boolean;
  redirectToDamageWaiver?: boolean;
}): 'damage-waiver' | 'signature' {
  if (input.redirectToDamageWaiver) return 'damage-waiver';
  return input.waiverAvailable && !input.waiverChosen && !input.skipDamageWaiver ? 'damage-waiver' : 'signature';
}

/**
 * Rule (spec 4, 9): free cancellation ends "one day before pickup", read on the pickup place's
 * clock: the pickup's clock time on the previous calendar day in the location's zone. Across a
 * daylight-saving change that is 23 or 25 hours before pickup, not 24 (a 10:00 pickup on
 * 2026-03-08 in Chicago can be cancelled until 10:00 on 2026-03-07). A clock time the change
 * skips resolves as the zone's clocks do (02:30 becomes 03:30). The page, the agreement PDF and
 * the API all call this.
 */
export function freeCancellationDeadline(pickupAt: string | Date, timeZone: string): Date {
  const local = toLocal(new Date(pickupAt), timeZone);
  return toInstant({ date: addDays(local.date, -FREE_CANCELLATION_DAYS), time: local.time }, timeZone);
}

/** Rule (spec 4, 9): cancelling is offered, free, only before the free-cancellation deadline, on a trip not yet started. */
export function canCancel(r: Pick<ReservationLike, 'status' | 'pickup_at' | 'timezone'>, now: Date): boolean {
  if (!isBeforePickup(r.status)) return false;
  return now.getTime() < freeCancellationDeadline(r.pickup_at, r.timezone).getTime();
}

/**
 * What a renter reads for a trip's status. The statuses are the operator's words ('Started' is a
 * booking not paid yet, 'Pending' a paid one not yet begun); the page says what they mean to the
 * renter, in the words of My Trips' sections, and 'Cancelled' as the spec spells it.
 */
export const TRIP_STATUS_LABELS: Record<ReservationStatus, string> = {
  Started: 'Awaiting payment',
  Pending: 'Upcoming',
  'On Rent': 'Active',
  Returned: 'Completed',
  Canceled: 'Cancelled',
};

/** Rule (spec 4): Book Again is offered when the trip is Returned or Canceled. */
export function canBookAgain(r: Pick<ReservationLike, 'status'>): boolean {
  return r.status === 'Returned' || r.status === 'Canceled';
}

/** The last name that the built-in soft credit check declines (any case, surrounding spaces ignored). */
export const SOFT_CREDIT_DECLINE_LAST_NAME = 'Decline';

/**
 * The built-in soft credit check (spec 5: eligibility must pass, else the disqualified modal): a
 * deterministic stand-in for a credit bureau. It declines a renter whose last name is 'Decline'
 * (any case) and passes everyone else, so testers can reach both outcomes on purpose.
 */
export function isSoftCreditCheckPassed(renter: { last_name: string | null | undefined }): boolean {
  return (renter.last_name ?? '').trim().toLowerCase() !== SOFT_CREDIT_DECLINE_LAST_NAME.toLowerCase();
}

/** Crockford's base32: digits and capitals without I, L, O, U, so an id read aloud is not misheard. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PLATFORM_ID_PREFIX = 'AMP';

/**
 * A reservation's public id, e.g. 'AMP-7K2Q-9XD4': two groups of four Crockford base32 characters
 * (40 random bits, from the first 5 bytes given; the API passes crypto random bytes).
 */
export function newPlatformId(random: Uint8Array, prefix = PLATFORM_ID_PREFIX): string {
  if (random.length < 5) throw new RangeError('newPlatformId needs at least 5 random bytes');
  let bits = 0;
  let value = 0;
  let out = '';
  for (let i = 0; out.length < 8;) {
    if (bits < 5) {
      value = ((value << 8) | random[i++]!) & 0xffff;
      bits += 8;
    }
    out += CROCKFORD[(value >> (bits - 5)) & 31];
    bits -= 5;
  }
  return `${prefix}-${out.slice(0, 4)}-${out.slice(4)}`;
}

/** Whether a string has the shape newPlatformId makes. */
export function isPlatformId(value: string): boolean {
  return /^[A-Z]{2,5}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/.test(value);
}
