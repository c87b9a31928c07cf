import { describe, expect, it } from 'vitest';
import {
  LATE_FEE_CENTS,
  MILEAGE_OVERAGE_CENTS_PER_MILE,
  type EndTripInput,
  endTripFees,
  formatMinutes,
  includedMiles,
  isBelowCardMinimum,
  isLateReturn,
  isWaivedFee,
  milesDriven,
  rechargeBand,
  returnChargeNeeded,
  returnTiming,
  splitAgainstDeposit,
  waivedNote,
} from './end-trip.ts';
import { PROVIDER_MINIMUM_CHARGE_CENTS } from './money.ts';

const CHICAGO = 'America/Chicago';
// Three days, Friday 10:00 to Monday 10:00 in Chicago (CST, UTC-6).
const base: EndTripInput = {
  pickupAt: new Date('2027-01-08T16:00:00Z'),
  returnAt: new Date('2027-01-11T16:00:00Z'),
  timeZone: CHICAGO,
  endedAt: new Date('2027-01-11T15:00:00Z'),
  rackRateCents: 9_900,
  mileageOut: 12_000,
  mileageIn: 12_400,
  batteryOut: 0.92,
  batteryIn: 0.55,
  unlimitedMiles: false,
  prepaidCharging: false,
};

describe('end-trip fees', () => {
  it('a car back early, under the miles and above the charging minimum owes nothing', () => {
    expect(endTripFees(base)).toEqual([]);
  });

  it('recharge: below 10% without prepaid charging falls in the 0–20 band', () => {
    const fees = endTripFees({ ...base, batteryIn: 0.08 });
    expect(fees.map((f) => [f.kind, f.description, f.amount])).toEqual([['recharge', 'Recharge Fee (0–20%)', 4_500]]);
  });

  it('recharge: with prepaid charging the minimum is 80%, and each band has its price', () => {
    expect(endTripFees({ ...base, batteryIn: 0.79, prepaidCharging: true }).map((f) => f.amount)).toEqual([1_500]);
    expect(endTripFees({ ...base, batteryIn: 0.5, prepaidCharging: true }).map((f) => f.amount)).toEqual([3_000]);
    expect(endTripFees({ ...base, batteryIn: 0.8, prepaidCharging: true })).toEqual([]);
    expect(rechargeBand(0.2)?.to).toBe(20);
    expect(rechargeBand(0.21)?.from).toBe(21);
    expect(rechargeBand(0.81)).toBeNull();
  });

  it('recharge: nothing when the car came back with at least the charge it went out with, below the minimum or not', () => {
    expect(endTripFees({ ...base, batteryOut: 0.05, batteryIn: 0.05 })).toEqual([]);
    expect(endTripFees({ ...base, batteryOut: 0.05, batteryIn: 0.07 })).toEqual([]);
    expect(endTripFees({ ...base, batteryOut: 0.6, batteryIn: 0.6, prepaidCharging: true })).toEqual([]);
    // Driven lower than it went out, and below the minimum: the band it came back in.
    expect(endTripFees({ ...base, batteryOut: 0.09, batteryIn: 0.05 }).map((f) => f.amount)).toEqual([4_500]);
    expect(
      endTripFees({ ...base, batteryOut: 0.9, batteryIn: 0.5, prepaidCharging: true }).map((f) => f.amount),
    ).toEqual([3_000]);
    // No reading at pickup: the minimum alone decides, as before.
    expect(endTripFees({ ...base, batteryOut: null, batteryIn: 0.05 }).map((f) => f.amount)).toEqual([4_500]);
  });

  it('the least charge to bring back: the minimum, or the charge at pickup when that was lower', () => {
    expect(returnChargeNeeded(false, 0.92)).toBe(0.1);
    expect(returnChargeNeeded(false, 0.06)).toBe(0.06);
    expect(returnChargeNeeded(true, 0.6)).toBe(0.6);
    expect(returnChargeNeeded(true, 0.95)).toBe(0.8);
    expect(returnChargeNeeded(false, null)).toBe(0.1);
    // The fee and the least agree: just below it is charged, at it is not.
    for (const [out, prepaid] of [
      [0.06, false],
      [0.92, false],
      [0.6, true],
    ] as const) {
      const least = returnChargeNeeded(prepaid, out);
      expect(endTripFees({ ...base, batteryOut: out, batteryIn: least, prepaidCharging: prepaid })).toEqual([]);
      expect(
        endTripFees({ ...base, batteryOut: out, batteryIn: least - 0.01, prepaidCharging: prepaid }).map((f) => f.kind),
      ).toEqual(['recharge']);
    }
  });

  it('miles driven: whole miles between the readings, never fewer than none', () => {
    expect(milesDriven(12_000, 12_250.4)).toBe(250);
    expect(milesDriven(12_000, 12_250.5)).toBe(251);
    expect(milesDriven(12_000, 11_990)).toBe(0);
  });

  it('mileage: 200 miles a booked day are included; each whole mile beyond costs the overage rate', () => {
    expect(includedMiles(base.pickupAt, base.returnAt, CHICAGO)).toBe(600);
    const fees = endTripFees({ ...base, mileageIn: 12_000 + 612.4 });
    expect(fees).toEqual([
      {
        kind: 'mileage',
        description: 'Mileage Overage (12 mi)',
        cost: MILEAGE_OVERAGE_CENTS_PER_MILE,
        quantity: 12,
        amount: 12 * MILEAGE_OVERAGE_CENTS_PER_MILE,
      },
    ]);
    expect(endTripFees({ ...base, mileageIn: 13_000, unlimitedMiles: true })).toEqual([]);
  });

  it('mileage across the spring DST change: the days are counted on the wall clock', () => {
    // Saturday 10:00 to Monday 10:00 in Chicago, across Sunday 2027-03-14's lost hour: 2 days, 400 miles.
    const pickupAt = new Date('2027-03-13T16:00:00Z');
    const returnAt = new Date('2027-03-15T15:00:00Z');
    expect(includedMiles(pickupAt, returnAt, CHICAGO)).toBe(400);
    expect(
      endTripFees({ ...base, pickupAt, returnAt, endedAt: returnAt, mileageIn: 12_401 }).map((f) => f.amount),
    ).toEqual([MILEAGE_OVERAGE_CENTS_PER_MILE]);
  });

  it('late: nothing within the 29-minute grace; after it the fee and one rack day per started day', () => {
    expect(endTripFees({ ...base, endedAt: new Date('2027-01-11T16:29:00Z') })).toEqual([]);
    const thirty = endTripFees({ ...base, endedAt: new Date('2027-01-11T16:30:00Z') });
    expect(thirty.map((f) => [f.description, f.amount])).toEqual([
      ['Late Return Fee', LATE_FEE_CENTS],
      ['Late Additional Rack Rate (1 day)', 9_900],
    ]);
    const longer = endTripFees({ ...base, endedAt: new Date('2027-01-12T17:00:00Z') });
    expect(longer.at(-1)).toMatchObject({
      description: 'Late Additional Rack Rate (2 days)',
      quantity: 2,
      amount: 19_800,
    });
  });

  it('a reading the car did not give charges nothing for it', () => {
    expect(endTripFees({ ...base, batteryIn: null, mileageIn: null, mileageOut: 12_000 })).toEqual([]);
  });
});

