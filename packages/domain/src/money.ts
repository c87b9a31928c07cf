/** Money is integer cents everywhere; these helpers only format it for people. */

const withCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

export function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer amount of cents: ${cents}`);
}

/** Totals: always two decimals, e.g. $1,234.50. */
export function formatTotal(cents: number): string {
  assertCents(cents);
  return withCents.format(cents / 100);
}

/** Prices: no decimals when the amount is whole dollars ($89), two otherwise ($89.50). */
export function formatPrice(cents: number): string {
  assertCents(cents);
  return cents % 100 === 0 ? wholeDollars.format(cents / 100) : withCents.format(cents / 100);
}

/** Rounds a rate applied to cents half away from zero, in integer arithmetic. */
export function applyRatePpm(cents: number, ratePpm: number): number {
  assertCents(cents);
  assertCents(ratePpm);
  const product = cents * ratePpm;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 500_000) / 1_000_000);
}
