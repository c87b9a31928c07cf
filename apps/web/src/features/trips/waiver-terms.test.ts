import { describe, expect, it } from 'vitest';
import { readDollars, waiverContractQuery, waiverPrices } from './waiver-terms.ts';

const CHICAGO = 'America/Chicago';
const place = { state: 'TN' } as Parameters<typeof waiverContractQuery>[0]['pickup_location'];
const waiverLine = (status: string, amount: number) =>
  ({ status, amount, addon: { id: 'w', type: 'DAMAGE_WAIVER', amount: 2_500 } }) as never;
// Three rental days on the location's clock: 10:00 to 10:00 three days later.
const trip = {
  pickup_location: place,
  pickup_at: '2027-03-01T16:00:00Z',
  return_at: '2027-03-04T16:00:00Z',
  timezone: CHICAGO,
};

describe('the waiver contract link', () => {
  it('carries the daily price and the daily price times the rental days, as the signed waiver states them', () => {
    const query = waiverContractQuery({ ...trip, transactions: [waiverLine('Pending', 7_500)] });
    expect(query).toEqual({ state: 'TN', price_per_day: '25.00', total_price: '75.00' });
  });

  it('leaves the prices out when the trip has no collision protection, or only a failed one', () => {
    const query = waiverContractQuery({ ...trip, transactions: [waiverLine('Failed', 7_500)] });
    expect(query).toEqual({ state: 'TN', price_per_day: null, total_price: null });
  });

  it('gives a one-off waiver its price once, as the collision protection page does', () => {
    expect(waiverPrices({ amount: 4_000, frequency: 'ONE_TIME' }, 5)).toEqual({
      price_per_day: '40.00',
      total_price: '40.00',
    });
  });

  it('shows the amounts of the link as dollars, and ignores anything that is not an amount', () => {
    expect(readDollars('75.00')).toBe('$75.00');
    expect(readDollars('1234.5')).toBe('$1,234.50');
    expect(readDollars('75.001')).toBeNull();
    expect(readDollars('-5')).toBeNull();
    expect(readDollars(null)).toBeNull();
  });
});
