import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  colorChips,
  isLongRangeChipEnabled,
  modelChips,
  parseColor,
  parseVariant,
  toggleColor,
  toggleLongRange,
  toggleModel,
} from './filters.ts';
import { formatPrice, formatTotal } from './money.ts';
import { formatDecimal, parseDecimal } from './money-decimal.ts';
import { groupThousands } from './format-number.ts';
import { quoteTrip } from './pricing.ts';
import { periodLabel, rentalDays, rentalDaysBetween } from './rental.ts';
import { toInstant, toLocal } from './time.ts';
import { distanceMiles, isOneWay, odometerLabel, vehicleAgeLabel } from './vehicle.ts';

describe('money', () => {
  it('rule: totals show two decimals, e.g. $1,234.50', () => {
    expect(formatTotal(123_450)).toBe('$1,234.50');
    expect(formatTotal(8_900)).toBe('$89.00');
  });
  it('rule: prices show no decimals when whole', () => {
    expect(formatPrice(8_900)).toBe('$89');
    expect(formatPrice(7_350)).toBe('$73.50');
  });
  it('refuses amounts that are not whole cents', () => {
    expect(() => formatTotal(10.5)).toThrow(RangeError);
  });
  it('writes amounts exactly as en-US does, from cents to millions, negative and zero', () => {
    for (const cents of [0, 5, 99, 100, 101, 99_999, 100_000, 123_456_789, 100_000_000_00, -1, -8_900, -123_450]) {
      const dollars = cents / 100;
      expect(formatTotal(cents), String(cents)).toBe(
        dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }),
      );
      expect(formatPrice(cents), String(cents)).toBe(
        dollars.toLocaleString('en-US', {
          style: 'currency',
          currency: 'USD',
          minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
          maximumFractionDigits: 2,
        }),
      );
    }
  });
  it('groups digits in threes as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_000_000, -1234, 9_007_199_254_740_991])
      expect(groupThousands(n), String(n)).toBe(n.toLocaleString('en-US'));
    expect(() => groupThousands(1.5)).toThrow(RangeError);
  });
  it('writes cents as the plain decimal a link carries, and reads it back to the same cents', () => {
    for (const [cents, text] of [
      [2_500, '25.00'],
      [5, '0.05'],
      [123_450, '1234.50'],
      [0, '0.00'],
    ] as const) {
      expect(formatDecimal(cents)).toBe(text);
      expect(parseDecimal(text)).toBe(cents);
    }
    expect(parseDecimal('25')).toBe(2_500);
    expect(parseDecimal('25.5')).toBe(2_550);
  });
  it('reads no amount from text that is not a plain decimal of dollars', () => {
    for (const text of [null, '', '-5', '25.505', '1e3', '$25', ' 25', '12345678', '25.', 'abc'])
      expect(parseDecimal(text), String(text)).toBeNull();
  });
});

