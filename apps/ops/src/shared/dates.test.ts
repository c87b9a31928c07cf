import { describe, expect, it } from 'vitest';
import { formatDayTime, formatDuration, formatLocalDate, formatTime } from './dates.ts';

describe('times on a location’s clock', () => {
  it('rule (decision 088): a time is the lot’s, its zone named, whatever the browser’s zone', () => {
    expect(formatTime('2026-11-28T16:00:00Z', 'America/Chicago')).toMatch(/^10:00\sAM CST$/);
    expect(formatTime('2026-07-01T16:00:00Z', 'America/Phoenix')).toMatch(/^9:00\sAM MST$/);
    expect(formatDayTime('2026-11-29T05:30:00Z', 'America/Chicago')).toMatch(/^Sat, Nov 28, 11:30\sPM CST$/);
  });

  it('a location’s date reads the same in every browser zone', () => {
    expect(formatLocalDate('2026-11-27')).toBe('Friday, November 27');
  });

  it('how late, in minutes, hours, or days past two', () => {
    expect(formatDuration(17 * 60_000)).toBe('17 min');
    expect(formatDuration(3 * 3_600_000 + 17 * 60_000)).toBe('3 h 17 min');
    expect(formatDuration(5 * 3_600_000)).toBe('5 h');
    expect(formatDuration(3 * 86_400_000)).toBe('3 days');
    expect(formatDuration(-5)).toBe('0 min');
  });
});
