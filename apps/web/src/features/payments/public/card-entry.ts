import type { CardBrand } from '@ampere/domain/account';

/**
 * Card-entry rules for the offline card form, matching how Stripe's Payment Element behaves: the
 * number is grouped as typed and its brand detected; the form is complete only when the number
 * passes the Luhn check with the brand's length, the expiry is MM / YY and not past, the security
 * code has 3 digits (4 for American Express) and the ZIP code 5.
 */
export interface CardEntry {
  number: string;
  expiry: string;
  cvc: string;
  zip: string;
}
export type CardField = keyof CardEntry;

interface BrandRule {
  brand: CardBrand;
  prefix: RegExp;
  lengths: number[];
  cvc: number;
}

// Elo first: several Elo ranges start like Visa or Discover.
const RULES: BrandRule[] = [
  {
    brand: 'elo',
    prefix:
      /^(401178|401179|431274|438935|451416|457393|457631|457632|504175|506(699|7[0-7]\d)|509\d{3}|627780|636297|636368|650(0(3[1-3]|[4-9]\d)|4(0[5-9]|[1-3]\d)|48[5-9]|49\d|5[0-2]\d|538|54[1-9]|5[5-8]\d|59[0-8]|7(0[0-9]|1[0-8]|2[0-7])|9(0[1-9]|1\d|20))|6516(5[2-9]|[6-7]\d)|6550([0-1]\d|2[1-9]|[3-4]\d|5[0-8]))/,
    lengths: [16],
    cvc: 3,
  },
  { brand: 'american express', prefix: /^3[47]/, lengths: [15], cvc: 4 },
  { brand: 'visa', prefix: /^4/, lengths: [13, 16, 19], cvc: 3 },
  { brand: 'mastercard', prefix: /^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, lengths: [16], cvc: 3 },
  { brand: 'discover', prefix: /^(6011|64[4-9]|65|622)/, lengths: [16, 19], cvc: 3 },
];
const UNKNOWN = { lengths: [16], cvc: 3 };

export const digitsOf = (value: string, max = 19) => value.replace(/\D/g, '').slice(0, max);

/** The brand the number so far belongs to, or null while it cannot be told. */
export function detectBrand(number: string): CardBrand | null {
  const digits = digitsOf(number);
  return RULES.find((r) => r.prefix.test(digits))?.brand ?? null;
}

const ruleFor = (number: string) => RULES.find((r) => r.prefix.test(digitsOf(number))) ?? UNKNOWN;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** '4242424242424242' → '4242 4242 4242 4242'; American Express as 4-6-5. */
export function formatCardNumber(value: string): string {
  const rule = ruleFor(value);
  const digits = digitsOf(value, Math.max(...rule.lengths));
  const groups = detectBrand(digits) === 'american express' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const g of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + g));
    at += g;
  }
  return out.join(' ');
}

/** Typed expiry to 'MM / YY': '4' → '04 / ', '122' → '12 / 2'; deleting the ' / ' deletes the month's last digit. */
export function formatExpiry(value: string, previous = ''): string {
  let digits = digitsOf(value, 4);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  if (digits.length === 2)
    return value.length < previous.length && previous === `${digits} / ` ? digits.slice(0, 1) : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export const cvcLength = (number: string) => ruleFor(number).cvc;

/** The message for each field that is wrong (Stripe's wording); empty when all is well. */
export function cardErrors(entry: CardEntry, now: Date): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = digitsOf(entry.number);
  const rule = ruleFor(digits);
  if (digits.length < Math.min(...rule.lengths)) errors.number = 'Your card number is incomplete.';
  else if (!rule.lengths.includes(digits.length) || !luhnValid(digits)) errors.number = 'Your card number is invalid.';

  const exp = /^(\d{2}) \/ (\d{2})$/.exec(entry.expiry.trim());
  if (!exp) errors.expiry = "Your card's expiration date is incomplete.";
  else {
    const month = Number(exp[1]);
    const year = 2000 + Number(exp[2]);
    const thisYear = now.getFullYear();
    if (month < 1 || month > 12) errors.expiry = "Your card's expiration date is invalid.";
    else if (year < thisYear) errors.expiry = "Your card's expiration year is in the past.";
    else if (year === thisYear && month < now.getMonth() + 1)
      errors.expiry = "Your card's expiration date is in the past.";
    else if (year > thisYear + 50) errors.expiry = "Your card's expiration year is invalid.";
  }

  if (digitsOf(entry.cvc, 4).length !== rule.cvc) errors.cvc = "Your card's security code is incomplete.";
  if (!/^\d{5}$/.test(entry.zip)) errors.zip = 'Your ZIP code is incomplete.';
  return errors;
}

/** The card as the gateway takes it (once cardErrors is empty). */
export function cardPayload(entry: CardEntry) {
  const [mm = '', yy = ''] = entry.expiry.split('/').map((s) => s.trim());
  return {
    number: digitsOf(entry.number),
    exp_month: Number(mm),
    exp_year: 2000 + Number(yy),
    cvc: digitsOf(entry.cvc, 4),
    postal_code: entry.zip,
  };
}
