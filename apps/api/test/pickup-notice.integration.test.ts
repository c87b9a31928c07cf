import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Vehicle } from '@ampere/domain/contract/catalog';
import { carAtNewLot } from './factories.ts';
import { TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

/**
 * Spec 9: the earliest pickup is now rounded down to the hour + the location's
 * min_reservation_buffer_hours (4 when it has none) + 1 hour. The car's page reads the buffer from
 * the car's location; booking checks the same buffer.
 */
describe.each(engines())("the pickup place's own notice on %s", (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  const trip = (vin: string, pickupDate: string, pickupTime: string) => ({
    vehicleVin: vin,
    pickupDate,
    pickupTime,
    returnDate: '2026-11-27',
    returnTime: '10:00',
    addonIds: [],
    vehicleTimezone: 'America/Chicago',
  });

  it("a car's location carries its lot's buffer, or null (the default) when the lot has none", async () => {
    const slow = await carAtNewLot(ctx.handle.db, 30);
    const plain = await carAtNewLot(ctx.handle.db, null);
    const read = async (vin: string) => {
      const res = await ctx.app.inject({ url: `/api/v1/vehicles/${vin}` });
      expect(res.statusCode, res.body).toBe(200);
      return Vehicle.parse(res.json());
    };
    expect((await read(slow.vin)).location).toMatchObject({ name: slow.lotName, min_reservation_buffer_hours: 30 });
    expect((await read(plain.vin)).location.min_reservation_buffer_hours).toBeNull();
    // The return-location list the booking card reads carries it too.
    const list = await ctx.app.inject({ url: `/api/v1/locations/search?region_id=${slow.regionId}` });
    expect(list.json().locations).toEqual([
      expect.objectContaining({ id: slow.locationId, min_reservation_buffer_hours: 30 }),
    ]);
  });

  it('booking holds a pickup to that buffer: 30 hours at the lot refuses what the default 4 would allow', async () => {
    expect(TEST_NOW.toISOString()).toBe('2026-11-22T15:00:00.000Z'); // 09:00 in Chicago
    const slow = await carAtNewLot(ctx.handle.db, 30);
    const who = await signInAs(ctx);
    const book = (body: object) =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/reservations', headers: who.headers, payload: body });
    // 09:00 + 30 h + 1 h = 16:00 tomorrow.
    const early = await book(trip(slow.vin, '2026-11-23', '15:45'));
    expect([early.statusCode, early.json().field]).toEqual([422, 'pickupTime']);
    expect((await book(trip(slow.vin, '2026-11-23', '16:00'))).statusCode).toBe(201);
    // Same hour at a lot with the default notice is fine.
    const plain = await carAtNewLot(ctx.handle.db, null);
    expect((await book(trip(plain.vin, '2026-11-23', '10:00'))).statusCode).toBe(201);
  });
});
