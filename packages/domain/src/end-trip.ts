import { INCLUDED_MILES_PER_DAY } from './constants.ts';
import { PROVIDER_MINIMUM_CHARGE_CENTS, assertCents, formatTotal } from './money.ts';
import { rentalDaysBetween } from './rental.ts';

/**
 * Ending a trip (spec 4 'End-trip', 9 'End-trip charging minimum', 'Included mileage', and the fee
 * types of spec 3): what the return costs on top of the rental, in cents. The amounts are ours
 * (decision 026); the spec names the fee types and the thresholds.
 */

/** Spec 9: the battery a car must come back with, as a fraction: 80% with prepaid charging, else 10%. */
export const CHARGING_MINIMUM_PREPAID = 0.8;
export const CHARGING_MINIMUM = 0.1;

/** Spec 3 'recharge by level bands 0-20 / 21-50 / 51-80': the fee for a car returned in each band (percent, inclusive). */
export const RECHARGE_BANDS = [
  { from: 0, to: 20, cents: 4_500 },
  { from: 21, to: 50, cents: 3_000 },
  { from: 51, to: 80, cents: 1_500 },
] as const;

/** Spec 3 'mileage overage': per mile beyond the included 200 a day (decision 026). */
export const MILEAGE_OVERAGE_CENTS_PER_MILE = 35;

/** A return this many minutes after the booked time is not late (decision 026). */
export const LATE_RETURN_GRACE_MINUTES = 29;
/** Spec 3 'late': once, for a return after the grace. */
export const LATE_FEE_CENTS = 2_500;

export const FEE_DESCRIPTIONS = {
  recharge: 'Recharge Fee',
  mileage: 'Mileage Overage',
  late: 'Late Return Fee',
  lateRack: 'Late Additional Rack Rate',
} as const;
export type FeeKind = keyof typeof FEE_DESCRIPTIONS;

/** A fee row's place in receipt order (recharge, mileage, late, late rack), from its description; others last. */
export function feeRank(description: string): number {
  const i = Object.values(FEE_DESCRIPTIONS).findIndex((d) => description.startsWith(d));
  return i === -1 ? Number.MAX_SAFE_INTEGER : i;
}

export interface EndTripFee {
  kind: FeeKind;
  description: string;
  /** Unit price in cents: per mile, per day, or the fee itself. */
  cost: number;
  /** Miles over, days late, or 1. */
  quantity: number;
  amount: number;
}

export interface EndTripInput {
  /** The booked trip, as instants, and its location's zone. */
  pickupAt: Date;
  returnAt: Date;
  timeZone: string;
  /** When the renter ended it. */
  endedAt: Date;
  rackRateCents: number;
  /** Odometer (miles) when the car went out and came back; null when the car did not report. */
  mileageOut: number | null;
  mileageIn: number | null;
  /** Battery as a fraction 0–1 when the car went out and came back; null when the car did not report. */
  batteryOut: number | null;
  batteryIn: number | null;
  unlimitedMiles: boolean;
  prepaidCharging: boolean;
}

/** Spec 9: the charging minimum for this trip. */
export function chargingMinimum(prepaidCharging: boolean): number {
  return prepaidCharging ? CHARGING_MINIMUM_PREPAID : CHARGING_MINIMUM;
}

/**
 * The least charge a car may come back with and owe no Recharge Fee: the charging minimum, or the
 * charge it went out with when that was lower (decision 103: nobody pays to charge a car that was
 * handed over low). Without a reading at pickup, the minimum.
 */
export function returnChargeNeeded(prepaidCharging: boolean, batteryOut: number | null): number {
  const minimum = chargingMinimum(prepaidCharging);
  return batteryOut !== null && batteryOut < minimum ? batteryOut : minimum;
}

/** The recharge band a battery level falls in (whole percent, rounded down), or null above the bands. */
export function rechargeBand(batteryIn: number): (typeof RECHARGE_BANDS)[number] | null {
  const percent = Math.floor(Math.max(0, Math.min(1, batteryIn)) * 100 + 1e-9);
  return RECHARGE_BANDS.find((b) => percent >= b.from && percent <= b.to) ?? null;
}

/** Spec 9: included miles are 200 per booked rental day, on the location's clock. */
export function includedMiles(pickupAt: Date, returnAt: Date, timeZone: string): number {
  return INCLUDED_MILES_PER_DAY * rentalDaysBetween(pickupAt, returnAt, timeZone);
}

/** Whole miles driven between two odometer readings (never negative). */
export function milesDriven(mileageOut: number, mileageIn: number): number {
  return Math.max(0, Math.round(mileageIn - mileageOut));
}

/** Whole minutes after the booked return (0 when on time or early). */
export function minutesLate(returnAt: Date, endedAt: Date): number {
  return Math.max(0, Math.ceil((endedAt.getTime() - returnAt.getTime()) / 60_000));
}

/** Spec 3 'late': a return more than the grace after the booked time is late. */
export function isLateReturn(minutesLate: number): boolean {
  return minutesLate > LATE_RETURN_GRACE_MINUTES;
}

