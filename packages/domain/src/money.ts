/** Money is integer cents everywhere; these helpers only format it for people. */
import { groupThousands } from './format-number.ts';

/**
 * Dollars as en-US writes them ($1,234.50, -$12.00), from whole cents with integer arithmetic.
 * Written out rather than through Intl: a page's first number format loads the browser's locale
 * data, about 70 ms on a mid-range phone, in the middle of drawing the page.
 */
function dollars(cents: number, withCents: boolean): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = `${sign}$${groupThousands(Math.floor(abs / 100))}`;
  return withCents ? `${whole}.${String(abs % 100).padStart(2, '0')}` : whole;
}

export function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer amount of cents: ${cents}`);
}

/** Totals: always two decimals, e.g. $1,234.50. */
export function formatTotal(cents: number): string {
  assertCents(cents);
  return dollars(cents, true);
}

/** Prices: no decimals when the amount is whole dollars ($89), two otherwise ($89.50). */
export function formatPrice(cents: number): string {
  assertCents(cents);
  return dollars(cents, cents % 100 !== 0);
}

/** Rounds a rate applied to cents half away from zero, in integer arithmetic. */
export function applyRatePpm(cents: number, ratePpm: number): number {
  assertCents(cents);
  assertCents(ratePpm);
  const product = cents * ratePpm;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 500_000) / 1_000_000);
}
