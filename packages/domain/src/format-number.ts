/**
 * A whole number with its digits grouped in threes, as en-US writes it: 1234567 → '1,234,567'.
 * Plain string work, not Intl, for the reason in money.ts.
 */
export function groupThousands(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Not a whole number: ${n}`);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
