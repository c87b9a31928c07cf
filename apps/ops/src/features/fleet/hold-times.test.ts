import { describe, expect, it } from 'vitest';
import { fieldValueOf, instantOf } from './hold-times.ts';

describe('a hold typed on the lot’s clock', () => {
  it('rule: 9:00 typed for a Chicago lot is 9:00 in Chicago (CST, UTC−6), whatever the browser’s zone', () => {
    expect(instantOf('2026-12-01T09:00', 'America/Chicago')).toBe('2026-12-01T15:00:00.000Z');
    expect(instantOf('2026-12-01T09:00', 'America/Phoenix')).toBe('2026-12-01T16:00:00.000Z');
  });

  it('rule: summer time is the lot’s own (Chicago in July is UTC−5)', () => {
    expect(instantOf('2026-07-01T09:00', 'America/Chicago')).toBe('2026-07-01T14:00:00.000Z');
  });

  it('rule: an empty or half-typed field is no instant yet', () => {
    expect(instantOf('', 'America/Chicago')).toBeNull();
    expect(instantOf('2026-12-01', 'America/Chicago')).toBeNull();
  });

  it('rule: a hold’s instant reads back as the same wall-clock time at the lot, across a clock change', () => {
    for (const value of ['2026-11-01T00:30', '2026-11-01T03:00', '2026-03-08T01:30', '2026-03-08T04:00'])
      expect(fieldValueOf(instantOf(value, 'America/Chicago')!, 'America/Chicago')).toBe(value);
  });
});
