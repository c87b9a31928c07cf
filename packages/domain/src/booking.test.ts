import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BookingInput,
  type ReservationLike,
  type TransactionLike,
  afterBookingRoute,
  bookingLineItems,
  canCancel,
  TRIP_STATUS_LABELS,
  freeCancellationDeadline,
  confirmationTitle,
  damageWaiverRoute,
  dateChangeTitle,
  dayDiscountCents,
  extendedReturn,
  hasDamageWaiver,
  hasOutstandingBalance,
  isOldEnoughToRent,
  isPlatformId,
  isSoftCreditCheckPassed,
  movedUpPickup,
  newPlatformId,
  paymentBalance,
  securityDepositRequired,
  signaturesNeeded,
  submitLabel,
} from './booking.ts';
import { ADDON_TYPES, SECURITY_DEPOSIT_CENTS, UNDERAGE_FEE_CENTS_PER_DAY } from './constants.ts';
import type { PricedAddon } from './pricing.ts';
import { quoteTrip } from './pricing.ts';
import { netTotalCents } from './line-items.ts';
import { rentalDays } from './rental.ts';

/** What the items charge, leaving out the deposit hold. */
const chargeTotal = (items: readonly { category: string; amount: number; discount_amount: number }[]) =>
  netTotalCents(items.filter((i) => i.category !== 'Deposit'));
import { addDays, addMinutes, toInstant, toLocal } from './time.ts';

const waiver: PricedAddon = { id: 'collision-protection', type: 'DAMAGE_WAIVER', amount: 2_500, frequency: 'DAY' };
const miles: PricedAddon = { id: 'unlimited-miles', type: 'UNLIMITED_MILES', amount: 1_500, frequency: 'DAY' };
const charging: PricedAddon = {
  id: 'prepaid-charging-model-y',
  type: 'PREPAID_EV_CHARGING',
  amount: 3_500,
  frequency: 'ONE_TIME',
};

const base: BookingInput = {
  rackRateCents: 8_900,
  pickup: { date: '2026-12-01', time: '10:00' },
  return: { date: '2026-12-04', time: '10:00' },
  timeZone: 'America/Chicago',
  addons: [],
  taxRatePpm: 92_500,
  renterAgeAtPickup: 30,
  isNewReservation: true,
};

