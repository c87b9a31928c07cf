import { describe, expect, it } from 'vitest';
import {
  LOW_BATTERY_PERCENT,
  OVERDUE_GRACE_MINUTES,
  dayWindows,
  isLowBattery,
  lookupKinds,
  staffBoardChannel,
  staffBoardLocation,
} from './day.ts';
import { LATE_RETURN_GRACE_MINUTES } from './end-trip.ts';

describe('the today board’s day (decision 086)', () => {
  it('is the location’s own date, bounded by its midnights, whatever the date is in UTC', () => {
    // 23:50 in Honolulu on 22 November is already the 23rd in UTC.
    const w = dayWindows(new Date('2026-11-23T09:50:00Z'), 'Pacific/Honolulu');
    expect(w.today).toBe('2026-11-22');
    expect(w.tomorrow).toBe('2026-11-23');
    expect(w.todayStart.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(w.tomorrowStart.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(w.dayAfterStart.toISOString()).toBe('2026-11-24T10:00:00.000Z');
  });
  it('keeps a day 23 hours long on the night clocks go forward', () => {
    const w = dayWindows(new Date('2026-03-08T12:00:00Z'), 'America/Chicago');
    expect(w.tomorrowStart.getTime() - w.todayStart.getTime()).toBe(23 * 3_600_000);
  });
  it('counts a return overdue only past the late fee’s grace, and a pickup soon within a day', () => {
    const now = new Date('2026-11-23T09:50:00Z');
    const w = dayWindows(now, 'UTC');
    expect(OVERDUE_GRACE_MINUTES).toBe(LATE_RETURN_GRACE_MINUTES);
    expect(now.getTime() - w.overdueBefore.getTime()).toBe(29 * 60_000);
    expect(w.soonUntil.getTime() - now.getTime()).toBe(24 * 3_600_000);
  });
  it('flags a battery below the threshold', () => {
    expect(isLowBattery(LOW_BATTERY_PERCENT - 1)).toBe(true);
    expect(isLowBattery(LOW_BATTERY_PERCENT)).toBe(false);
  });
});

describe('what a lookup text is tried as', () => {
  it.each([
    ['ana@example.com', ['email']],
    ['5b3c1f4e-9d2a-4c1b-8f3e-2a1b3c4d5e6f', ['trip']],
    ['(615) 555-0123', ['phone']],
    ['+44 20 7946 0958', ['phone']],
    ['6155550123', ['phone', 'vin', 'trip']],
    ['800123', ['trip', 'vin', 'email', 'name']],
    ['R-7', ['trip', 'email', 'name']],
    ['ana.lima', ['email', 'name']],
    ['Ana Lima', ['name']],
  ])('%s as %j', (text, kinds) => {
    expect(lookupKinds(text)).toEqual(kinds);
  });
});

describe('the staff board channel', () => {
  it('names a location, and is told apart from any renter’s channel', () => {
    expect(staffBoardChannel(12)).toBe('private-ops-location-12');
    expect(staffBoardLocation('private-ops-location-12')).toBe('12');
    expect(staffBoardLocation('private-user-test-123')).toBeNull();
  });
});
