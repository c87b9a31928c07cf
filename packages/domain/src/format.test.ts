import { describe, expect, it } from 'vitest';
import { endingIn, formatDateLong, formatDateShort, formatDateUs, formatTime12, weekday } from './format.ts';

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
