import { describe, expect, it } from 'vitest';
import { rentalDays } from './rental.ts';
import {
  TIME_OPTIONS,
  blockedReason,
  bumpToAllowed,
  defaultTrip,
  defaultTripFor,
  dropdownDefaultTime,
  earliestSelectable,
  isTimeDisabled,
  maxPickupDate,
  moveToEarliestValid,
  withDefaultTimes,
  pickRangeDay,
  setPickupDate,
  setReturn,
  tripLengthProblem,
  tripWithoutTimes,
  tripProblems,
} from './dates.ts';

const CHI = 'America/Chicago';

describe('time lists', () => {
  it('rule: 15-minute steps from 00:00 to 23:45', () => {
    expect(TIME_OPTIONS).toHaveLength(96);
    expect(TIME_OPTIONS[0]).toBe('00:00');
    expect(TIME_OPTIONS[1]).toBe('00:15');
    expect(TIME_OPTIONS.at(-1)).toBe('23:45');
  });
  it('rule: earliest selectable = now rounded down to the hour + buffer + 1 hour, in the location zone', () => {
    // 15:40Z is 09:40 in Chicago: 09:00 + 4 h + 1 h = 14:00.
    expect(earliestSelectable(new Date('2026-11-22T15:40:00Z'), CHI)).toEqual({ date: '2026-11-22', time: '14:00' });
    expect(earliestSelectable(new Date('2026-11-22T15:40:00Z'), CHI, 2)).toEqual({ date: '2026-11-22', time: '12:00' });
    // Late evening crosses midnight.
    expect(earliestSelectable(new Date('2026-11-23T03:10:00Z'), CHI)).toEqual({ date: '2026-11-23', time: '02:00' });
  });
  it('rule: earliest selectable uses the default buffer of 4 hours when the location has none', () => {
    expect(earliestSelectable(new Date('2026-11-22T15:40:00Z'), CHI, null)).toEqual({
      date: '2026-11-22',
      time: '14:00',
    });
  });
  it('rule: times before the earliest on that day are disabled; later days are open', () => {
    const earliest = { date: '2026-11-22', time: '14:00' };
    expect(isTimeDisabled('2026-11-22', '13:45', earliest)).toBe(true);
    expect(isTimeDisabled('2026-11-22', '14:00', earliest)).toBe(false);
    expect(isTimeDisabled('2026-11-23', '00:00', earliest)).toBe(false);
  });
  it('rule: a disabled time is bumped by 15-minute steps to the next allowed one', () => {
    const earliest = { date: '2026-11-22', time: '14:00' };
    expect(bumpToAllowed({ date: '2026-11-22', time: '10:00' }, earliest)).toEqual({
      date: '2026-11-22',
      time: '14:00',
    });
    expect(bumpToAllowed({ date: '2026-11-23', time: '10:00' }, earliest)).toEqual({
      date: '2026-11-23',
      time: '10:00',
    });
    expect(bumpToAllowed({ date: '2026-11-21', time: '10:00' }, earliest)).toEqual({
      date: '2026-11-22',
      time: '14:00',
    });
  });
  it('rule: the dropdown default is now + 3 hours rounded up to 15 minutes, capped at 23:45', () => {
    expect(dropdownDefaultTime(new Date('2026-11-22T15:40:00Z'), CHI)).toBe('12:45');
    expect(dropdownDefaultTime(new Date('2026-11-23T03:00:00Z'), CHI)).toBe('23:45');
  });
});

describe('dates without times (an address naming only the dates)', () => {
  const now = new Date('2026-11-22T15:40:00Z'); // 09:40 in Chicago
  const dates = { pickupDate: '2026-12-01', returnDate: '2026-12-05' };
  it('rule: the pickup takes the dropdown default, now + 3 hours rounded up to 15 minutes; the return equals it', () => {
    expect(withDefaultTimes(dates, now, CHI)).toEqual({ ...dates, pickupTime: '12:45', returnTime: '12:45' });
  });
  it('rule: the default is capped at 23:45, and a time the address gives is kept', () => {
    expect(withDefaultTimes(dates, new Date('2026-11-23T03:00:00Z'), CHI).pickupTime).toBe('23:45');
    expect(withDefaultTimes({ ...dates, returnTime: '09:00' }, now, CHI)).toEqual({
      ...dates,
      pickupTime: '12:45',
      returnTime: '09:00',
    });
    expect(withDefaultTimes({ ...dates, pickupTime: '08:00' }, now, CHI).returnTime).toBe('08:00');
  });
});

