import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { addDays, todayIn } from '@ampere/domain/time';
import { expireUnpaidHolds } from '../src/features/trips/expire-holds.ts';
import { startedTrip, unbookedCar } from './factories.ts';
import { engines } from './harness.ts';
import { type SandboxContext, createSandboxContext, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/** Decision 053: a cancelled trip tells its renter why, from what the database recorded when it ended. */
describe.each(engines())('why a trip was cancelled, on %s', (engine) => {
  let ctx: SandboxContext;
  const used = new Set<string>();
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const read = async (who: SignedIn, platformId: string) => {
    const res = await ctx.app.inject({ url: `/api/v1/reservations/${platformId}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().reservation as { status: string; cancel_reason: string | null };
  };
  const cancel = (who: SignedIn, platformId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/reservations/${platformId}/cancel`, headers: who.headers });

  it(`an unpaid booking left ${UNPAID_HOLD_MINUTES} minutes says its hold expired, in the trip and in My Trips`, async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, ctx.clock.now);
    expect((await read(who, trip.platformId)).cancel_reason).toBeNull();
    const now = ctx.clock.now;
    await db()
      .updateTable('reservations')
      .set({ created_at: new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000) })
      .where('id', '=', trip.id)
      .execute();
    expect(await expireUnpaidHolds({ db: db(), clock: () => now, cancelRetired: async () => {} })).toContain(trip.id);
    expect(await read(who, trip.platformId)).toMatchObject({ status: 'Canceled', cancel_reason: 'hold_expired' });
    const lists = (await ctx.app.inject({ url: '/api/v1/reservations', headers: who.headers })).json();
    expect(lists.canceled.map((r: { id: string; cancel_reason: string }) => [r.id, r.cancel_reason])).toEqual([
      [trip.platformId, 'hold_expired'],
    ]);
  });

  it('a trip its renter cancels says the renter cancelled it, paid or not', async () => {
    const who = await signInAs(ctx);
    const unpaid = await startedTrip(db(), who.userId, ctx.clock.now);
    const paid = await startedTrip(db(), who.userId, ctx.clock.now);
    expect((await payTrip(ctx, who, paid.platformId)).status).toBe('Pending');
    expect((await read(who, paid.platformId)).cancel_reason).toBeNull();
    for (const trip of [unpaid, paid]) {
      const res = await cancel(who, trip.platformId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().reservation).toMatchObject({ status: 'Canceled', cancel_reason: 'renter' });
      expect((await read(who, trip.platformId)).cancel_reason).toBe('renter');
    }
  });

  it('booking the same car for the same dates again says the unpaid booking was replaced', async () => {
    const who = await signInAs(ctx);
    const car = await unbookedCar(db(), used);
    const pickupDate = addDays(todayIn(ctx.clock.now, car.timezone), 20);
    const body = {
      vehicleVin: car.vin,
      pickupDate,
      pickupTime: '10:00',
      returnDate: addDays(pickupDate, 2),
      returnTime: '10:00',
      vehicleTimezone: car.timezone,
    };
    const book = () =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/reservations', headers: who.headers, payload: body });
    const first = await book();
    expect(first.statusCode, first.body).toBe(201);
    const second = await book();
    expect(second.statusCode, second.body).toBe(201);
    const replaced = await read(who, first.json().reservation.platform_id);
    expect(replaced).toMatchObject({ status: 'Canceled', cancel_reason: 'replaced' });
    expect((await read(who, second.json().reservation.platform_id)).cancel_reason).toBeNull();
  });
});