describe('rented days', () => {
  it('rule: 0 when either end is missing or the return is not after the pickup', () => {
    expect(rentalDays(null, { date: '2026-12-01', time: '10:00' })).toBe(0);
    expect(rentalDays({ date: '2026-12-01', time: '10:00' }, { date: '2026-12-01', time: '10:00' })).toBe(0);
  });
  it('rule: otherwise the difference in days rounded up', () => {
    expect(rentalDays({ date: '2026-12-01', time: '10:00' }, { date: '2026-12-08', time: '10:00' })).toBe(7);
    expect(rentalDays({ date: '2026-12-01', time: '10:00' }, { date: '2026-12-08', time: '10:15' })).toBe(8);
    expect(rentalDays({ date: '2026-12-01', time: '10:00' }, { date: '2026-12-01', time: '11:00' })).toBe(1);
  });
  it('a week across the March and November daylight-saving changes is 7 days', () => {
    const tz = 'America/Chicago';
    const spring = [
      toInstant({ date: '2027-03-10', time: '10:00' }, tz),
      toInstant({ date: '2027-03-17', time: '10:00' }, tz),
    ] as const;
    const autumn = [
      toInstant({ date: '2026-10-29', time: '10:00' }, tz),
      toInstant({ date: '2026-11-05', time: '10:00' }, tz),
    ] as const;
    expect(rentalDaysBetween(spring[0], spring[1], tz)).toBe(7);
    expect(rentalDaysBetween(autumn[0], autumn[1], tz)).toBe(7);
    expect(autumn[1].getTime() - autumn[0].getTime()).toBe(7 * 86_400_000 + 3_600_000);
  });
  it('rule: period labels 1 day, 1 week, 2 weeks, 3 weeks, 1 month', () => {
    expect([1, 7, 14, 21, 28, 3].map(periodLabel)).toEqual([
      '1 day',
      '1 week',
      '2 weeks',
      '3 weeks',
      '1 month',
      '3 days',
    ]);
  });
  it('property: rented days are never negative and cover the whole period', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 * 24 * 40 }),
        fc.integer({ min: -60 * 24 * 40, max: 60 * 24 * 40 }),
        (startMin, lengthMin) => {
          const base = Date.UTC(2026, 11, 1);
          const at = (m: number) => toLocal(new Date(base + m * 60_000), 'UTC');
          const days = rentalDays(at(startMin), at(startMin + lengthMin));
          expect(days).toBeGreaterThanOrEqual(0);
          if (lengthMin > 0) expect(days * 24 * 60).toBeGreaterThanOrEqual(lengthMin);
        },
      ),
    );
  });
});

describe('filters', () => {
  it('rule: colours BLACK, BLUE, RED, GREY, WHITE; lowercase accepted', () => {
    expect(parseColor('red')).toBe('RED');
    expect(parseColor('Grey')).toBe('GREY');
    expect(parseColor('purple')).toBeNull();
  });
  it("rule (spec 7): variant takes the Long Range chip's words, in any case or spelling", () => {
    expect(parseVariant('Long Range')).toBe('long-range');
    expect(parseVariant('long-range')).toBe('long-range');
    expect(parseVariant(' LONG_RANGE ')).toBe('long-range');
    expect(parseVariant('Standard')).toBe('standard');
    expect(parseVariant('Plaid')).toBeNull();
    expect(parseVariant('LongRange')).toBeNull();
  });
  it('rule: selecting the selected value clears it', () => {
    expect(toggleModel('Model Y', 'Model Y')).toBeNull();
    expect(toggleColor('red', 'RED')).toBeNull();
    expect(toggleColor('red', 'blue')).toBe('BLUE');
  });
  it('rule: the Long Range chip is enabled only for Model Y or Model 3', () => {
    expect(isLongRangeChipEnabled('Model 3')).toBe(true);
    expect(isLongRangeChipEnabled('Model Y Long Range')).toBe(true);
    expect(isLongRangeChipEnabled('Model S')).toBe(false);
    expect(isLongRangeChipEnabled(null)).toBe(false);
  });
  it("rule: Long Range appends ' Long Range'; deselecting removes it", () => {
    expect(toggleLongRange('Model 3')).toBe('Model 3 Long Range');
    expect(toggleLongRange('Model 3 Long Range')).toBe('Model 3');
    expect(toggleLongRange('Model X')).toBe('Model X');
  });
  it('rule: choosing Model 3 or Model Y while Long Range is active keeps the suffix', () => {
    expect(toggleModel('Model 3 Long Range', 'Model Y')).toBe('Model Y Long Range');
    expect(toggleModel('Model 3 Long Range', 'Model S')).toBe('Model S');
  });
  it('rule: at most four models; default colours when the server lists none', () => {
    expect(modelChips(['Model 3', 'Model 3 Long Range', 'Model Y', 'Model S', 'Model X', 'Roadster'])).toEqual([
      'Model 3',
      'Model Y',
      'Model S',
      'Model X',
    ]);
    expect(modelChips(undefined)).toEqual(['Model 3', 'Model Y', 'Model S', 'Model X']);
    expect(colorChips([])).toEqual(['BLACK', 'GREY', 'WHITE', 'RED', 'BLUE']);
    expect(colorChips(['RED', 'BLACK'])).toEqual(['BLACK', 'RED']);
  });
  it('the model chips keep the menu order whatever order the server lists them in, so they do not jump when results arrive', () => {
    expect(modelChips(['Model X', 'Model S', 'Model Y Long Range', 'Model 3'])).toEqual([
      'Model 3',
      'Model Y',
      'Model S',
      'Model X',
    ]);
    expect(modelChips(['Model X', 'Model 3'])).toEqual(['Model 3', 'Model X']);
  });
});