describe('a bookmarked search whose dates have passed', () => {
  // 15:40Z is 09:40 in Chicago: the earliest pickup is 14:00 that day.
  const now = new Date('2026-11-22T15:40:00Z');
  it('rule: moves to the earliest valid day, keeping the pickup time, the length in days and the return time', () => {
    const asked = { pickupDate: '2026-10-01', pickupTime: '16:00', returnDate: '2026-10-04', returnTime: '11:00' };
    expect(moveToEarliestValid(asked, now, CHI)).toEqual({
      pickupDate: '2026-11-22',
      pickupTime: '16:00',
      returnDate: '2026-11-25',
      returnTime: '11:00',
    });
  });
  it('rule: a pickup time too soon on the earliest day is bumped to the earliest allowed time', () => {
    const asked = { pickupDate: '2026-11-20', pickupTime: '09:00', returnDate: '2026-11-21', returnTime: '09:00' };
    expect(moveToEarliestValid(asked, now, CHI)).toEqual({
      pickupDate: '2026-11-22',
      pickupTime: '14:00',
      returnDate: '2026-11-23',
      returnTime: '09:00',
    });
  });
  it("rule: the location's own lead time counts; late in the day the trip moves to the next day", () => {
    const asked = { pickupDate: '2026-11-21', pickupTime: '10:00', returnDate: '2026-11-23', returnTime: '10:00' };
    // 04:10Z on the 23rd is 22:10 on the 22nd in Chicago: 22:00 + 4 h + 1 h = 03:00 on the 23rd.
    expect(moveToEarliestValid(asked, new Date('2026-11-23T04:10:00Z'), CHI)).toEqual({
      pickupDate: '2026-11-23',
      pickupTime: '10:00',
      returnDate: '2026-11-25',
      returnTime: '10:00',
    });
    expect(moveToEarliestValid(asked, now, CHI, 8)?.pickupDate).toBe('2026-11-22');
  });
  it('rule: a broken length becomes at least 1 day and at most 28', () => {
    const same = { pickupDate: '2026-11-01', pickupTime: '15:00', returnDate: '2026-11-01', returnTime: '18:00' };
    expect(moveToEarliestValid(same, now, CHI)?.returnDate).toBe('2026-11-23');
    const long = { pickupDate: '2026-10-01', pickupTime: '15:00', returnDate: '2026-12-30', returnTime: '15:00' };
    expect(moveToEarliestValid(long, now, CHI)?.returnDate).toBe('2026-12-20');
  });
  it('rule: a pickup still selectable is left alone', () => {
    const fine = { pickupDate: '2026-11-22', pickupTime: '14:00', returnDate: '2026-11-29', returnTime: '14:00' };
    expect(moveToEarliestValid(fine, now, CHI)).toBeNull();
  });
});