describe('fees against the deposit hold', () => {
  const fees = endTripFees({ ...base, batteryIn: 0.05, mileageIn: 12_800, endedAt: new Date('2027-01-11T18:00:00Z') });

  it('all taken from the hold when they fit; the captured sum equals the fees', () => {
    const small = endTripFees({ ...base, batteryIn: 0.05 });
    const split = splitAgainstDeposit(small, 20_000);
    expect(split.capture).toBe(4_500);
    expect(split.due).toEqual([]);
  });

  it('beyond the hold, the fee that does not fit is split and the rest is owed; nothing is lost or counted twice', () => {
    const total = fees.reduce((s, f) => s + f.amount, 0);
    expect(total).toBe(4_500 + 200 * 35 + 2_500 + 9_900);
    const split = splitAgainstDeposit(fees, 20_000);
    expect(split.capture).toBe(20_000);
    const taken = split.fromDeposit.reduce((s, p) => s + p.amount, 0);
    const owed = split.due.reduce((s, p) => s + p.amount, 0);
    expect(taken).toBe(20_000);
    expect(taken + owed).toBe(total);
    expect(split.due.map((d) => d.fee.kind)).toEqual(['lateRack']);
  });

  it('with no hold to take from, everything is owed', () => {
    const split = splitAgainstDeposit(fees, 0);
    expect(split.capture).toBe(0);
    expect(split.fromDeposit).toEqual([]);
    expect(split.due.map((d) => d.amount)).toEqual(fees.map((f) => f.amount));
  });
});

