import { describe, expect, it } from 'vitest';
import { addonTotal } from './line-items.ts';
import { quoteTrip } from './pricing.ts';

describe('quoteTrip', () => {
  it('rule: total = rack × days + add-ons + tax, in cents', () => {
    const q = quoteTrip({
      rackRateCents: 8_900,
      days: 7,
      taxRatePpm: 92_500,
      addons: [
        { id: 'w', type: 'DAMAGE_WAIVER', amount: 2_500, frequency: 'DAY' },
        { id: 'c', type: 'PREPAID_EV_CHARGING', amount: 3_500, frequency: 'ONE_TIME' },
      ],
    });
    expect(q.subtotalCents).toBe(62_300 + 17_500 + 3_500);
    expect(q.taxCents).toBe(7_705); // 83,300 × 9.25% = 7,705.25 → 7,705
    expect(q.totalCents).toBe(83_300 + 7_705);
    expect(q.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(q.totalCents);
  });
  it('rule: tax rounds half away from zero to the cent', () => {
    expect(quoteTrip({ rackRateCents: 10, days: 1, taxRatePpm: 50_000 }).taxCents).toBe(1); // 0.5 → 1
  });
});

describe('addonTotal', () => {
  it('rule: the waiver total is its price per day times the rental days', () => {
    expect(addonTotal({ amount: 2_500, frequency: 'DAY' }, 7)).toBe(17_500);
    expect(addonTotal({ amount: 2_500, frequency: 'DAY' }, 1)).toBe(2_500);
  });
  it('a one-off add-on costs its price once, however long the trip', () => {
    expect(addonTotal({ amount: 3_500, frequency: 'ONE_TIME' }, 7)).toBe(3_500);
  });
});