describe('calendar days', () => {
  const today = '2026-11-22';
  it('rule: days before today are disabled', () => {
    expect(blockedReason('2026-11-21', { today })).toBe('past');
    expect(blockedReason('2026-11-22', { today })).toBeNull();
  });
  it('rule: the latest pickup is 365 days from today', () => {
    expect(maxPickupDate(today)).toBe('2027-11-22');
    expect(blockedReason('2027-11-22', { today })).toBeNull();
    expect(blockedReason('2027-11-23', { today })).toBe('beyond-max');
  });
  it('rule: listed unavailable dates are blocked', () => {
    expect(blockedReason('2026-12-02', { today, unavailable: new Set(['2026-12-02']) })).toBe('unavailable');
  });
  it('rule: once a pickup is picked the other date must be within 28 days before or after it', () => {
    const rules = { today, anchor: '2026-12-10', pickingReturn: true };
    expect(blockedReason('2027-01-07', rules)).toBeNull();
    expect(blockedReason('2027-01-08', rules)).toBe('outside-window');
    expect(blockedReason('2026-11-11', { ...rules, today: '2026-11-01' })).toBe('outside-window');
    expect(blockedReason('2026-11-12', { ...rules, today: '2026-11-01' })).toBeNull();
  });
  it('rule: the minimum return date is one day after pickup', () => {
    expect(blockedReason('2026-12-10', { today, anchor: '2026-12-10', pickingReturn: true })).toBe('before-min-return');
    expect(blockedReason('2026-12-11', { today, anchor: '2026-12-10', pickingReturn: true })).toBeNull();
  });
});

describe('range picking', () => {
  it('rule: the first pick sets the pickup and leaves the return open', () => {
    expect(pickRangeDay({ start: null, end: null }, '2026-12-01')).toEqual({ start: '2026-12-01', end: null });
  });
  it('rule: a later day sets the return', () => {
    expect(pickRangeDay({ start: '2026-12-01', end: null }, '2026-12-05')).toEqual({
      start: '2026-12-01',
      end: '2026-12-05',
    });
  });
  it('rule: picking a return before the pickup resets the range to the new date with no return', () => {
    expect(pickRangeDay({ start: '2026-12-05', end: null }, '2026-12-01')).toEqual({ start: '2026-12-01', end: null });
  });
  it('a click on a complete range starts a new one', () => {
    expect(pickRangeDay({ start: '2026-12-01', end: '2026-12-05' }, '2026-12-09')).toEqual({
      start: '2026-12-09',
      end: null,
    });
  });
  it('rule: setting a pickup on or after the return moves the return to keep the previous length', () => {
    const trip = { pickupDate: '2026-12-01', pickupTime: '10:00', returnDate: '2026-12-04', returnTime: '10:00' };
    expect(setPickupDate(trip, '2026-12-04')).toMatchObject({ pickupDate: '2026-12-04', returnDate: '2026-12-07' });
    expect(setPickupDate(trip, '2026-12-10')).toMatchObject({ pickupDate: '2026-12-10', returnDate: '2026-12-13' });
    expect(setPickupDate(trip, '2026-12-02')).toMatchObject({ pickupDate: '2026-12-02', returnDate: '2026-12-04' });
  });
  it('rule: a return on the pickup day at the same time is pushed 2 hours later (next day past midnight)', () => {
    const trip = { pickupDate: '2026-12-01', pickupTime: '10:00', returnDate: '2026-12-04', returnTime: '10:00' };
    expect(setReturn(trip, '2026-12-01', '10:00')).toMatchObject({ returnDate: '2026-12-01', returnTime: '12:00' });
    const late = { ...trip, pickupTime: '23:00' };
    expect(setReturn(late, '2026-12-01', '23:00')).toMatchObject({ returnDate: '2026-12-02', returnTime: '01:00' });
    expect(setReturn(trip, '2026-12-03', '09:00')).toMatchObject({ returnDate: '2026-12-03', returnTime: '09:00' });
  });
});

