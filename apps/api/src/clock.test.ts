import { describe, expect, it } from 'vitest';
import { clockStartingAt, configuredClock, systemClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';

describe('the server clock', () => {
  it('starts at CLOCK_START and runs on at the machine pace', () => {
    // Started 90 seconds ago at 23:59 on New Year's Eve: it now reads past midnight.
    const clock = clockStartingAt(new Date('2027-12-31T23:59:00Z'), Date.now() - 90_000);
    expect(clock().getTime()).toBeGreaterThanOrEqual(Date.parse('2028-01-01T00:00:30Z'));
    expect(clock().toISOString().slice(0, 4)).toBe('2028');
    expect(new Date(clockStartingAt(new Date('2027-03-14T08:00:00Z'))().getTime()).toISOString().slice(0, 10)).toBe(
      '2027-03-14',
    );
  });

  it('is the machine clock unless CLOCK_START is set', () => {
    expect(loadConfig({}).clockStart).toBeUndefined();
    expect(configuredClock(loadConfig({}))).toBe(systemClock);
    const config = loadConfig({ CLOCK_START: '2028-02-29T05:30:00-06:00' });
    expect(config.clockStart?.toISOString()).toBe('2028-02-29T11:30:00.000Z');
    expect(configuredClock(config)().toISOString().slice(0, 10)).toBe('2028-02-29');
  });

  it('refuses CLOCK_START in production and says what to do', () => {
    expect(() => loadConfig({ CLOCK_START: '2027-03-14T08:00:00Z', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ CLOCK_START: '2027-03-14T08:00:00Z', NODE_ENV: 'production' })).toThrow(
      /Refusing to start in production \(NODE_ENV=production\)[\s\S]*CLOCK_START moves the server's clock for tests: unset CLOCK_START/,
    );
    expect(() => loadConfig({ CLOCK_START: 'next tuesday' })).toThrow(/CLOCK_START must be an ISO 8601 instant/);
  });
});
