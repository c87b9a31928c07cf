import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { expireUnpaidHolds } from '../src/features/trips/expire-holds.ts';
import { unbookedCar } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

/**
 * One clock (decision 052): what the server writes when a renter books comes from its own clock,
 * so a development clock moved days ahead books a hold that lapses on that clock, not at once.
 */
describe.each(engines())('one clock on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { movableClock: true });
  });
  afterAll(() => ctx?.close());

  const moveClock = async (minutes: number) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/clock',
      payload: { advance_minutes: minutes },
    });
    expect(res.statusCode, res.body).toBe(200);
    return new Date(res.json().time as string);
  };

  it('with the clock moved days ahead, a new booking is held from the moved time and lapses 30 minutes after it', async () => {
    const movedTo = await moveClock(9 * 24 * 60);
    const who = await signInAs(ctx);
    // Signed in on the moved clock: the session runs a day from then.
    await ctx.handle.db
      .updateTable('sessions')
      .set({ created_at: movedTo, expires_at: new Date(movedTo.getTime() + 86_400_000) })
      .where('user_id', '=', who.userId)
      .execute();
    await ctx.handle.db
      .updateTable('users')
      .set({ first_name: 'Lena', last_name: 'Moreau', birthday: '1985-07-19' })
      .where('id', '=', who.userId)
      .execute();
    const car = await unbookedCar(ctx.handle.db, new Set());
    const booked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: who.headers,
      payload: {
        vehicleVin: car.vin,
        vehicleTimezone: car.timezone,
        pickupDate: '2026-12-10',
        pickupTime: '10:00',
        returnDate: '2026-12-12',
        returnTime: '10:00',
        addonIds: [],
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const trip = booked.json().reservation as { platform_id: string; status: string; created_at: string };
    expect(trip.status).toBe('Started');
    expect(trip.created_at).toBe(movedTo.toISOString());
    const row = await ctx.handle.db
      .selectFrom('reservations')
      .select(['id', 'created_at'])
      .where('platform_id', '=', trip.platform_id)
      .executeTakeFirstOrThrow();
    expect(row.created_at.toISOString()).toBe(movedTo.toISOString());
    const items = await ctx.handle.db
      .selectFrom('transactions')
      .select(['created_at', 'initiated_at'])
      .where('reservation_id', '=', row.id)
      .execute();
    expect(items.length).toBeGreaterThan(0);
    for (const t of items)
      expect([t.created_at, t.initiated_at].map((d) => d.toISOString())).toEqual([
        movedTo.toISOString(),
        movedTo.toISOString(),
      ]);

    const expire = () =>
      expireUnpaidHolds({ db: ctx.handle.db, clock: ctx.testClock!.clock, cancelRetired: async () => {} });
    expect(await expire()).toEqual([]);
    await moveClock(UNPAID_HOLD_MINUTES - 1);
    expect(await expire()).toEqual([]);
    await moveClock(1);
    expect(await expire()).toEqual([row.id]);
  });
});