describe('a remainder below the minimum card charge (decision 056)', () => {
  // Three days returned at 5% battery with 443 miles over: $45.00 + $155.05 against a $200.00 hold.
  const fees = endTripFees({ ...base, batteryIn: 0.05, mileageIn: 12_000 + 600 + 443 });

  it('the $0.05 a card could never be charged is waived, the hold is kept whole, and nothing is owed', () => {
    expect(fees.map((f) => f.amount)).toEqual([4_500, 15_505]);
    const split = splitAgainstDeposit(fees, 20_000);
    expect(split.capture).toBe(20_000);
    expect(split.due).toEqual([]);
    expect(split.waived.map((p) => [p.fee.kind, p.amount])).toEqual([['mileage', 5]]);
    expect(split.fromDeposit.map((p) => p.amount)).toEqual([4_500, 15_500]);
  });

  it('with no hold left, a lone $0.35 mileage fee is waived too', () => {
    const one = endTripFees({ ...base, batteryIn: 0.9, mileageIn: 12_601 });
    const split = splitAgainstDeposit(one, 0);
    expect(split.waived.map((p) => p.amount)).toEqual([MILEAGE_OVERAGE_CENTS_PER_MILE]);
    expect(split.due).toEqual([]);
  });

  it('from the minimum up, the remainder is owed by card as before', () => {
    const split = splitAgainstDeposit(fees, 20_005 - PROVIDER_MINIMUM_CHARGE_CENTS);
    expect(split.due.map((p) => p.amount)).toEqual([PROVIDER_MINIMUM_CHARGE_CENTS]);
    expect(split.waived).toEqual([]);
  });

  it('the rule holds for 1 to 49 cents only, and says so in words', () => {
    expect([0, 1, 49, 50, 51].map(isBelowCardMinimum)).toEqual([false, true, true, false, false]);
    expect(waivedNote(5)).toBe('$0.05 waived: below the $0.50 minimum card charge');
  });

  it('a waived row is told from a fee kept from the deposit and from a fee still owed', () => {
    const row = { category: 'Incidental', status: 'Successful', amount: 5, discount_amount: 5 };
    expect(isWaivedFee(row)).toBe(true);
    expect(isWaivedFee({ ...row, status: 'Pending' })).toBe(false);
    expect(isWaivedFee({ ...row, discount_amount: 0 })).toBe(false);
    expect(isWaivedFee({ ...row, stripe_reserve_applied_payment_intent_id: 'pi_1' })).toBe(false);
  });
});

describe('the time against the booked return, as the End Trip dialog says it', () => {
  const due = new Date('2027-01-11T16:00:00Z');
  const at = (minutes: number) => new Date(due.getTime() + minutes * 60_000);

  it('before the return: how long is left', () => {
    expect(returnTiming(due, at(-125))).toBe('2 h 5 min before your return time');
    expect(returnTiming(due, at(-0.5))).toBe('Right at your return time');
  });

  it('within the grace: past the time but not late, and no late fee', () => {
    expect(isLateReturn(29)).toBe(false);
    expect(returnTiming(due, at(29))).toBe('29 min past your return time, within the 29-minute grace');
    expect(endTripFees({ ...base, returnAt: due, endedAt: at(29) })).toEqual([]);
  });

  it('past the grace: late, and the late fees apply', () => {
    expect(isLateReturn(30)).toBe(true);
    expect(returnTiming(due, at(30))).toBe('30 min late, past the 29-minute grace');
    expect(endTripFees({ ...base, returnAt: due, endedAt: at(30) }).map((f) => f.kind)).toEqual(['late', 'lateRack']);
  });

  it('spans read in days, hours and minutes', () => {
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(24 * 60 + 61)).toBe('1 day 1 h');
    expect(formatMinutes(3 * 24 * 60)).toBe('3 days');
  });
});
