/** Money is integer cents everywhere; these helpers only format it for people. */

/**
 * The two dollar formats, made on first use: building a number format loads the browser's locale
 * data, a long step on a phone that a page showing no money (sign-in) should not pay while loading.
 */
let formats: { withCents: Intl.NumberFormat; wholeDollars: Intl.NumberFormat } | undefined;
function usd() {
  formats ??= {
    withCents: new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
    wholeDollars: new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    }),
  };
  return formats;
}

export function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer amount of cents: ${cents}`);
}

/** Totals: always two decimals, e.g. $1,234.50. */
export function formatTotal(cents: number): string {
  assertCents(cents);
  return usd().withCents.format(cents / 100);
}

/** Prices: no decimals when the amount is whole dollars ($89), two otherwise ($89.50). */
export function formatPrice(cents: number): string {
  assertCents(cents);
  const { withCents, wholeDollars } = usd();
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
