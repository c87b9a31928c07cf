import { describe, expect, it } from 'vitest';
import { builtinSuggestions } from './builtin-provider.ts';

describe('built-in address suggestions', () => {
  it('keeps the typed house number and matches the street by the start of its words', () => {
    const out = builtinSuggestions({ search: '123 Main', preferStates: [], includeStates: [] });
    expect(out.map((s) => `${s.street_line}, ${s.city}, ${s.state} ${s.zipcode}`)).toEqual([
      '123 Main St, Nashville, TN 37206',
      '123 Main St, Dallas, TX 75202',
    ]);
    expect(out.every((s) => s.secondary === '')).toBe(true);
  });

  it('lists the preferred states first', () => {
    const out = builtinSuggestions({ search: '500 Main', preferStates: ['TX'], includeStates: [] });
    expect(out.map((s) => s.state)).toEqual(['TX', 'TN']);
  });

  it('accepts spelled-out suffixes and directions (street = St, east = E)', () => {
    expect(builtinSuggestions({ search: '10 east sixth', preferStates: [], includeStates: [] })).toEqual([]);
    expect(builtinSuggestions({ search: '10 east 6th street', preferStates: [], includeStates: [] })).toEqual([
      { street_line: '10 E 6th St', secondary: '', city: 'Austin', state: 'TX', zipcode: '78701' },
    ]);
  });

  it('narrows by the city typed after a comma', () => {
    const out = builtinSuggestions({ search: '700 Commerce St, Dallas', preferStates: ['TN'], includeStates: [] });
    expect(out).toEqual([
      { street_line: '700 Commerce St', secondary: '', city: 'Dallas', state: 'TX', zipcode: '75202' },
    ]);
  });

  it('suggests numbered addresses for a single letter, at most 10, each with a real ZIP code of its city', () => {
    const out = builtinSuggestions({ search: 'b', preferStates: ['TN', 'MO'], includeStates: [] });
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThanOrEqual(10);
    for (const s of out) expect(s.street_line).toMatch(/^\d+ /);
    expect(out[0]).toMatchObject({
      street_line: expect.stringMatching(/^\d+ Broadway$/),
      city: 'Nashville',
      zipcode: '37203',
    });
  });

  it('gives the same house number each time for an untyped one', () => {
    expect(builtinSuggestions({ search: 'Lindell', preferStates: [], includeStates: [] })).toEqual(
      builtinSuggestions({ search: 'Lindell', preferStates: [], includeStates: [] }),
    );
  });

  it('finds nothing for text no street, city or ZIP code starts with', () => {
    expect(builtinSuggestions({ search: '12 Qqqq', preferStates: [], includeStates: [] })).toEqual([]);
  });

  it('keeps to the included states (spec 7: include_only_states), preferred ones first among them', () => {
    const out = builtinSuggestions({ search: '500 Main', preferStates: ['TN'], includeStates: ['TX'] });
    expect(out.map((s) => `${s.street_line}, ${s.city}, ${s.state}`)).toEqual(['500 Main St, Dallas, TX']);
    expect(builtinSuggestions({ search: 'Broadway', preferStates: [], includeStates: ['CA', 'NY'] })).toEqual([]);
    expect(
      builtinSuggestions({ search: 'b', preferStates: [], includeStates: ['AZ'] }).every((s) => s.state === 'AZ'),
    ).toBe(true);
  });
});
