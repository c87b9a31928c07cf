import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carAtNewLot } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

/** Development only: a simulated car put to sleep answers nothing until woken (decision 096). */
describe.each(engines())('a simulated car asleep on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { movableClock: true });
  });
  afterAll(() => ctx?.close());

  const sleep = (vin: string, asleep: boolean) =>
    ctx.app.inject({ method: 'POST', url: `/api/dev/vehicles/${vin}/sleep`, payload: { asleep } });
  const read = async (vin: string) => {
    const car = await ctx.handle.db
      .selectFrom('vehicles')
      .select(['id', 'vin', 'odometer'])
      .where('vin', '=', vin)
      .executeTakeFirstOrThrow();
    return ctx.app.vehicleAccess.state(car).then(
      (state) => state.locked,
      (err: Error) => err.message,
    );
  };

  it('answers nothing while asleep, and again once woken; an unknown car is a 404', async () => {
    const { vin } = await carAtNewLot(ctx.handle.db, null);
    expect(await read(vin)).toBe(true);
    expect((await sleep(vin, true)).json()).toEqual({ asleep: true });
    expect(await read(vin)).toMatch(/asleep/);
    expect((await sleep(vin, false)).json()).toEqual({ asleep: false });
    expect(await read(vin)).toBe(true);
    expect((await sleep('5YJ3E1EA0ZZ999999', true)).statusCode).toBe(404);
  });
});
