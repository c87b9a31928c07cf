import { type ChargeKind, FEE_CATALOGUE, type FeeTypeId } from './fees.ts';
import { normalisePlate } from './fleet.ts';
import { byLineOrder } from './line-items.ts';
import { endingIn } from './format.ts';
import { formatTotal } from './money.ts';
import type { TransactionCategory } from './contract/booking.ts';
import { PAYMENT_INTENT_STATUSES } from './payment-statuses.ts';

/**
 * Charges after the trip, their disputes, the deposit's review window and the toll import
 * (issue 30 §2 and §3, decisions 091–093). The console, the renter's charge page, the API and the
 * receipts read these rules from here.
 */

/**
 * A charge's state:
 * - `posted`: written and waiting for its money (on the deposit hold, taken when the hold settles);
 * - `collected`: taken from the deposit hold (its one partial capture);
 * - `charged`: charged to the trip's card, off-session (all of it, or the part the hold could not cover);
 * - `owed`: the card refused it; the renter owes it and is told;
 * - `disputed`: the renter disputed it within the window; one not yet collected waits;
 * - `upheld`: the dispute was rejected; the charge stands (and is collected if it had waited);
 * - `refunded`: the dispute was accepted; what was taken is refunded, and nothing more is taken.
 */
export const CHARGE_STATUSES = ['posted', 'collected', 'charged', 'owed', 'disputed', 'upheld', 'refunded'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** What a renter and staff read for each state. */
export const CHARGE_STATUS_LABELS: Record<ChargeStatus, string> = {
  posted: 'Posted',
  collected: 'Taken from deposit',
  charged: 'Charged to card',
  owed: 'Payment due',
  disputed: 'Disputed',
  upheld: 'Dispute rejected',
  refunded: 'Refunded',
};

/** How long after a charge is posted the renter may dispute it. */
export const DISPUTE_WINDOW_HOURS = 72;

/** The last instant a charge posted at `postedAt` can be disputed. */
export function disputeOpenUntil(postedAt: Date): Date {
  return new Date(postedAt.getTime() + DISPUTE_WINDOW_HOURS * 3_600_000);
}

/** The most a renter may write when disputing, and the least. */
export const DISPUTE_REASON_MIN = 10;
export const DISPUTE_REASON_MAX = 2_000;

export type DisputeCheck = { ok: true } | { ok: false; status: 409 | 422; message: string };

/** Whether a charge can be disputed now: once, within the window, and not after it was refunded. */
export function canDispute(
  charge: { status: ChargeStatus; postedAt: Date; disputed: boolean },
  now: Date,
): DisputeCheck {
  if (charge.disputed || charge.status === 'disputed' || charge.status === 'upheld')
    return { ok: false, status: 409, message: 'This charge was already disputed; one dispute per charge.' };
  if (charge.status === 'refunded')
    return { ok: false, status: 409, message: 'This charge was refunded; there is nothing to dispute.' };
  if (now.getTime() > disputeOpenUntil(charge.postedAt).getTime())
    return {
      ok: false,
      status: 422,
      message: `Charges can be disputed for ${DISPUTE_WINDOW_HOURS} hours after they are posted; this one's window has closed. Contact support.`,
    };
  return { ok: true };
}

/**
 * Whether money is taken for a charge now: a charge not yet collected waits while disputed; one
 * already collected stays collected until the dispute is decided (accepting it refunds it).
 */
export function collectsNow(status: ChargeStatus): boolean {
  return status === 'posted' || status === 'owed' || status === 'upheld';
}

/** The charge's state once a dispute on it is decided. */
export function afterDecision(outcome: DisputeOutcome): ChargeStatus {
  return outcome === 'accepted' ? 'refunded' : 'upheld';
}

export const DISPUTE_OUTCOMES = ['accepted', 'rejected'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
/** A staff member's written reason for rejecting a dispute: required, and at least this long. */
export const DISPUTE_DECISION_REASON_MIN = 10;

/** The ledger category (spec 3 Transaction) a charge of this fee type is booked in. */
export function chargeCategory(type: FeeTypeId): TransactionCategory {
  const byKind: Record<ChargeKind, TransactionCategory> = {
    INCIDENTAL: 'Incidental',
    VIOLATION: 'Violation',
    REIMBURSEMENT: 'Reimbursement',
    ADDON: 'Addon',
  };
  return byKind[FEE_CATALOGUE[type].charge];
}

/**
 * Where a charge's money comes from: what the deposit hold can still cover first (its amount less
 * what is already linked to it), then the trip's card off-session for the rest.
 */
export function splitCharge(amount: number, holdRoom: number): { fromHold: number; toCard: number } {
  const fromHold = Math.max(0, Math.min(amount, holdRoom));
  return { fromHold, toCard: amount - fromHold };
}

// ---- the deposit's review window (decision 092) ----

/**
 * After a return the deposit hold stays authorised this long, so a charge found in the review
 * (cleaning, damage, a missing key) comes from the hold first. It is settled — one partial capture
 * of everything linked to it, the rest released — when staff release it, or when the window ends.
 */
export const DEPOSIT_REVIEW_HOURS = 24;

/** When a trip returned at `returnedAt` has its deposit settled if staff have not done it sooner. */
export function depositReviewEndsAt(returnedAt: Date): Date {
  return new Date(returnedAt.getTime() + DEPOSIT_REVIEW_HOURS * 3_600_000);
}

/** Stripe keeps an uncaptured card authorisation for 7 days; the hold is renewed before that (decision 028). */
export const HOLD_AUTHORISATION_DAYS = 7;

/** When an authorisation placed at `placedAt` lapses at the card network. */
export function holdExpiresAt(placedAt: Date): Date {
  return new Date(placedAt.getTime() + HOLD_AUTHORISATION_DAYS * 86_400_000);
}

/** The console's status of a deposit hold. */
export const DEPOSIT_STATUSES = ['authorised', 'in_review', 'captured', 'released', 'failed', 'pending'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = {
  pending: 'Not placed yet',
  authorised: 'Held',
  in_review: 'Held for review',
  captured: 'Partially captured',
  released: 'Released',
  failed: 'Failed',
};

// ---- tolls and tickets from a CSV (decision 093) ----

/** The toll/ticket CSV's columns (a header row; either plate or vin per row). */
/** 'at' is an ISO instant with its offset; 'amount' is in dollars as statements write it ('4.75'). */
export const TOLL_CSV_COLUMNS = ['type', 'plate', 'vin', 'at', 'amount', 'reference', 'description'] as const;
export const TOLL_CSV_TYPES = ['toll', 'ticket'] as const;
export type TollCsvType = (typeof TOLL_CSV_TYPES)[number];
/** The most rows one import may carry. */
export const TOLL_CSV_MAX_ROWS = 2_000;

export interface TripWindow {
  tripId: string;
  vehicleId: number;
  vin: string;
  plate: string | null;
  pickupAt: Date;
  /** When the car came back; a trip still out runs until now. */
  returnedAt: Date | null;
}

export type TollMatch =
  { ok: true; trip: TripWindow } | { ok: false; reason: 'no car' | 'no trip' | 'several trips'; message: string };

/**
 * The trip a toll or ticket belongs to: the car by its plate (normalised) or its VIN, and the
 * trip of that car whose pickup..return holds the toll's time (a trip still out: until now).
 */
export function matchToll(
  row: { plate?: string | null; vin?: string | null; at: Date },
  trips: readonly TripWindow[],
  now: Date,
): TollMatch {
  const plate = row.plate ? normalisePlate(row.plate) : '';
  const vin = row.vin ? row.vin.trim().toUpperCase() : '';
  const ofCar = trips.filter((t) => (plate !== '' && t.plate === plate) || (vin !== '' && t.vin === vin));
  if (ofCar.length === 0)
    return {
      ok: false,
      reason: 'no car',
      message: `No trip of a car with ${plate ? `plate ${plate}` : `VIN ${vin}`}.`,
    };
  const at = row.at.getTime();
  const within = ofCar.filter((t) => at >= t.pickupAt.getTime() && at <= (t.returnedAt ?? now).getTime());
  if (within.length === 0)
    return { ok: false, reason: 'no trip', message: 'The car was not out on a trip at that time.' };
  if (within.length > 1)
    return { ok: false, reason: 'several trips', message: 'More than one trip of the car covers that time.' };
  return { ok: true, trip: within[0]! };
}

// ---- the books (gateway = ledger = receipt) ----

/** What one payment (a charge, or a hold) took and gave back, as the provider keeps it. */
export interface GatewayBooks {
  captured: number;
  refunded: number;
}

/** What the provider kept across a trip's payments: captured less refunded, never negative. */
export function keptCents(payments: readonly GatewayBooks[]): number {
  return payments.reduce((sum, p) => sum + p.captured - p.refunded, 0);
}

/** The most that can still be refunded from one payment. */
export function refundableCents(p: GatewayBooks): number {
  return Math.max(0, p.captured - p.refunded);
}

export const REFUND_REASON_MIN = 5;

// ---- evidence files ----

/** The largest evidence file (a photo or a scanned document). */
export const EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;
/** The files evidence may be, by their first bytes (not the name or the declared type). */
export const EVIDENCE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** What a file is by its first bytes, or null when it is none of the kinds evidence may be. */
export function sniffEvidenceType(bytes: Uint8Array): EvidenceType | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (at(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return null;
}

// ---- a charge's state from its ledger ----

/** How a charge's amount stands in the ledger, in cents (each part at most the amount). */
export interface ChargeMoney {
  /** Linked to the deposit hold, taken when it settles. */
  onHold: number;
  /** Taken from the hold (captured). */
  fromDeposit: number;
  /** Charged to the card. */
  toCard: number;
  /** Not paid: the card refused it, or it waits (disputed). */
  owed: number;
  /** Given back. */
  refunded: number;
}

/**
 * A charge's state, read from its dispute and its money (the ledger is the truth; the stored
 * state is a cache for queries): a dispute decides it once opened; otherwise what is owed, then
 * what waits on the hold, then where it was paid from.
 */
export function chargeStatusOf(money: ChargeMoney, dispute: { outcome: DisputeOutcome | null } | null): ChargeStatus {
  if (dispute) return dispute.outcome === null ? 'disputed' : afterDecision(dispute.outcome);
  const collected = money.fromDeposit + money.toCard;
  if (money.refunded > 0 && money.refunded >= collected && money.owed === 0 && money.onHold === 0) return 'refunded';
  if (money.owed > 0) return 'owed';
  if (money.onHold > 0) return 'posted';
  if (money.toCard > 0) return 'charged';
  if (money.fromDeposit > 0) return 'collected';
  return 'posted';
}

/** Parses an amount in dollars as a toll statement writes it ('4.75', '$12', '1,250.00') to cents, or null. */
export function dollarsToCents(text: string): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

// ---- the order charges are listed in ----

/** A charge as far as its place in a list goes. */
export interface OrderedCharge {
  id: string;
  type: FeeTypeId;
  postedAt: string | Date;
  administrationOf: string | null;
}

/**
 * Charges after the trip in the one order every list shows them (the renter's trip page, the
 * console's trip panel): spec 4's category order, then when posted, then a charge before its
 * administration fee, then the id — the receipt's lines follow the same rule (`byLineOrder`).
 */
export function byChargeOrder<T>(charges: readonly T[], of: (c: T) => OrderedCharge): T[] {
  return byLineOrder(charges, (t) => {
    const c = of(t);
    return { category: chargeCategory(c.type), at: c.postedAt, administration: c.administrationOf !== null, id: c.id };
  });
}

// ---- where a charge's money stands, in the renter's words ----

/**
 * The parts of a charge's amount, each with what it means for the renter: on the deposit hold
 * (taken from it when the deposit review settles, nothing on the card), taken from the deposit,
 * charged to the card, owed (waiting on the card: declined; or, while disputed, waiting on the
 * dispute), refunded. Only `owed` outside a dispute is money the renter still has to pay.
 */
export type ChargePartKind = 'onHold' | 'fromDeposit' | 'toCard' | 'owed' | 'refunded';

export interface ChargeParts {
  onHoldCents: number;
  fromDepositCents: number;
  toCardCents: number;
  owedCents: number;
  refundedCents: number;
  cardLast4: string | null;
  /** A disputed charge's untaken money waits on the dispute, not on the card. */
  status: ChargeStatus;
}

export interface ChargeLine {
  kind: ChargePartKind;
  label: string;
  cents: number;
  /** The amount as shown: a refund negative. */
  amount: string;
}

/** The lines of "How it was paid" on the renter's charge page (the receipt's words where it has them). */
export function chargeLines(c: ChargeParts): ChargeLine[] {
  const card = c.cardLast4 ? `your card ${endingIn(c.cardLast4)}` : 'your card';
  const lines: ChargeLine[] = [];
  const add = (kind: ChargePartKind, label: string, cents: number, sign = '') => {
    if (cents > 0) lines.push({ kind, label, cents, amount: `${sign}${formatTotal(cents)}` });
  };
  add('onHold', 'To be taken from your deposit hold', c.onHoldCents);
  add('fromDeposit', 'Pulled from security deposit', c.fromDepositCents);
  add('toCard', `Charged to ${card}`, c.toCardCents);
  add('owed', c.status === 'disputed' ? 'Waiting while we review your dispute' : 'Still to pay', c.owedCents);
  add('refunded', 'Refund', c.refundedCents, '−');
  return lines;
}

/**
 * What the charge's untaken money waits on, in one phrase for a sentence ("$4.75 to be taken from
 * your deposit hold", "$4.75 owed"), or null when nothing of it is waiting.
 */
export function waitingWords(c: ChargeParts): string | null {
  const parts = [
    c.onHoldCents > 0 && `${formatTotal(c.onHoldCents)} to be taken from your deposit hold`,
    c.owedCents > 0 &&
      (c.status === 'disputed'
        ? `${formatTotal(c.owedCents)} waiting on your dispute`
        : `${formatTotal(c.owedCents)} owed`),
  ].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(' and ') : null;
}

// ---- payments, in words staff understand ----

/** A payment row's status: the provider's PaymentIntent statuses, and ours while it is written or retired. */
export const PAYMENT_ROW_STATUSES = [...PAYMENT_INTENT_STATUSES, 'creating', 'canceling'] as const;
export type PaymentRowStatus = (typeof PAYMENT_ROW_STATUSES)[number];

/**
 * A payment's status as the console says it, from the provider's status and what was taken and
 * given back: a hold authorised is "Held (not yet taken)", a charge that went through "Paid" (or
 * "Refunded", "Partly refunded"), a hold captured in part "Taken from the hold", a refused card
 * "Declined", a hold let go "Released". An unknown status is shown as it is.
 */
export function paymentStatusWords(p: {
  status: string;
  kind: 'CHARGE' | 'DEPOSIT_HOLD';
  capturedCents: number;
  refundedCents: number;
}): string {
  const hold = p.kind === 'DEPOSIT_HOLD';
  const refunded = p.refundedCents > 0 ? (p.refundedCents >= p.capturedCents ? 'Refunded' : 'Partly refunded') : null;
  const words: Record<PaymentRowStatus, string> = {
    requires_payment_method: 'Declined',
    requires_confirmation: 'Not confirmed yet',
    requires_action: 'Waiting for the renter to confirm',
    processing: 'Processing',
    requires_capture: 'Held (not yet taken)',
    succeeded: refunded ?? (hold ? 'Taken from the hold' : 'Paid'),
    canceled: hold ? 'Released' : 'Canceled (nothing taken)',
    creating: 'Being charged',
    canceling: hold ? 'Being released' : 'Being canceled',
  };
  return (PAYMENT_ROW_STATUSES as readonly string[]).includes(p.status)
    ? words[p.status as PaymentRowStatus]
    : p.status;
}
