import { describe, expect, it } from 'vitest';
import {
  addressLine,
  endingIn,
  formatDateLong,
  formatDateShort,
  formatDateUs,
  formatInstantForRecord,
  formatInstantInZone,
  formatTime12,
  formatTimeInZone,
  weekday,
} from './format.ts';

describe('date and time display', () => {
  it('rule: the date picker shows dates MM/DD/YYYY', () => {
    expect(formatDateUs('2026-12-01')).toBe('12/01/2026');
  });
  it('rule: dates are formatted en-US short month, day, year', () => {
    expect(formatDateShort('2027-03-14')).toBe('Mar 14, 2027');
  });
  it('names the weekday for screen readers', () => {
    expect(weekday('2026-11-22')).toBe(0);
    expect(formatDateLong('2026-12-01')).toBe('Tuesday, December 1, 2026');
  });
  it('shows times on a 12-hour clock', () => {
    expect(formatTime12('00:00')).toBe('12:00 AM');
    expect(formatTime12('12:15')).toBe('12:15 PM');
    expect(formatTime12('23:45')).toBe('11:45 PM');
  });
});

describe('numbers by their last four', () => {
  it("rule (spec 2, Profile): a card or license shows 'ending in ...' and its last 4", () => {
    expect(endingIn('4242')).toBe('ending in ...4242');
    expect(endingIn('D1234-5678-9012 ')).toBe('ending in ...9012');
  });
});

describe('instants on the clock of the place', () => {
  it('rule (spec 9): the trip pages show the date, the time and the zone’s short name', () => {
    expect(formatInstantInZone('2026-07-01T17:00:00Z', 'America/Phoenix')).toBe('Jul 1, 2026, 10:00 AM MST');
    expect(formatTimeInZone('2026-12-01T16:00:00Z', 'America/Chicago')).toBe('10:00 AM CST');
  });
  it('rule: a signed document adds the weekday and the zone’s name, so the time reads the same anywhere', () => {
    expect(formatInstantForRecord(new Date('2026-07-01T17:00:00Z'), 'America/Phoenix')).toBe(
      'Wed, Jul 1, 2026, 10:00 AM MST (America/Phoenix)',
    );
    expect(formatInstantForRecord(new Date('2026-07-01T17:00:00Z'), 'America/Chicago')).toBe(
      'Wed, Jul 1, 2026, 12:00 PM CDT (America/Chicago)',
    );
  });
});

describe('addresses', () => {
  it('rule: a place reads street, city, state and ZIP code on one line', () => {
    const place = { name: 'Music Row Lot', street: '501 Broadway', city: 'Nashville', state: 'TN', zip_code: '37203' };
    expect(addressLine(place)).toBe('501 Broadway, Nashville, TN 37203');
  });
});
