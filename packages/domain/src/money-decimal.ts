import { assertCents } from './money.ts';

// Apart from money.ts, which the search page's first download carries: only the waiver's link needs these.

/** Whole cents as a plain decimal, the way a link's query carries an amount: 2500 → '25.00'. */
export function formatDecimal(cents: number): string {
  assertCents(cents);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A plain decimal amount of dollars ('25', '25.5', '25.00') as whole cents; anything else is null. */
export function parseDecimal(value: string | null | undefined): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value ?? '');
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
