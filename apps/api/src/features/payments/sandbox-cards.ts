/**
 * Card rules the sandbox gateway applies, after Stripe's published test cards
 * (https://docs.stripe.com/testing): which numbers succeed, which are declined and how, plus the
 * checks every card form makes (Luhn, expiry, security code). Pure functions: no I/O, no clock of
 * their own.
 */

/** Stripe's `card.brand` vocabulary. */
export type StripeCardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

/**
 * What a saved card does when it is later charged. 'succeeds' for the ordinary test cards;
 * 'charge_fails' for 4000 0000 0000 0341, which attaches but whose charges are declined (used by
 * the charges that come with bookings).
 */
export type CardBehaviour = 'succeeds' | 'charge_fails';

/** A card error as Stripe reports it (`type: 'card_error'`, HTTP 402). */
export interface CardError {
  type: 'card_error';
  code: string;
  decline_code: string | null;
  message: string;
  /** The card field at fault, as Stripe names it. */
  param?: 'number' | 'exp_month' | 'exp_year' | 'cvc';
}

/** Stripe's messages, word for word, so the card form shows what Stripe would show. */
export const CARD_MESSAGES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expiredCard: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
  invalidNumber: 'Your card number is invalid.',
  expiryInPast: "Your card's expiration date is in the past.",
  invalidExpiryMonth: "Your card's expiration month is invalid.",
  invalidExpiryYear: "Your card's expiration year is invalid.",
  invalidCvc: "Your card's security code is invalid.",
  nonTestCard:
    'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
} as const;

type TestOutcome =
  { behaviour: CardBehaviour } | { error: Omit<CardError, 'type' | 'param'> & { param?: CardError['param'] } };

const declined = (decline_code: string, message: string = CARD_MESSAGES.declined) => ({
  error: { code: 'card_declined', decline_code, message },
});
const succeeds = { behaviour: 'succeeds' } as const;

/**
 * Stripe's test card numbers and what each does when a renter saves it. On Stripe, saving a card
 * (confirming a SetupIntent) checks it with the issuer, so the decline cards already fail here;
 * only 0341 attaches and fails later, at the charge.
 */
export const TEST_CARDS: Readonly<Record<string, TestOutcome>> = {
  // Succeed, by brand
  '4242424242424242': succeeds, // Visa
  '4000056655665556': succeeds, // Visa (debit)
  '5555555555554444': succeeds, // Mastercard
  '2223003122003222': succeeds, // Mastercard (2-series)
  '5200828282828210': succeeds, // Mastercard (debit)
  '5105105105105100': succeeds, // Mastercard (prepaid)
  '378282246310005': succeeds, // American Express
  '371449635398431': succeeds, // American Express
  '6011111111111117': succeeds, // Discover
  '6011000990139424': succeeds, // Discover
  '6011981111111113': succeeds, // Discover (debit)
  '3056930009020004': succeeds, // Diners Club
  '36227206271667': succeeds, // Diners Club (14-digit)
  '3566002020360505': succeeds, // JCB
  '6200000000000005': succeeds, // UnionPay
  // Declined
  '4000000000000002': declined('generic_decline'),
  '4000000000009995': declined('insufficient_funds', CARD_MESSAGES.insufficientFunds),
  '4000000000009987': declined('lost_card'),
  '4000000000009979': declined('stolen_card'),
  '4000000000000069': {
    error: { code: 'expired_card', decline_code: null, message: CARD_MESSAGES.expiredCard, param: 'exp_month' },
  },
  '4000000000000127': {
    error: { code: 'incorrect_cvc', decline_code: null, message: CARD_MESSAGES.incorrectCvc, param: 'cvc' },
  },
  '4000000000000119': {
    error: { code: 'processing_error', decline_code: null, message: CARD_MESSAGES.processingError },
  },
  // Attaches to the customer; charges to it are declined.
  '4000000000000341': { behaviour: 'charge_fails' },
};

