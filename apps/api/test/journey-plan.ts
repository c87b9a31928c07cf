import fc from 'fast-check';
import { TEST_NOW } from './harness.ts';
import { STAGES, type Stage } from './renter-view.ts';

/**
 * What a generated journey (decision 055) draws: one renter's one trip, from booking to its end,
 * with the extras, coupon, age, changes and return that make its money differ from another's.
 */

export const EXTRAS = ['DAMAGE_WAIVER', 'UNLIMITED_MILES', 'PREPAID_EV_CHARGING'] as const;
export type Extra = (typeof EXTRAS)[number];
export type Coupon = 'WELCOME10' | 'EVENT15';

/** Where a journey's clock starts: late autumn, or days before the US spring-forward, so trips cross it. */
export const STARTS = { autumn: TEST_NOW, spring: new Date('2027-03-10T15:00:00Z') } as const;

export interface Journey {
  /** The car's own lot: its zone, daily rate and the place's tax rate (parts per million). */
  car: { timezone: string; rackRate: number; taxRatePpm: number };
  start: keyof typeof STARTS;
  /** The clock when the renter books, this many minutes after the start (09:00 in Chicago). */
  bookedAfterMinutes: number;
  leadDays: number;
  days: number;
  pickupTime: string;
  returnTime: string;
  extras: Extra[];
  coupon: Coupon | null;
  /** Under 25 at pickup: the underage fee applies. */
  young: boolean;
  /** License and insurance approved before paying, so the trip gets a key once paid. */
  verified: boolean;
  /**
   * Changed after the payment was prepared and before the card was confirmed: an extra switched,
   * the coupon applied only now, or the birthday given only now.
   */
  beforePaying: null | { kind: 'extra'; extra: Extra } | { kind: 'coupon' } | { kind: 'birthday' };
  /** How the app hears of each payment: the pay page's confirm call, or only the provider's webhook. */
  heardBy: 'confirm' | 'webhook';
  /**
   * A change of dates once paid, before pickup: a pickup days earlier, a return days later, a coupon
   * typed in for what the change adds; paid or left to lapse.
   */
  afterPaying: null | { earlierDays: number; laterDays: number; coupon: Coupon | null; pay: boolean };
  /**
   * Cancelled before paying, after paying, or not at all (a cancellation refused goes on to the
   * return); or left unpaid past the 30-minute hold, to lapse.
   */
  cancel: 'no' | 'unpaid' | 'paid' | 'lapse';
  /** An extension asked for while On Rent (days), paid or not. */
  extension: { days: number; pay: boolean };
  /**
   * The return: battery left, miles beyond (or within, negative) the allowance — or just enough
   * beyond it for the fees to pass the deposit hold by under the 50-cent minimum card charge
   * (decision 056) — and minutes after the return time.
   */
  ride: { battery: number; milesOver: number | 'justPastDeposit'; minutesLate: number };
  /** A balance the return left (fees beyond the deposit) is paid by card. */
  payFees: boolean;
  /** The stages at which every page is read (at the others, the trip and its receipt); always at the end. */
  fullReads: Stage[];
}

const extra = fc.constantFrom(...EXTRAS);

export const journeyArbitrary: fc.Arbitrary<Journey> = fc.record({
  car: fc.record({
    timezone: fc.constantFrom('America/Chicago', 'America/Phoenix', 'America/Los_Angeles', 'America/New_York'),
    rackRate: fc.constantFrom(4_900, 8_950, 9_900, 13_333, 18_900),
    taxRatePpm: fc.constantFrom(0, 70_000, 92_500, 102_750),
  }),
  start: fc.constantFrom('autumn' as const, 'spring' as const),
  bookedAfterMinutes: fc.integer({ min: 0, max: 14 * 60 }),
  leadDays: fc.integer({ min: 2, max: 6 }),
  days: fc.integer({ min: 1, max: 4 }),
  pickupTime: fc.constantFrom('08:00', '10:00', '13:30', '17:45'),
  returnTime: fc.constantFrom('08:00', '10:00', '13:30', '17:45'),
  extras: fc.subarray([...EXTRAS]),
  coupon: fc.constantFrom<Coupon | null>('WELCOME10', 'EVENT15', null),
  young: fc.boolean(),
  verified: fc.boolean(),
  beforePaying: fc.oneof(
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('extra' as const), extra }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'coupon' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'birthday' as const }), weight: 1 },
  ),
  heardBy: fc.constantFrom('confirm' as const, 'webhook' as const),
  afterPaying: fc.option(
    fc.record({
      earlierDays: fc.integer({ min: 0, max: 1 }),
      laterDays: fc.integer({ min: 0, max: 2 }),
      coupon: fc.constantFrom<Coupon | null>('WELCOME10', 'EVENT15', null, null),
      pay: fc.boolean(),
    }),
    { nil: null, freq: 2 },
  ),
  cancel: fc.constantFrom(
    'no' as const,
    'no' as const,
    'no' as const,
    'unpaid' as const,
    'paid' as const,
    'lapse' as const,
  ),
  extension: fc.record({ days: fc.integer({ min: 0, max: 2 }), pay: fc.boolean() }),
  ride: fc.record({
    battery: fc.constantFrom(0.03, 0.2, 0.21, 0.5, 0.51, 0.79, 0.8, 0.97),
    milesOver: fc.constantFrom<number | 'justPastDeposit'>(-150, 0, 1, 57, 420, 'justPastDeposit'),
    minutesLate: fc.constantFrom(-90, 0, 29, 30, 200, 26 * 60),
  }),
  payFees: fc.boolean(),
  fullReads: fc.subarray([...STAGES], { maxLength: 2 }),
});

/** The journey in a line, for a failure's report. */
export function describeJourney(j: Journey): string {
  const parts = [
    `${j.days}-day trip ${j.leadDays} days ahead (${j.pickupTime}→${j.returnTime}) in ${j.car.timezone}`,
    `at ${j.car.rackRate}¢/day, tax ${j.car.taxRatePpm} ppm, booked ${j.bookedAfterMinutes} min after the ${j.start} start`,
    `extras [${j.extras.join(', ')}]`,
    `coupon ${j.coupon ?? 'none'}`,
    j.young ? 'under 25' : '25 or over',
    j.verified ? 'verified' : 'not verified',
    j.beforePaying ? `before paying: ${JSON.stringify(j.beforePaying)}` : 'no change before paying',
    `heard by ${j.heardBy}`,
    j.afterPaying ? `after paying: ${JSON.stringify(j.afterPaying)}` : 'no change after paying',
    `cancel ${j.cancel}`,
    `extension ${JSON.stringify(j.extension)}`,
    `ride ${JSON.stringify(j.ride)}`,
    j.payFees ? 'fees paid' : 'fees left',
    `every page read when ${[...j.fullReads, 'at the end'].join(', ')}`,
  ];
  return parts.join('; ');
}
