import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type Lot, auditOf, newLot, staffCaller } from './ops-fleet-helpers.ts';

/** Locations in the console (decision 083): a manager edits their own lots; the renter sees the new instructions, made safe. */
describe.each(engines())('locations in the console on %s', (engine) => {
  let ctx: TestContext;
  let a: Lot;
  let b: Lot;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    a = await newLot(ctx);
    b = await newLot(ctx);
  });
  afterAll(() => ctx?.close());

  const renterLocation = async (lot: Lot) =>
    (await ctx.app.inject({ url: `/api/v1/vehicles/${lot.vin}` })).json().location;

  it('lists only the manager’s own locations', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const res = await manager.call('GET', '/locations');
    expect(res.statusCode).toBe(200);
    expect(res.json().locations).toEqual([
      expect.objectContaining({ id: String(a.locationId), name: a.lotName, timezone: 'America/Chicago' }),
    ]);
  });

  it('saves sanitised instructions, a checked time zone and a buffer, with before and after; the renter sees them', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const res = await manager.call('PATCH', `/locations/${a.locationId}`, {
      street: '200 Broadway',
      timezone: 'America/Denver',
      minReservationBufferHours: 6,
      pickupInstructionsHtml:
        '<p>Find <strong>bay 4</strong> <em>left</em> of the gate.</p><script>alert(1)</script>' +
        '<ul><li><a href="https://example.com/map" onclick="steal()">Map</a></li><li><a href="javascript:alert(1)">x</a></li></ul>' +
        '<img src=x onerror=alert(1)><h1 style="color:red">Big</h1>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const safe =
      '<p>Find <strong>bay 4</strong> <em>left</em> of the gate.</p>' +
      '<ul><li><a href="https://example.com/map">Map</a></li><li><a>x</a></li></ul>Big';
    expect(res.json()).toMatchObject({
      street: '200 Broadway',
      timezone: 'America/Denver',
      minReservationBufferHours: 6,
      pickupInstructionsHtml: safe,
    });
    expect(await renterLocation(a)).toMatchObject({
      street: '200 Broadway',
      timezone: 'America/Denver',
      min_reservation_buffer_hours: 6,
      pickup_instructions_html: safe,
    });
    const [record] = await auditOf(ctx, manager.id);
    expect(record).toMatchObject({ action: 'locations.edit', outcome: 'success', location_id: String(a.locationId) });
    expect(record!.before).toMatchObject({ street: '1 Test Way', timezone: 'America/Chicago' });
    expect(record!.after).toMatchObject({ street: '200 Broadway', timezone: 'America/Denver' });
  });

  it('refuses a time zone that is not IANA, and a bad buffer, writing nothing', async () => {
    const manager = await staffCaller(ctx, 'manager', [b.locationId]);
    for (const timezone of ['CST', 'Mars/Olympus_Mons', '+05:00']) {
      const res = await manager.call('PATCH', `/locations/${b.locationId}`, { timezone, street: '9 Elsewhere' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ field: 'timezone' });
    }
    const buffer = await manager.call('PATCH', `/locations/${b.locationId}`, { minReservationBufferHours: -1 });
    expect(buffer.statusCode).toBe(400);
    expect(await renterLocation(b)).toMatchObject({ street: '1 Test Way', timezone: 'America/Chicago' });
  });

  it('keeps a lot’s clock while trips are booked there, naming them', async () => {
    const lot = await newLot(ctx);
    const trip = await reserve(ctx.handle.db, lot.vin, '2026-12-20T16:00:00Z', '2026-12-23T16:00:00Z');
    const ref = (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('platform_id')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).platform_id;
    const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
    const res = await manager.call('PATCH', `/locations/${lot.locationId}`, { timezone: 'America/New_York' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ field: 'timezone' });
    expect(res.json().message).toContain(ref);
    // Its other details can still change.
    expect((await manager.call('PATCH', `/locations/${lot.locationId}`, { zipCode: '37201' })).statusCode).toBe(200);
  });

  it('answers 404 (audited) to a manager of another city, and 403 to the front desk', async () => {
    const stranger = await staffCaller(ctx, 'manager', [b.locationId]);
    const res = await stranger.call('PATCH', `/locations/${a.locationId}`, { street: 'Nope' });
    expect(res.statusCode).toBe(404);
    expect((await auditOf(ctx, stranger.id))[0]).toMatchObject({
      action: 'locations.edit',
      outcome: 'failure',
      target_type: 'location',
      target_id: String(a.locationId),
    });
    const desk = await staffCaller(ctx, 'agent', [a.locationId]);
    expect((await desk.call('PATCH', `/locations/${a.locationId}`, { street: 'Nope' })).statusCode).toBe(403);
    expect((await renterLocation(a)).street).toBe('200 Broadway');
  });
});