/** Rule: spaces and dashes in a typed card number are ignored. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** Rule: a card number's last digit is its Luhn check digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const inRange = (digits: string, len: number, lo: number, hi: number) => {
  const n = Number(digits.slice(0, len));
  return digits.length >= len && n >= lo && n <= hi;
};

/** Rule: the brand follows from the number's leading digits (the card networks' IIN ranges). */
export function detectBrand(digits: string): StripeCardBrand {
  if (digits.startsWith('4')) return 'visa';
  if (inRange(digits, 2, 51, 55) || inRange(digits, 4, 2221, 2720)) return 'mastercard';
  if (digits.startsWith('34') || digits.startsWith('37')) return 'amex';
  if (digits.startsWith('6011') || digits.startsWith('65') || inRange(digits, 3, 644, 649)) return 'discover';
  if (digits.startsWith('36') || digits.startsWith('38') || digits.startsWith('39') || inRange(digits, 3, 300, 305))
    return 'diners';
  if (inRange(digits, 4, 3528, 3589)) return 'jcb';
  if (digits.startsWith('62') || digits.startsWith('81')) return 'unionpay';
  return 'unknown';
}

/** Rule: the security code is 4 digits on American Express cards, 3 on every other brand. */
export function cvcLength(brand: StripeCardBrand): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/** Rule (spec 5): brands are shown as visa, mastercard, american express, discover…; Stripe says 'amex'. */
export function brandName(stripeBrand: string | null | undefined): string {
  const b = (stripeBrand ?? '').toLowerCase();
  if (b === 'amex') return 'american express';
  if (b === '') return 'unknown';
  return b;
}

/** A two-digit year is read in the current century, as card forms do ('29' is 2029). */
function fullYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export interface AcceptedCard {
  brand: StripeCardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: CardBehaviour;
}

const cardError = (
  code: string,
  message: string,
  param?: CardError['param'],
  decline_code: string | null = null,
): CardError => ({
  type: 'card_error',
  code,
  decline_code,
  message,
  ...(param ? { param } : {}),
});

/**
 * What saving this card does, as Stripe test mode would answer: the number must pass Luhn, the
 * expiry must be a real month not in the past (a card is good through the last day of its month,
 * on `now`'s UTC calendar), the security code 3 digits (4 for American Express); then a published
 * test card behaves as documented and any other number is declined as a non-test card.
 */
export function evaluateCardForSetup(
  card: CardInput,
  now: Date,
): { ok: true; card: AcceptedCard } | { ok: false; error: CardError } {
  const digits = normalizeCardNumber(card.number);
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { ok: false, error: cardError('incorrect_number', CARD_MESSAGES.invalidNumber, 'number') };
  }
  const brand = detectBrand(digits);
  const month = card.exp_month;
  const year = fullYear(card.exp_year);
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    return { ok: false, error: cardError('invalid_expiry_month', CARD_MESSAGES.invalidExpiryMonth, 'exp_month') };
  }
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (!Number.isInteger(year) || year > thisYear + 50) {
    return { ok: false, error: cardError('invalid_expiry_year', CARD_MESSAGES.invalidExpiryYear, 'exp_year') };
  }
  if (year < thisYear)
    return { ok: false, error: cardError('invalid_expiry_year', CARD_MESSAGES.expiryInPast, 'exp_year') };
  if (year === thisYear && month < thisMonth) {
    return { ok: false, error: cardError('invalid_expiry_month', CARD_MESSAGES.expiryInPast, 'exp_month') };
  }
  const cvc = card.cvc.trim();
  if (!new RegExp(`^\\d{${cvcLength(brand)}}$`).test(cvc)) {
    return { ok: false, error: cardError('invalid_cvc', CARD_MESSAGES.invalidCvc, 'cvc') };
  }
  const outcome = TEST_CARDS[digits];
  if (!outcome) {
    return {
      ok: false,
      error: cardError('card_declined', CARD_MESSAGES.nonTestCard, undefined, 'test_mode_live_card'),
    };
  }
  if ('error' in outcome) {
    return {
      ok: false,
      error: cardError(outcome.error.code, outcome.error.message, outcome.error.param, outcome.error.decline_code),
    };
  }
  return {
    ok: true,
    card: { brand, last4: digits.slice(-4), exp_month: month, exp_year: year, behaviour: outcome.behaviour },
  };
}
