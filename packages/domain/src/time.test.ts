import { describe, expect, it, vi } from 'vitest';
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

describe("a first screen's zone readings", () => {
  // A fixed instant either side of Chicago's change back to standard time.
  const summer = new Date('2026-10-31T15:20:00Z');
  const winter = new Date('2026-11-02T15:20:00Z');

  it('hand the browser the same dates and zone names without building a single formatter', async () => {
    vi.resetModules();
    const server = await import('./time.ts');
    const [drawn, readings] = server.recordZoneReadings(() =>
      [summer, winter].map((d) => [server.toLocal(d, 'America/Chicago'), server.zoneShortName(d, 'America/Chicago')]),
    );
    expect(drawn).toEqual([
      [{ date: '2026-10-31', time: '10:20' }, 'CDT'],
      [{ date: '2026-11-02', time: '09:20' }, 'CST'],
    ]);
    vi.resetModules();
    const browser = await import('./time.ts');
    browser.seedZoneReadings(JSON.parse(JSON.stringify(readings)) as typeof readings);
    const Original = Intl.DateTimeFormat;
    let built = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        built++;
      }
    } as typeof Intl.DateTimeFormat;
    try {
      const taken = [summer, winter].map((d) => [
        browser.toLocal(d, 'America/Chicago'),
        browser.zoneShortName(d, 'America/Chicago'),
      ]);
      expect(taken).toEqual(drawn);
      expect(browser.isTimeZone('America/Chicago')).toBe(true);
      expect(built).toBe(0);
      // A zone the drawing never read is read as before.
      expect(browser.toLocal(summer, 'America/Denver')).toEqual({ date: '2026-10-31', time: '09:20' });
      expect(built).toBe(1);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });

  it('are recorded only while drawing', async () => {
    vi.resetModules();
    const time = await import('./time.ts');
    time.toLocal(summer, 'America/Phoenix');
    const [, readings] = time.recordZoneReadings(() => time.toLocal(winter, 'America/New_York'));
    expect(Object.keys(readings)).toEqual(['America/New_York']);
  });
});
