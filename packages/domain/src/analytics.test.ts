import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDollarValue, destinationProperties } from './analytics.ts';
import { formatTotal } from './money.ts';

describe('payment_completed in dollars for its destinations', () => {
  it('adds the value in dollars and the currency beside the total in cents', () => {
    expect(destinationProperties('payment_completed', { platform_id: 'AB-12', total: 29_170 })).toEqual({
      platform_id: 'AB-12',
      total: 29_170,
      value: 291.7,
      currency: 'USD',
    });
  });

  it('leaves other events, and a total that is not whole cents, as they came', () => {
    expect(destinationProperties('search_performed', { total: 500 })).toEqual({ total: 500 });
    expect(destinationProperties('payment_completed', { total: '291.70' })).toEqual({ total: '291.70' });
    expect(destinationProperties('payment_completed', { total: 12.5 })).toEqual({ total: 12.5 });
  });

  it('any amount of cents reads as the same dollars the receipt prints', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        expect(`$${centsToDollarValue(cents).toLocaleString('en-US', { minimumFractionDigits: 2 })}`).toBe(
          formatTotal(cents),
        );
      }),
    );
  });
});
