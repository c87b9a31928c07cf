import { describe, expect, it } from 'vitest';
import { canCancel, extendedReturn, isBeforePickup, isOpenTrip, movedUpPickup, submitLabel } from './booking.ts';
import { RESERVATION_STATUSES } from './constants.ts';
import { isKeyTripStatus } from './verification.ts';
import { addedDays, dateChangeItems, dateChangeProblems } from './trip-change.ts';
import { toInstant } from './time.ts';

const TZ = 'America/Chicago';
const current = { pickup: { date: '2027-01-08', time: '10:00' }, return: { date: '2027-01-11', time: '10:00' } };
const NOW = new Date('2027-01-01T15:00:00Z');
const WAIVER = { id: 'w', type: 'DAMAGE_WAIVER' as const, amount: 1_500, frequency: 'DAY' as const };

describe('changing a trip’s dates', () => {
  it('extending by two days adds two rack days after the last one, the daily add-ons and the underage fee for them', () => {
    const requested = { ...current, return: { date: '2027-01-13', time: '10:00' } };
    expect(addedDays({ current, requested })).toEqual({ before: 0, after: 2 });
    const items = dateChangeItems({ current, requested, rackRateCents: 9_900, dailyAddons: [WAIVER], underage: true });
    expect(items.map((i) => [i.category, i.effective_date, i.amount])).toEqual([
      ['Rack', '2027-01-11', 9_900],
      ['Rack', '2027-01-12', 9_900],
      ['Addon', '2027-01-11', 3_000],
      ['Additional', '2027-01-11', 5_000],
    ]);
    // The pay page reads them as an extension (spec 4).
    const reservation = {
      status: 'Pending' as const,
      pickup_at: toInstant(current.pickup, TZ),
      return_at: toInstant(current.return, TZ),
      timezone: TZ,
      transactions: items.map((i) => ({ ...i, status: 'Pending' })),
    };
    expect(extendedReturn(reservation)).toBe(true);
    expect(movedUpPickup(reservation)).toBe(false);
    expect(submitLabel(reservation)).toBe('Extend Trip');
  });

  it('moving the pickup a day earlier adds a day dated on the new pickup date: the pay page says Modify Trip', () => {
    const requested = { ...current, pickup: { date: '2027-01-07', time: '10:00' } };
    const items = dateChangeItems({ current, requested, rackRateCents: 9_900, dailyAddons: [], underage: false });
    expect(items.map((i) => i.effective_date)).toEqual(['2027-01-07']);
    const reservation = {
      status: 'Pending' as const,
      pickup_at: toInstant(current.pickup, TZ),
      return_at: toInstant(current.return, TZ),
      timezone: TZ,
      transactions: items.map((i) => ({ ...i, status: 'Pending' })),
    };
    expect(submitLabel(reservation)).toBe('Modify Trip');
  });

  it('a return moved later within the last rental day adds nothing to pay', () => {
    const short = { pickup: { date: '2027-01-08', time: '10:00' }, return: { date: '2027-01-11', time: '08:00' } };
    const requested = { ...short, return: { date: '2027-01-11', time: '09:45' } };
    expect(
      dateChangeItems({ current: short, requested, rackRateCents: 9_900, dailyAddons: [WAIVER], underage: false }),
    ).toEqual([]);
  });

  it('refuses what is not a widening, a moved pickup once on rent, and unpaid or ended trips', () => {
    const base = { current, now: NOW, timeZone: TZ };
    expect(
      dateChangeProblems({
        ...base,
        status: 'Pending',
        requested: { ...current, return: { date: '2027-01-10', time: '10:00' } },
      })[0]!.message,
    ).toMatch(/only move later/);
    expect(
      dateChangeProblems({
        ...base,
        status: 'Pending',
        requested: { ...current, pickup: { date: '2027-01-09', time: '10:00' } },
      })[0]!.message,
    ).toMatch(/only move earlier/);
    expect(dateChangeProblems({ ...base, status: 'Pending', requested: current })[0]!.message).toMatch(/already/);
    expect(
      dateChangeProblems({
        ...base,
        status: 'On Rent',
        requested: { ...current, pickup: { date: '2027-01-07', time: '10:00' } },
      })[0]!.message,
    ).toBe('The trip has started: only the return can move.');
    expect(
      dateChangeProblems({
        ...base,
        status: 'Started',
        requested: { ...current, return: { date: '2027-01-12', time: '10:00' } },
      })[0]!.message,
    ).toBe('Pay for this trip before changing its dates.');
    expect(
      dateChangeProblems({
        ...base,
        status: 'Returned',
        requested: { ...current, return: { date: '2027-01-12', time: '10:00' } },
      })[0]!.message,
    ).toBe('This trip can no longer be changed.');
    expect(
      dateChangeProblems({
        ...base,
        status: 'Pending',
        requested: { ...current, return: { date: '2027-02-12', time: '10:00' } },
      })[0]!.message,
    ).toBe('The return must be within 28 days of the pickup.');
    expect(
      dateChangeProblems({
        ...base,
        status: 'Pending',
        requested: { ...current, return: { date: '2027-01-12', time: '10:00' } },
      }),
    ).toEqual([]);
  });

  it('a pickup moved earlier must still be bookable: not sooner than the buffer allows', () => {
    const now = new Date('2027-01-07T15:00:00Z'); // 09:00 in Chicago the day before pickup
    const problems = dateChangeProblems({
      status: 'Pending',
      current,
      now,
      timeZone: TZ,
      requested: { ...current, pickup: { date: '2027-01-07', time: '11:00' } },
    });
    expect(problems[0]!.message).toBe('The pickup time is too soon; choose a later time.');
  });
});

describe('which trips can change', () => {
  it('rule: only an open trip, paid and not over (Pending or On Rent), can change its dates and has a key', () => {
    const open = RESERVATION_STATUSES.filter(isOpenTrip);
    expect(open).toEqual(['Pending', 'On Rent']);
    expect(RESERVATION_STATUSES.filter(isKeyTripStatus)).toEqual(open);
  });
  it('rule: only a trip before its pickup (Started or Pending) can change its add-ons and be cancelled', () => {
    expect(RESERVATION_STATUSES.filter(isBeforePickup)).toEqual(['Started', 'Pending']);
    const pickup_at = toInstant(current.pickup, TZ);
    const cancellable = RESERVATION_STATUSES.filter((status) => canCancel({ status, pickup_at, timezone: TZ }, NOW));
    expect(cancellable).toEqual(['Started', 'Pending']);
  });
  it('a trip that is not open is told why its dates cannot change', () => {
    const requested = { ...current, return: { date: '2027-01-12', time: '10:00' } };
    const problem = (status: (typeof RESERVATION_STATUSES)[number]) =>
      dateChangeProblems({ status, current, requested, now: NOW, timeZone: TZ })[0]?.message;
    expect(problem('Started')).toBe('Pay for this trip before changing its dates.');
    expect(problem('Returned')).toBe('This trip can no longer be changed.');
    expect(problem('Canceled')).toBe('This trip can no longer be changed.');
    expect(problem('Pending')).toBeUndefined();
  });
});