describe('booking line items', () => {
  it('rule: one Rack row per rental day, dated each local day from the pickup date', () => {
    const rack = bookingLineItems(base).filter((i) => i.category === 'Rack');
    expect(rack.map((r) => r.effective_date)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    expect(
      rack.every((r) => r.cost === 8_900 && r.amount === 8_900 && r.number_of_days === 1 && r.discount_amount === 0),
    ).toBe(true);
  });

  it('rule: rented days are the ceiling of the time difference, so 15 minutes late is one more Rack day', () => {
    const items = bookingLineItems({ ...base, return: { date: '2026-12-04', time: '10:15' } });
    expect(items.filter((i) => i.category === 'Rack')).toHaveLength(4);
  });

  it('rule: daily add-ons cost their price per day; one-time add-ons once; all in category Addon with the add-on attached', () => {
    const addons = bookingLineItems({ ...base, addons: [waiver, charging] }).filter((i) => i.category === 'Addon');
    expect(addons).toEqual([
      expect.objectContaining({
        addon_id: 'collision-protection',
        description: 'Collision Protection',
        cost: 2_500,
        amount: 7_500,
        number_of_days: 3,
      }),
      expect.objectContaining({
        addon_id: 'prepaid-charging-model-y',
        description: 'Prepaid Charging',
        cost: 3_500,
        amount: 3_500,
        number_of_days: null,
      }),
    ]);
  });

  it('rule: one Tax row on rack + add-ons, equal to quoteTrip’s tax; the total equals quoteTrip’s total', () => {
    const items = bookingLineItems({ ...base, addons: [waiver, miles, charging] });
    const quote = quoteTrip({ rackRateCents: 8_900, days: 3, taxRatePpm: 92_500, addons: [waiver, miles, charging] });
    expect(items.filter((i) => i.category === 'Tax').map((i) => i.amount)).toEqual([quote.taxCents]);
    expect(chargeTotal(items)).toBe(quote.totalCents);
  });

  it('rule (spec 9): a new reservation carries the $200.00 Deposit, untaxed and outside the charge total', () => {
    const items = bookingLineItems(base);
    expect(items.filter((i) => i.category === 'Deposit')).toEqual([
      expect.objectContaining({ amount: SECURITY_DEPOSIT_CENTS, cost: 20_000 }),
    ]);
    expect(bookingLineItems({ ...base, isNewReservation: false }).some((i) => i.category === 'Deposit')).toBe(false);
    expect(chargeTotal(items)).toBe(quoteTrip({ rackRateCents: 8_900, days: 3, taxRatePpm: 92_500 }).totalCents);
  });

  it('rule (spec 5, 9): under 25 at pickup adds the Underage User Fee per day (category Additional, taxed); 25 does not', () => {
    const young = bookingLineItems({ ...base, renterAgeAtPickup: 24 });
    const fee = young.find((i) => i.description === 'Underage User Fee');
    expect(fee).toMatchObject({
      category: 'Additional',
      cost: UNDERAGE_FEE_CENTS_PER_DAY,
      amount: 3 * UNDERAGE_FEE_CENTS_PER_DAY,
      number_of_days: 3,
    });
    expect(young.find((i) => i.category === 'Tax')!.amount).toBe(Math.round((3 * 8_900 + 3 * 2_500) * 0.0925));
    expect(
      bookingLineItems({ ...base, renterAgeAtPickup: 25 }).some((i) => i.description === 'Underage User Fee'),
    ).toBe(false);
    expect(
      bookingLineItems({ ...base, renterAgeAtPickup: null }).some((i) => i.description === 'Underage User Fee'),
    ).toBe(false);
  });

  it('rule (spec 3: PERCENTAGE per DAY): each Rack row is discounted; tax is on the discounted subtotal', () => {
    const items = bookingLineItems({ ...base, rackRateCents: 8_950, discountPercent: 10, addons: [waiver] });
    const rack = items.filter((i) => i.category === 'Rack');
    expect(rack.map((r) => r.discount_amount)).toEqual([895, 895, 895]);
    const taxable = 3 * (8_950 - 895) + 7_500;
    expect(items.find((i) => i.category === 'Tax')!.amount).toBe(Math.round(taxable * 0.0925));
    expect(items.find((i) => i.category === 'Addon')!.discount_amount).toBe(0);
    expect(dayDiscountCents(8_905, 15)).toBe(1_336); // 1,335.75 → 1,336
  });

  it('refuses a return that is not after the pickup and an unknown time zone', () => {
    expect(() => bookingLineItems({ ...base, return: base.pickup })).toThrow(RangeError);
    expect(() => bookingLineItems({ ...base, timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });

  it('rule (spec 9): the minimum renter age is 18; an unknown age is not refused', () => {
    expect([17, 18, null].map(isOldEnoughToRent)).toEqual([false, true, true]);
  });

  const addonArb = fc.record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    type: fc.constantFrom(...ADDON_TYPES),
    amount: fc.integer({ min: 0, max: 20_000 }),
    frequency: fc.constantFrom('DAY' as const, 'ONE_TIME' as const),
  });

  it('property: the line items add up to quoteTrip’s total in cents (no fee, no discount), plus the deposit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 28 * 24 * 4 }),
        fc.integer({ min: 0, max: 150_000 }),
        fc.array(addonArb, { maxLength: 3 }),
        fc.boolean(),
        (rack, quarterHours, taxPpm, addons, isNew) => {
          const pickup = { date: '2026-12-01', time: '09:15' };
          const ret = addMinutes(pickup, quarterHours * 15);
          const days = rentalDays(pickup, ret);
          fc.pre(days > 0);
          const items = bookingLineItems({
            ...base,
            rackRateCents: rack,
            pickup,
            return: ret,
            addons,
            taxRatePpm: taxPpm,
            renterAgeAtPickup: 40,
            isNewReservation: isNew,
          });
          const quote = quoteTrip({ rackRateCents: rack, days, taxRatePpm: taxPpm, addons });
          expect(chargeTotal(items)).toBe(quote.totalCents);
          expect(netTotalCents(items)).toBe(quote.totalCents + (isNew ? SECURITY_DEPOSIT_CENTS : 0));
          expect(items.every((i) => Number.isSafeInteger(i.amount) && Number.isSafeInteger(i.discount_amount))).toBe(
            true,
          );
        },
      ),
    );
  });

  it('property: with fee and discount the items still add up (rack − discounts + add-ons + fee + tax on that)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 150_000 }),
        fc.array(addonArb, { maxLength: 3 }),
        (rack, days, percent, taxPpm, addons) => {
          const items = bookingLineItems({
            ...base,
            rackRateCents: rack,
            return: { date: addDays(base.pickup.date, days), time: '10:00' },
            addons,
            taxRatePpm: taxPpm,
            renterAgeAtPickup: 21,
            discountPercent: percent,
          });
          const discount = days * dayDiscountCents(rack, percent);
          const subtotal =
            rack * days -
            discount +
            addons.reduce((s, a) => s + (a.frequency === 'DAY' ? a.amount * days : a.amount), 0) +
            UNDERAGE_FEE_CENTS_PER_DAY * days;
          const tax = items.find((i) => i.category === 'Tax')!.amount;
          expect(chargeTotal(items)).toBe(subtotal + tax);
          expect(tax).toBe(
            Math.sign(subtotal * taxPpm) * Math.floor((Math.abs(subtotal * taxPpm) + 500_000) / 1_000_000),
          );
          expect(items.every((i) => i.discount_amount <= i.amount)).toBe(true);
        },
      ),
    );
  });

  it('property: a rental across a daylight-saving change has the wall-clock number of days, one Rack row each', () => {
    const tz = 'America/New_York';
    fc.assert(
      fc.property(
        fc.integer({ min: -10, max: 0 }),
        fc.integer({ min: 1, max: 28 }),
        fc.constantFrom('2027-03-14', '2027-11-07'),
        fc.integer({ min: 0, max: 23 }),
        (offset, days, change, hour) => {
          const time = `${String(hour).padStart(2, '0')}:00`;
          const pickup = { date: addDays(change, offset), time };
          const ret = { date: addDays(pickup.date, days), time };
          expect(rentalDays(pickup, ret)).toBe(days);
          const rack = bookingLineItems({ ...base, timeZone: tz, pickup, return: ret }).filter(
            (i) => i.category === 'Rack',
          );
          expect(rack).toHaveLength(days);
          expect(rack.at(-1)!.effective_date).toBe(addDays(pickup.date, days - 1));
          // The elapsed time is not a whole number of days when the clock changed in between.
          const elapsedHours = (toInstant(ret, tz).getTime() - toInstant(pickup, tz).getTime()) / 3_600_000;
          expect(Math.abs(elapsedHours - days * 24)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

const tx = (t: Partial<TransactionLike> & Pick<TransactionLike, 'category' | 'status'>): TransactionLike => ({
  amount: 1_000,
  discount_amount: 0,
  effective_date: null,
  addon: null,
  ...t,
});

const trip = (over: Partial<ReservationLike> = {}): ReservationLike => ({
  status: 'Pending',
  pickup_at: toInstant({ date: '2026-12-01', time: '10:00' }, 'America/Chicago').toISOString(),
  return_at: toInstant({ date: '2026-12-04', time: '10:00' }, 'America/Chicago').toISOString(),
  timezone: 'America/Chicago',
  transactions: [],
  agreements: [],
  ...over,
});

const rackDays = (status: string, ...dates: string[]) =>
  dates.map((d) => tx({ category: 'Rack', status, effective_date: d }));

describe('reservation rules', () => {
  it('rule: the balance is pending non-deposit items net of discounts', () => {
    const t = [
      tx({ category: 'Rack', status: 'Pending', amount: 8_900, discount_amount: 890 }),
      tx({ category: 'Tax', status: 'Pending', amount: 740 }),
      tx({ category: 'Deposit', status: 'Pending', amount: 20_000 }),
      tx({ category: 'Rack', status: 'Successful', amount: 8_900 }),
      tx({ category: 'Addon', status: 'Canceled', amount: 2_500 }),
    ];
    expect(paymentBalance(t)).toBe(8_900 - 890 + 740);
  });

  it('rule (spec 4): the security deposit is required until a pending Deposit holds a card', () => {
    expect(securityDepositRequired([])).toBe(true);
    expect(securityDepositRequired([tx({ category: 'Deposit', status: 'Pending' })])).toBe(true);
    expect(securityDepositRequired([tx({ category: 'Deposit', status: 'Pending', card_last_4: '4242' })])).toBe(false);
    expect(securityDepositRequired([tx({ category: 'Deposit', status: 'Captured', card_last_4: '4242' })])).toBe(false);
    expect(securityDepositRequired([tx({ category: 'Deposit', status: 'Canceled', card_last_4: '4242' })])).toBe(true);
    expect(securityDepositRequired([tx({ category: 'Deposit', status: 'Failed' })])).toBe(true);
  });

  it('rule (spec 4): outstanding balance needs a Deposit transaction and a pending non-deposit one', () => {
    expect(
      hasOutstandingBalance([
        tx({ category: 'Deposit', status: 'Successful' }),
        tx({ category: 'Rack', status: 'Pending' }),
      ]),
    ).toBe(true);
    expect(hasOutstandingBalance([tx({ category: 'Rack', status: 'Pending' })])).toBe(false);
    expect(
      hasOutstandingBalance([
        tx({ category: 'Deposit', status: 'Pending' }),
        tx({ category: 'Rack', status: 'Successful' }),
      ]),
    ).toBe(false);
  });

  it('rule (spec 4): the damage waiver counts when a DAMAGE_WAIVER add-on row is not Canceled', () => {
    expect(hasDamageWaiver([tx({ category: 'Addon', status: 'Pending', addon: { type: 'DAMAGE_WAIVER' } })])).toBe(
      true,
    );
    expect(hasDamageWaiver([tx({ category: 'Addon', status: 'Canceled', addon: { type: 'DAMAGE_WAIVER' } })])).toBe(
      false,
    );
    expect(hasDamageWaiver([tx({ category: 'Addon', status: 'Pending', addon: { type: 'UNLIMITED_MILES' } })])).toBe(
      false,
    );
  });

  it('rule (spec 4): moved-up pickup — earliest pending rack date before pickup, on Pending or On Rent', () => {
    const earlier = [
      ...rackDays('Successful', '2026-12-01', '2026-12-02', '2026-12-03'),
      ...rackDays('Pending', '2026-11-30'),
    ];
    expect(movedUpPickup(trip({ transactions: earlier }))).toBe(true);
    expect(movedUpPickup(trip({ transactions: earlier, status: 'Started' }))).toBe(false);
    expect(movedUpPickup(trip({ transactions: rackDays('Pending', '2026-12-01', '2026-12-02') }))).toBe(false);
  });

  it('rule (spec 4): extended return — latest pending rack day after return_at, on Pending or On Rent', () => {
    expect(extendedReturn(trip({ status: 'On Rent', transactions: rackDays('Pending', '2026-12-04') }))).toBe(true);
    expect(extendedReturn(trip({ transactions: rackDays('Pending', '2026-12-01', '2026-12-02', '2026-12-03') }))).toBe(
      false,
    );
    expect(extendedReturn(trip({ status: 'Returned', transactions: rackDays('Pending', '2026-12-05') }))).toBe(false);
  });

  it('rule (spec 2): submit label — Confirm Booking, Modify Trip, Extend Trip, else Pay Now', () => {
    expect(submitLabel(trip({ status: 'Started', transactions: rackDays('Pending', '2026-12-01') }))).toBe(
      'Confirm Booking',
    );
    expect(submitLabel(trip({ transactions: rackDays('Pending', '2026-11-29') }))).toBe('Modify Trip');
    expect(submitLabel(trip({ transactions: rackDays('Pending', '2026-12-05') }))).toBe('Extend Trip');
    expect(submitLabel(trip({ transactions: [tx({ category: 'Addon', status: 'Pending' })] }))).toBe('Pay Now');
  });

  it('rule (spec 2): confirmation title by state', () => {
    const paid = rackDays('Successful', '2026-12-01', '2026-12-02', '2026-12-03');
    expect(confirmationTitle(trip({ status: 'Started', transactions: rackDays('Pending', '2026-12-01') }))).toBe(
      'Your rental is booked!',
    );
    expect(confirmationTitle(trip({ transactions: [...paid, ...rackDays('Pending', '2026-11-30')] }))).toBe(
      'Your trip has been modified!',
    );
    expect(confirmationTitle(trip({ transactions: [...paid, ...rackDays('Pending', '2026-12-04')] }))).toBe(
      'Your trip has been extended!',
    );
    expect(confirmationTitle(trip({ transactions: [...paid, tx({ category: 'Addon', status: 'Successful' })] }))).toBe(
      'Your Payment was successfull!',
    );
  });

  it('rule (spec 2, decision 027): a change already applied reads as what it did — an earlier pickup modified, a later return extended', () => {
    const before = { pickup_at: '2026-12-01T16:00:00.000Z', return_at: '2026-12-04T16:00:00.000Z' };
    const trip = (pickup_at: string, return_at: string) => ({ pickup_at, return_at, last_change: before });
    expect(dateChangeTitle(trip('2026-11-30T16:00:00.000Z', before.return_at))).toBe('Your trip has been modified!');
    expect(dateChangeTitle(trip(before.pickup_at, '2026-12-04T17:30:00.000Z'))).toBe('Your trip has been extended!');
    // Both at once: the moved-up pickup decides, as on the pay page.
    expect(dateChangeTitle(trip('2026-11-30T16:00:00.000Z', '2026-12-05T16:00:00.000Z'))).toBe(
      'Your trip has been modified!',
    );
    expect(dateChangeTitle({ ...before, last_change: null })).toBeNull();
  });

  it('rule (spec 4): signatures — waiver when the waiver add-on exists without its agreement; rental agreement when missing', () => {
    const withWaiver = [tx({ category: 'Addon', status: 'Pending', addon: { type: 'DAMAGE_WAIVER' } })];
    expect(signaturesNeeded({ transactions: withWaiver, agreements: [] })).toEqual({
      damageWaiver: true,
      rentalAgreement: true,
      any: true,
    });
    expect(
      signaturesNeeded({
        transactions: withWaiver,
        agreements: [{ type: 'DAMAGE_WAIVER' }, { type: 'RENTAL_AGREEMENT' }],
      }).any,
    ).toBe(false);
    expect(signaturesNeeded({ transactions: [], agreements: [{ type: 'RENTAL_AGREEMENT' }] })).toEqual({
      damageWaiver: false,
      rentalAgreement: false,
      any: false,
    });
  });

  it('rule (spec 4): damage waiver page — trip page unless Started or Pending; signature when the waiver is on', () => {
    expect(damageWaiverRoute({ status: 'On Rent', transactions: [] })).toBe('trip');
    expect(
      damageWaiverRoute({
        status: 'Started',
        transactions: [tx({ category: 'Addon', status: 'Pending', addon: { type: 'DAMAGE_WAIVER' } })],
      }),
    ).toBe('signature');
    expect(damageWaiverRoute({ status: 'Pending', transactions: [] })).toBe('page');
  });

  it('rule (spec 4): after booking — the waiver page when available, not chosen and not skipped, or when asked for', () => {
    expect(afterBookingRoute({ waiverAvailable: true, waiverChosen: false, skipDamageWaiver: false })).toBe(
      'damage-waiver',
    );
    expect(afterBookingRoute({ waiverAvailable: true, waiverChosen: true, skipDamageWaiver: false })).toBe('signature');
    expect(afterBookingRoute({ waiverAvailable: true, waiverChosen: false, skipDamageWaiver: true })).toBe('signature');
    expect(
      afterBookingRoute({
        waiverAvailable: true,
        waiverChosen: true,
        skipDamageWaiver: true,
        redirectToDamageWaiver: true,
      }),
    ).toBe('damage-waiver');
  });

  it('rule (spec 9): cancelling is free and offered only until one day before pickup', () => {
    const r = trip({ status: 'Pending' });
    const deadline = toInstant({ date: '2026-11-30', time: '10:00' }, 'America/Chicago').getTime();
    expect(freeCancellationDeadline(r.pickup_at, r.timezone).getTime()).toBe(deadline);
    expect(canCancel(r, new Date(deadline - 1))).toBe(true);
    expect(canCancel(r, new Date(deadline))).toBe(false);
    expect(canCancel({ ...r, status: 'Started' }, new Date(deadline - 1))).toBe(true);
    expect(canCancel({ ...r, status: 'On Rent' }, new Date(deadline - 48 * 3_600_000))).toBe(false);
    expect(canCancel({ ...r, status: 'Canceled' }, new Date(deadline - 48 * 3_600_000))).toBe(false);
  });

  it('rule (spec 9): the free-cancellation deadline is the same clock time the day before, in the pickup zone, across daylight-saving changes', () => {
    const chicago = 'America/Chicago';
    // Spring forward (2026-03-08): 10:00 CDT pickup, deadline 10:00 CST the day before: 23 hours earlier.
    const spring = toInstant({ date: '2026-03-08', time: '10:00' }, chicago);
    const springDeadline = freeCancellationDeadline(spring, chicago);
    expect(toLocal(springDeadline, chicago)).toEqual({ date: '2026-03-07', time: '10:00' });
    expect(springDeadline.toISOString()).toBe('2026-03-07T16:00:00.000Z');
    expect(spring.getTime() - springDeadline.getTime()).toBe(23 * 3_600_000);
    // Fall back (2026-11-01): 25 hours earlier.
    const fall = toInstant({ date: '2026-11-01', time: '10:00' }, chicago);
    expect(fall.getTime() - freeCancellationDeadline(fall, chicago).getTime()).toBe(25 * 3_600_000);
    // The day after a change: a time the change skipped on the day before reads as the clocks do.
    const afterGap = toInstant({ date: '2026-03-09', time: '02:30' }, chicago);
    expect(toLocal(freeCancellationDeadline(afterGap, chicago), chicago)).toEqual({
      date: '2026-03-08',
      time: '03:30',
    });
    // Another zone reads its own clock: the same instant is a different local time in Phoenix (no DST).
    const phoenix = 'America/Phoenix';
    const pickup = toInstant({ date: '2026-03-08', time: '10:00' }, phoenix);
    expect(pickup.getTime() - freeCancellationDeadline(pickup, phoenix).getTime()).toBe(24 * 3_600_000);
  });

  it('rule: the built-in soft credit check declines the last name Decline (any case) and passes others', () => {
    expect(isSoftCreditCheckPassed({ last_name: 'Decline' })).toBe(false);
    expect(isSoftCreditCheckPassed({ last_name: '  dEcLiNe ' })).toBe(false);
    expect(isSoftCreditCheckPassed({ last_name: 'Declined' })).toBe(true);
    expect(isSoftCreditCheckPassed({ last_name: null })).toBe(true);
  });

  it('rule: platform ids are dash-separated uppercase Crockford base32, e.g. AMP-7K2Q-9XD4', () => {
    expect(newPlatformId(new Uint8Array([0, 0, 0, 0, 0]))).toBe('AMP-0000-0000');
    expect(newPlatformId(new Uint8Array([255, 255, 255, 255, 255]))).toBe('AMP-ZZZZ-ZZZZ');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 5, maxLength: 5 }), (bytes) => {
        expect(isPlatformId(newPlatformId(bytes))).toBe(true);
      }),
    );
    const ids = new Set(Array.from({ length: 256 }, (_, i) => newPlatformId(new Uint8Array([i, 0, 0, 0, 1]))));
    expect(ids.size).toBe(256);
  });
});

describe('trip status as a renter reads it', () => {
  it('every status has a plain label; a paid trip not yet begun is Upcoming, and a cancelled one is spelt as the spec spells it', () => {
    expect(TRIP_STATUS_LABELS).toEqual({
      Started: 'Awaiting payment',
      Pending: 'Upcoming',
      'On Rent': 'Active',
      Returned: 'Completed',
      Canceled: 'Cancelled',
    });
  });
});
