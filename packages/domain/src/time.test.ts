import { describe, expect, it } from 'vitest';
import { toInstant, toLocal } from './time.ts';

describe('time zones', () => {
  it('converts Nashville local 10:00 in December to 16:00 UTC (CST, UTC-6)', () => {
    expect(toInstant({ date: '2026-12-01', time: '10:00' }, 'America/Chicago').toISOString()).toBe(
      '2026-12-01T16:00:00.000Z',
    );
  });
  it('Phoenix stays UTC-7 all year (no daylight saving)', () => {
    expect(toInstant({ date: '2026-07-01', time: '10:00' }, 'America/Phoenix').toISOString()).toBe(
      '2026-07-01T17:00:00.000Z',
    );
    expect(toInstant({ date: '2026-12-01', time: '10:00' }, 'America/Phoenix').toISOString()).toBe(
      '2026-12-01T17:00:00.000Z',
    );
  });
  it('a time skipped by spring-forward reads as the same clock time after the change', () => {
    const instant = toInstant({ date: '2027-03-14', time: '02:30' }, 'America/Chicago');
    expect(toLocal(instant, 'America/Chicago')).toEqual({ date: '2027-03-14', time: '03:30' });
  });
  it('a time repeated by fall-back resolves to its first occurrence', () => {
    expect(toInstant({ date: '2026-11-01', time: '01:30' }, 'America/Chicago').toISOString()).toBe(
      '2026-11-01T06:30:00.000Z',
    );
  });
  it('round-trips a local time through an instant', () => {
    const instant = toInstant({ date: '2026-11-22', time: '09:15' }, 'America/Los_Angeles');
    expect(toLocal(instant, 'America/Los_Angeles')).toEqual({ date: '2026-11-22', time: '09:15' });
  });
});
