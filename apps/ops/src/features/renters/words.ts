import type { ReviewReason, ReviewSubject } from '@ampere/domain/renter-review';

/** How the console names a check, why it is queued, and a decision. */
export const CHECK_WORDS: Record<ReviewSubject, string> = { license: 'License', insurance: 'Insurance' };
export const WHY_WORDS: Record<ReviewReason, string> = { failed: 'Failed', flagged: 'Flagged' };
export const WHY_COLOURS: Record<ReviewReason, string> = { failed: 'red.8', flagged: '#8a5300' };
