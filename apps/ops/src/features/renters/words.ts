import type { ReviewReason, ReviewSubject } from '@ampere/domain/renter-review';

/** How the console names a check, why it is queued, and a decision. */
export const CHECK_WORDS: Record<ReviewSubject, string> = { license: 'License', insurance: 'Insurance' };
export const WHY_WORDS: Record<ReviewReason, string> = { failed: 'Failed', flagged: 'Flagged' };
export const WHY_COLOURS: Record<ReviewReason, string> = { failed: 'red.8', flagged: '#8a5300' };

/** A payment's state as the desk says it (the gateway's states are Stripe's). */
export function paymentStatusWords(kind: 'CHARGE' | 'DEPOSIT_HOLD', status: string): string {
  const hold = kind === 'DEPOSIT_HOLD';
  switch (status) {
    case 'requires_capture':
      return 'Held';
    case 'succeeded':
      return hold ? 'Captured' : 'Paid';
    case 'canceled':
      return hold ? 'Released' : 'Cancelled';
    case 'processing':
      return 'Processing';
    case 'requires_payment_method':
    case 'requires_confirmation':
    case 'requires_action':
    case 'creating':
      return 'Not paid yet';
    default:
      return status.replace(/_/g, ' ');
  }
}

/** A provider's status word as a sentence fragment: 'resubmission_requested' → 'Resubmission requested'. */
export const statusWords = (status: string): string => {
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