/** A span of whole minutes as a renter reads it: '12 min', '3 h 5 min', '2 days 1 h'. */
export function formatMinutes(minutes: number): string {
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days} ${days === 1 ? 'day' : 'days'}${hours > 0 ? ` ${hours} h` : ''}`;
  if (hours > 0) return `${hours} h${mins > 0 ? ` ${mins} min` : ''}`;
  return `${mins} min`;
}

/** The time now against the booked return, as the End Trip dialog says it (decision 054). */
export function returnTiming(returnAt: Date, now: Date): string {
  const late = minutesLate(returnAt, now);
  if (late === 0) {
    const early = Math.floor((returnAt.getTime() - now.getTime()) / 60_000);
    return early === 0 ? 'Right at your return time' : `${formatMinutes(early)} before your return time`;
  }
  if (!isLateReturn(late))
    return `${formatMinutes(late)} past your return time, within the ${LATE_RETURN_GRACE_MINUTES}-minute grace`;
  return `${formatMinutes(late)} late, past the ${LATE_RETURN_GRACE_MINUTES}-minute grace`;
}

/**
 * The fees a return owes, each in cents, in receipt order:
 * - recharge: the battery below the charging minimum, priced by the band it is in, unless it came
 *   back with at least the charge it went out with (decision 103: nobody pays to charge a car that
 *   was handed over low);
 * - mileage overage: whole miles driven beyond 200 per booked day, unless Unlimited Miles;
 * - late: past the grace, the late fee once and the rack rate for each started day late.
 * A reading the car did not give charges nothing (the renter is not charged on a guess).
 */
export function endTripFees(input: EndTripInput): EndTripFee[] {
  assertCents(input.rackRateCents);
  const fees: EndTripFee[] = [];
  if (input.batteryIn !== null && input.batteryIn < returnChargeNeeded(input.prepaidCharging, input.batteryOut)) {
    const band = rechargeBand(input.batteryIn);
    if (band)
      fees.push({
        kind: 'recharge',
        description: `${FEE_DESCRIPTIONS.recharge} (${band.from}–${band.to}%)`,
        cost: band.cents,
        quantity: 1,
        amount: band.cents,
      });
  }
  if (!input.unlimitedMiles && input.mileageOut !== null && input.mileageIn !== null) {
    const driven = milesDriven(input.mileageOut, input.mileageIn);
    const over = driven - includedMiles(input.pickupAt, input.returnAt, input.timeZone);
    if (over > 0)
      fees.push({
        kind: 'mileage',
        description: `${FEE_DESCRIPTIONS.mileage} (${over} mi)`,
        cost: MILEAGE_OVERAGE_CENTS_PER_MILE,
        quantity: over,
        amount: over * MILEAGE_OVERAGE_CENTS_PER_MILE,
      });
  }
  const late = minutesLate(input.returnAt, input.endedAt);
  if (isLateReturn(late)) {
    fees.push({
      kind: 'late',
      description: FEE_DESCRIPTIONS.late,
      cost: LATE_FEE_CENTS,
      quantity: 1,
      amount: LATE_FEE_CENTS,
    });
    const days = Math.ceil(late / (24 * 60));
    fees.push({
      kind: 'lateRack',
      description: `${FEE_DESCRIPTIONS.lateRack} (${days} ${days === 1 ? 'day' : 'days'})`,
      cost: input.rackRateCents,
      quantity: days,
      amount: days * input.rackRateCents,
    });
  }
  return fees;
}

export interface DepositSplit {
  /** Taken from the deposit hold (partial capture), each fee's part. */
  fromDeposit: { fee: EndTripFee; amount: number }[];
  /** Left to pay by card: the part of the fees the deposit does not cover. */
  due: { fee: EndTripFee; amount: number }[];
  /** The part the deposit does not cover when it is too small for a card to be charged: written off (decision 056). */
  waived: { fee: EndTripFee; amount: number }[];
  capture: number;
}

/**
 * Rule (decision 056): a balance above nothing and below the provider's minimum charge can never be
 * paid by card, so it is waived rather than owed for ever.
 */
export function isBelowCardMinimum(cents: number): boolean {
  assertCents(cents);
  return cents > 0 && cents < PROVIDER_MINIMUM_CHARGE_CENTS;
}

/** How a waived part reads wherever it is shown: '$0.05 waived: below the $0.50 minimum card charge'. */
export function waivedNote(cents: number): string {
  return `${formatTotal(cents)} waived: below the ${formatTotal(PROVIDER_MINIMUM_CHARGE_CENTS)} minimum card charge`;
}

/**
 * A fee row written off under that rule: its discount is its whole amount, it is settled, and no
 * payment or hold took it (decision 056). Nothing else discounts a fee of the return.
 */
export function isWaivedFee(t: {
  category: string;
  status: string;
  amount: number;
  discount_amount: number;
  stripe_reserve_applied_payment_intent_id?: string | null;
}): boolean {
  return (
    t.category === 'Incidental' &&
    t.status === 'Successful' &&
    t.amount > 0 &&
    t.discount_amount === t.amount &&
    !t.stripe_reserve_applied_payment_intent_id
  );
}

/**
 * Fees are taken from the deposit hold, in order, up to what the hold can give; a fee that does
 * not fit in full is split, and what is left is owed as a balance — or waived when that balance is
 * below the provider's minimum charge. `hold` is 0 when there is no live hold to capture from.
 */
export function splitAgainstDeposit(fees: readonly EndTripFee[], hold: number): DepositSplit {
  assertCents(hold);
  let room = hold;
  const fromDeposit: DepositSplit['fromDeposit'] = [];
  const due: DepositSplit['due'] = [];
  for (const fee of fees) {
    const taken = Math.min(room, fee.amount);
    if (taken > 0) fromDeposit.push({ fee, amount: taken });
    if (fee.amount - taken > 0) due.push({ fee, amount: fee.amount - taken });
    room -= taken;
  }
  const owed = due.reduce((sum, p) => sum + p.amount, 0);
  if (isBelowCardMinimum(owed)) return { fromDeposit, due: [], waived: due, capture: hold - room };
  return { fromDeposit, due, waived: [], capture: hold - room };
}
