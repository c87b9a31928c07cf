import { describe, expect, it } from 'vitest';
import {
  INT4_MAX,
  IdParam,
  IsoInstant,
  LocalDateParam,
  MAX_INPUT_DEPTH,
  findInputProblem,
  hasUnstorableCharacters,
} from './common.ts';

describe('input every field must satisfy', () => {
  it('refuses NUL and unpaired surrogates, keeps proper pairs and ordinary text', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'x\udc00', '\udc00\ud800', 'end\ud83d'])
      expect(hasUnstorableCharacters(bad)).toBe(true);
    for (const good of ['', 'Nashville', 'café', '🚗', 'a\ud83d\ude97b', '\u202e'])
      expect(hasUnstorableCharacters(good)).toBe(false);
  });

  it('names where the problem is, in values and in keys, at any depth', () => {
    expect(findInputProblem({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: 'a.1.c',
      message: expect.stringMatching(/NUL/),
    });
    expect(findInputProblem({ a: { 'k\u0000': 1 } })?.path).toBe('a');
    expect(findInputProblem('\ud800')?.path).toBe('');
    expect(findInputProblem({ a: 1, b: [true, null, 'fine'] })).toBeNull();
    expect(findInputProblem(new Uint8Array([0, 0]))).toBeNull();
  });

  it('refuses nesting deeper than the bound without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInputProblem(deep)?.message).toMatch(/nests too deeply/);
    let fits: unknown = 1;
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) fits = { a: fits };
    expect(findInputProblem(fits)).toBeNull();
    expect(findInputProblem({ x: fits })?.message).toMatch(/nests too deeply/);
  });

  it('bounds ids to what an integer column holds', () => {
    expect(IdParam.safeParse(String(INT4_MAX)).success).toBe(true);
    expect(IdParam.safeParse(String(INT4_MAX + 1)).success).toBe(false);
    expect(IdParam.safeParse('0').success).toBe(false);
    expect(IdParam.safeParse('1.5').success).toBe(false);
  });

  it('bounds dates and instants to the years 1900 to 9999', () => {
    const instant = IsoInstant('must be an ISO date-time');
    expect(instant.safeParse('2026-11-22T15:00:00Z').success).toBe(true);
    expect(instant.safeParse('2026-11-22T15:00:00-06:00').success).toBe(true);
    for (const bad of ['0000-01-01T00:00:00Z', '1899-12-31T23:59:59Z', '10000-01-01T00:00:00Z', 'yesterday'])
      expect(instant.safeParse(bad).success).toBe(false);
    expect(LocalDateParam.safeParse('2027-01-13').success).toBe(true);
    for (const bad of ['0000-01-01', '0100-01-01', '1899-12-31', '2027-02-30'])
      expect(LocalDateParam.safeParse(bad).success).toBe(false);
  });
});
