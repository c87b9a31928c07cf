import { assertCents } from './money.ts';

/**
 * Spec 7: `payment_completed` carries the total in cents and is converted to dollars for its two
 * destinations: the event store and the conversions destination (a webhook, or a log line when none
 * is configured). Both receive the same event, with `value` in dollars and `currency` beside `total`.
 */
export const CONVERSION_EVENTS = ['payment_completed'] as const;
export type ConversionEventName = (typeof CONVERSION_EVENTS)[number];

export function isConversionEvent(name: string): name is ConversionEventName {
  return (CONVERSION_EVENTS as readonly string[]).includes(name);
}

/**
 * Cents as the number of dollars analytics destinations expect (29170 → 291.7). Dividing whole
 * cents by 100 gives the double nearest the decimal amount, which prints as that amount.
 */
export function centsToDollarValue(cents: number): number {
  assertCents(cents);
  return cents / 100;
}

/**
 * The properties a destination records for an event: a conversion's whole-cents `total` also as
 * `value` in dollars with its `currency`; anything else unchanged. A total that is not whole cents
 * is left as it came (the event is still recorded, without a value).
 */
export function destinationProperties(name: string, properties: Record<string, unknown>): Record<string, unknown> {
  if (!isConversionEvent(name)) return properties;
  const total = properties.total;
  if (typeof total !== 'number' || !Number.isSafeInteger(total)) return properties;
  return { ...properties, value: centsToDollarValue(total), currency: 'USD' };
}
