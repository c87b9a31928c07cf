import { describe, expect, it } from 'vitest';
import { statedWhen, tollWhen } from './money-words.ts';

describe('the toll import’s times', () => {
  it('a matched toll is on its trip’s lot’s clock, the zone named, whatever the browser’s zone', () => {
    // Written on the statement as 11:00 CST; never the browser's '5:00 PM UTC'.
    expect(tollWhen({ at: '2026-11-29T17:00:00.000Z', timezone: 'America/Chicago' })).toMatch(
      /^Nov 29, 2026, 11:00\sAM CST$/,
    );
    expect(tollWhen({ at: '2026-07-01T16:00:00.000Z', timezone: 'America/Phoenix' })).toMatch(/9:00\sAM MST$/);
  });

  it('an unmatched row’s time is the statement’s own words, its offset kept', () => {
    expect(statedWhen({ statedAt: '2026-11-29T11:00:00-06:00' })).toBe('2026-11-29T11:00:00-06:00');
    expect(statedWhen({ statedAt: null })).toBe('—');
  });
});