describe('defaults and server checks', () => {
  it('rule: pickup tomorrow at the current hour, return 7 days later at the same time', () => {
    expect(defaultTrip(new Date('2026-11-22T15:40:00Z'), CHI)).toEqual({
      pickupDate: '2026-11-23',
      pickupTime: '09:00',
      returnDate: '2026-11-30',
      returnTime: '09:00',
    });
  });
  it("rule: a place's default pickup is no earlier than its own earliest selectable time (its buffer, else 4 hours)", () => {
    const now = new Date('2026-11-22T15:40:00Z'); // 09:40 in Chicago
    expect(defaultTripFor(now, CHI, null)).toEqual(defaultTrip(now, CHI));
    expect(defaultTripFor(now, CHI, 4)).toEqual(defaultTrip(now, CHI));
    // A lot asking 30 hours' notice: 09:00 + 30 h + 1 h = 16:00 the next day; the return keeps its date.
    expect(defaultTripFor(now, CHI, 30)).toEqual({
      pickupDate: '2026-11-23',
      pickupTime: '16:00',
      returnDate: '2026-11-30',
      returnTime: '09:00',
    });
    // 50 hours: past the default pickup day, the pickup moves two days on, the return stays a week out.
    expect(defaultTripFor(now, CHI, 50)).toMatchObject({
      pickupDate: '2026-11-24',
      pickupTime: '12:00',
      returnDate: '2026-11-30',
    });
    // Ten days' notice is past the default return: the return moves on to keep the week.
    expect(defaultTripFor(now, CHI, 240)).toMatchObject({
      pickupDate: '2026-12-02',
      pickupTime: '10:00',
      returnDate: '2026-12-09',
    });
  });
  it('the server refuses a return not after the pickup, a range over 28 days, a past or too-distant pickup', () => {
    const now = new Date('2026-11-22T15:00:00Z');
    const base = { pickupDate: '2026-12-01', pickupTime: '10:00', returnDate: '2026-12-08', returnTime: '10:00' };
    expect(tripProblems(base, now, CHI)).toEqual([]);
    expect(tripProblems({ ...base, returnDate: '2026-12-01' }, now, CHI)[0]!.field).toBe('returnDate');
    expect(tripProblems({ ...base, returnDate: '2026-12-30' }, now, CHI)[0]!.message).toMatch(/28 days/);
    expect(tripProblems({ ...base, pickupDate: '2026-11-20', returnDate: '2026-11-25' }, now, CHI)[0]!.field).toBe(
      'pickupDate',
    );
    expect(
      tripProblems({ ...base, pickupDate: '2026-11-22', pickupTime: '10:00', returnDate: '2026-11-25' }, now, CHI)[0]!
        .field,
    ).toBe('pickupTime');
    expect(tripProblems({ ...base, pickupDate: '2027-11-23', returnDate: '2027-11-25' }, now, CHI)[0]!.message).toMatch(
      /365/,
    );
  });
  it('rule: any period the server looks at is at most 28 days, whenever it is (no clock involved)', () => {
    const base = { pickupDate: '2031-03-01', pickupTime: '10:00', returnDate: '2031-03-29', returnTime: '23:45' };
    expect(tripLengthProblem(base)).toBeNull();
    expect(tripLengthProblem({ ...base, returnDate: '2031-03-30', returnTime: '00:00' })).toEqual({
      field: 'returnDate',
      message: 'The return must be within 28 days of the pickup.',
    });
    expect(tripLengthProblem({ ...base, returnDate: '2039-03-01' })?.message).toBe(
      'The return must be within 28 days of the pickup.',
    );
    expect(tripLengthProblem({ ...base, returnDate: '2031-03-01', returnTime: '10:00' })).toEqual({
      field: 'returnDate',
      message: 'The return must be after the pickup.',
    });
  });
});

describe('the booking card with no times set counts at least 7 days (spec 5, 9)', () => {
  it('dates 3 days apart without times become a week from the pickup, at 10:00', () => {
    const trip = tripWithoutTimes('2031-03-10', '2031-03-13');
    expect(trip).toEqual({
      pickupDate: '2031-03-10',
      pickupTime: '10:00',
      returnDate: '2031-03-17',
      returnTime: '10:00',
    });
    expect(
      rentalDays({ date: trip.pickupDate, time: trip.pickupTime }, { date: trip.returnDate, time: trip.returnTime }),
    ).toBe(7);
  });

  it('a longer trip keeps its return date', () => {
    expect(tripWithoutTimes('2031-03-10', '2031-03-22').returnDate).toBe('2031-03-22');
  });

  it('a return before the pickup still gives a week', () => {
    expect(tripWithoutTimes('2031-12-30', '2031-12-01').returnDate).toBe('2032-01-06');
  });
});
