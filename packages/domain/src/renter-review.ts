import type { IdentitySessionStatus, InsuranceState } from './verification.ts';

/**
 * The console's renter rules (issue 30 §4, decisions 094 and 095): the review queue of license
 * checks and insurance connections that did not pass, what a staff decision does to the renter's
 * verification, the do-not-rent list, and a one-off text from the renter page. The API, the
 * console and the renter app decide with these.
 */

// ---- the review queue ----

/** What a review is about: the renter's driver's-license check, or one insurance connection. */
export const REVIEW_SUBJECTS = ['license', 'insurance'] as const;
export type ReviewSubject = (typeof REVIEW_SUBJECTS)[number];

/**
 * Why a check is in the queue. Failed: the provider said no (a declined license, an expired one,
 * an insurance connection that broke). Flagged: the provider could not decide and asked for
 * another look (Veriff's resubmission request).
 */
export type ReviewReason = 'failed' | 'flagged';

/** The insurance states spec 3 lists that mean the connection failed. */
export const FAILED_INSURANCE_STATES: readonly InsuranceState[] = [
  'CREDENTIALS_EXPIRED',
  'MFA_EXPIRED',
  'ACCOUNT_DISABLED',
  'ACCOUNT_INACCESSIBLE',
];

/** The license check statuses that put a renter in the queue. */
export const QUEUED_LICENSE_STATUSES: readonly IdentitySessionStatus[] = ['declined', 'resubmission_requested'];

/** Whether a check with this provider status belongs in the queue, and why; null: it does not. */
export function reviewReason(subject: ReviewSubject, status: string): ReviewReason | null {
  if (subject === 'license') {
    if (status === 'declined') return 'failed';
    if (status === 'resubmission_requested') return 'flagged';
    return null;
  }
  return (FAILED_INSURANCE_STATES as readonly string[]).includes(status) ? 'failed' : null;
}

/**
 * What staff decide. Approve: a flagged check passes (the staff member looked). Override: a failed
 * check passes anyway, for a reason the audit log keeps (the license seen at the desk, the policy
 * card checked by phone). Uphold: the provider's result stands and the renter verifies again; it
 * leaves the queue.
 */
export const REVIEW_DECISIONS = ['approve', 'override', 'uphold'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_DECISION_LABELS: Record<ReviewDecision, string> = {
  approve: 'Approved',
  override: 'Overridden',
  uphold: 'Upheld',
};

/** A reason is a sentence someone can read later, not a keystroke. */
export const REASON_MIN_LENGTH = 5;
export const REASON_MAX_LENGTH = 500;

/** Whether a decision lets the renter past the check it is about (the gates read this). */
export function decisionPasses(decision: ReviewDecision): boolean {
  return decision === 'approve' || decision === 'override';
}

/** Whether a decision needs a reason: overriding or upholding says why; approving a flagged check may. */
export function reasonRequired(decision: ReviewDecision): boolean {
  return decision !== 'approve';
}

/** The problem with a reason as typed (trimmed), or null. */
export function reasonProblem(reason: string | null | undefined, required: boolean): string | null {
  const text = (reason ?? '').trim();
  if (text.length === 0) return required ? 'A reason is required.' : null;
  if (text.length < REASON_MIN_LENGTH) return `Write at least ${REASON_MIN_LENGTH} characters for the reason.`;
  if (text.length > REASON_MAX_LENGTH) return `Keep the reason to ${REASON_MAX_LENGTH} characters.`;
  return null;
}

/**
 * Why this decision cannot be taken on a check in the queue for `why`, naming the field, or null.
 * Approving is for a flagged check: a failed one is overridden, with a reason.
 */
export function reviewProblem(
  why: ReviewReason,
  decision: ReviewDecision,
  reason: string | null | undefined,
): { field: 'decision' | 'reason'; message: string } | null {
  if (decision === 'approve' && why === 'failed')
    return { field: 'decision', message: 'This check failed: override it with a reason, or uphold it.' };
  const problem = reasonProblem(reason, reasonRequired(decision));
  return problem ? { field: 'reason', message: problem } : null;
}

/**
 * An insurance connection as the gates see it: one staff let through counts as WAIVED (spec 4:
 * insurance is verified when a connection is ACTIVE or WAIVED), while the row keeps what the
 * provider said.
 */
export function effectiveInsuranceStatus<S extends string>(status: S, passedByStaff: boolean): S | 'WAIVED' {
  return passedByStaff ? 'WAIVED' : status;
}

// ---- do not rent ----

/** How far ahead a listing may run: long enough for a fraud case, short enough to be looked at again. */
export const DO_NOT_RENT_MAX_DAYS = 5 * 365;

/**
 * What a listed renter reads when they try to book: courteous, pointing to support, and silent on
 * why (the reason is staff's, not theirs to read in an error).
 */
export const DO_NOT_RENT_MESSAGE =
  'We’re sorry, but we can’t take a new booking on your account right now. Please contact our support team and we’ll be glad to help.';

export interface DoNotRentEntry {
  until: Date | string;
  lifted_at: Date | string | null;
}

/** Rule (decision 095): a renter is listed while an entry is not lifted and now is before its expiry. */
export function isListed(entry: DoNotRentEntry, now: Date): boolean {
  return entry.lifted_at === null && now.getTime() < new Date(entry.until).getTime();
}

/** The problem with a new listing, naming the field, or null: a reason, and an expiry in the future within the limit. */
export function listingProblem(
  listing: { reason: string | null | undefined; until: Date | null },
  now: Date,
): { field: 'reason' | 'until'; message: string } | null {
  const reason = reasonProblem(listing.reason, true);
  if (reason) return { field: 'reason', message: reason };
  if (!listing.until || Number.isNaN(listing.until.getTime()))
    return { field: 'until', message: 'An expiry date is required.' };
  if (listing.until.getTime() <= now.getTime()) return { field: 'until', message: 'The expiry must be in the future.' };
  if (listing.until.getTime() > now.getTime() + DO_NOT_RENT_MAX_DAYS * 86_400_000)
    return { field: 'until', message: `The expiry can be at most ${DO_NOT_RENT_MAX_DAYS / 365} years ahead.` };
  return null;
}

// ---- a one-off text ----

/** Two SMS segments: room for a sentence or two, never a letter. */
export const STAFF_TEXT_MAX_LENGTH = 320;

/** The problem with a staff text as typed, or null. */
export function staffTextProblem(text: string | null | undefined): string | null {
  const body = (text ?? '').trim();
  if (body.length === 0) return 'Write the text to send.';
  if (body.length > STAFF_TEXT_MAX_LENGTH) return `Keep the text to ${STAFF_TEXT_MAX_LENGTH} characters.`;
  return null;
}
