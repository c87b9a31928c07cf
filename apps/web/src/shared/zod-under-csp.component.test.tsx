import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The pages run under a Content-Security-Policy without 'unsafe-eval': making the contract's schemas
 * in a browser must not try `new Function`, or the browser reports a violation on every page that
 * loads them (it did on the trip page, through its charges).
 */
describe('the contract’s schemas in a browser', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are made and parse without ever calling Function', async () => {
    vi.resetModules();
    const made = vi.spyOn(globalThis, 'Function');
    const { ChargeParams } = await import('@ampere/domain/contract/charges');
    const { z } = await import('zod');
    const schema = z.object({ id: z.string(), cents: z.number().int() });
    expect(schema.parse({ id: 'a', cents: 5 })).toEqual({ id: 'a', cents: 5 });
    expect(ChargeParams.safeParse({ chargeId: 'not an id' }).success).toBe(false);
    expect(made).not.toHaveBeenCalled();
  });
});