describe('vehicle facts', () => {
  it('rule: odometer rounded to the nearest 1000; under 1000 "Less than 1000 miles"', () => {
    expect(odometerLabel(999)).toBe('Less than 1000 miles');
    expect(odometerLabel(12_499)).toBe('12,000 miles');
    expect(odometerLabel(12_500)).toBe('13,000 miles');
  });
  it('rule: vehicle age in years', () => {
    const today = new Date('2026-11-22T00:00:00Z');
    expect(vehicleAgeLabel(2026, today)).toBe('Less than 1 year old');
    expect(vehicleAgeLabel(2025, today)).toBe('1 year old');
    expect(vehicleAgeLabel(2022, today)).toBe('4 years old');
  });
  it('rule: a return location with other coordinates makes a one-way trip', () => {
    const a = { latitude: 36.1, longitude: -86.7 };
    expect(isOneWay(a, { ...a })).toBe(false);
    expect(isOneWay(a, { latitude: 36.2, longitude: -86.7 })).toBe(true);
    expect(isOneWay(a, null)).toBe(false);
  });
  it('measures great-circle miles (Nashville to St Louis is about 253 miles)', () => {
    expect(
      distanceMiles({ latitude: 36.1627, longitude: -86.7816 }, { latitude: 38.627, longitude: -90.1994 }),
    ).toBeCloseTo(253, -1);
  });
});

describe('pricing properties', () => {
  it('property: line items always add up to the total, in whole cents', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 28 }),
        fc.integer({ min: 0, max: 150_000 }),
        fc.array(fc.record({ amount: fc.integer({ min: 0, max: 20_000 }), daily: fc.boolean() }), { maxLength: 3 }),
        (rack, days, ppm, extras) => {
          const q = quoteTrip({
            rackRateCents: rack,
            days,
            taxRatePpm: ppm,
            addons: extras.map((e, i) => ({
              id: String(i),
              type: 'UNLIMITED_MILES' as const,
              amount: e.amount,
              frequency: e.daily ? ('DAY' as const) : ('ONE_TIME' as const),
            })),
          });
          expect(q.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(q.totalCents);
          for (const l of q.lines) expect(Number.isInteger(l.amountCents)).toBe(true);
        },
      ),
    );
  });
  it('property: a local time round-trips through an instant in several zones (outside gaps)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 365 * 2 }),
        fc.integer({ min: 0, max: 95 }),
        fc.constantFrom('America/Chicago', 'America/Phoenix', 'America/Los_Angeles', 'America/New_York'),
        (day, slot, tz) => {
          const d = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
          const time = `${String(Math.floor(slot / 4)).padStart(2, '0')}:${String((slot % 4) * 15).padStart(2, '0')}`;
          const back = toLocal(toInstant({ date: d, time }, tz), tz);
          // Times inside a spring-forward gap move forward one hour; all others come back unchanged.
          if (back.time !== time) expect(back.date).toBe(d);
          else expect(back).toEqual({ date: d, time });
        },
      ),
    );
  });
});
