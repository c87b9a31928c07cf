import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { SearchIndex } from '../src/features/vehicles/search-index.ts';
import { RAISED_RATE_LIMITS, type TestContext, createTestContext, engines } from './harness.ts';
import { reserve } from './factories.ts';
import { type Lot, auditOf, freshVin, newLot, offeredVins, staffCaller } from './ops-fleet-helpers.ts';

/** The console's cars (issue 29 §3, decision 083): list, page, add, edit, retire — scoped, audited, seen by search at once. */
describe.each(engines())('the console’s cars on %s', (engine) => {
  let ctx: TestContext;
  let a: Lot;
  let b: Lot;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    a = await newLot(ctx);
    b = await newLot(ctx);
  });
  afterAll(() => ctx?.close());

  const newCarBody = (lot: Lot, over: Record<string, unknown> = {}) => ({
    vin: freshVin(),
    year: 2025,
    model: 'Model 3',
    colour: 'blue',
    locationId: lot.locationId,
    dailyRateCents: 7_900,
    odometer: 40,
    ...over,
  });
  const countCars = async () =>
    Number(
      (
        await ctx.handle.db
          .selectFrom('vehicles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('lists only the cars of the manager’s own lots, with status, filters and paging', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const all = await manager.call('GET', '/cars?limit=200');
    expect(all.statusCode).toBe(200);
    const locations = new Set(all.json().cars.map((c: { locationId: string }) => c.locationId));
    expect([...locations]).toEqual([String(a.locationId)]);
    expect(all.json().cars[0]).toMatchObject({
      vin: a.vin,
      status: 'available',
      dailyRateCents: 9_900,
      colour: 'WHITE',
    });

    // Another city's lot, asked for by id, shows nothing.
    const other = await manager.call('GET', `/cars?locationId=${b.locationId}`);
    expect(other.json()).toMatchObject({ cars: [], total: 0 });

    await ctx.handle.db
      .insertInto('simulated_cars')
      .values({
        vehicle_id: a.carId,
        locked: true,
        odometer_miles: 12_000,
        battery_level: 0.18,
        updated_at: ctx.clock.now,
      })
      .execute();
    const low = await manager.call('GET', '/cars?batteryBelow=20');
    expect(low.json().cars.map((c: { vin: string }) => c.vin)).toEqual([a.vin]);
    expect(low.json().cars[0].batteryPercent).toBe(18);
    expect((await manager.call('GET', '/cars?batteryAbove=50')).json().cars).toEqual([]);
    expect((await manager.call('GET', '/cars?status=retired')).json().cars).toEqual([]);

    const owner = await staffCaller(ctx, 'owner');
    const page = await owner.call('GET', `/cars?limit=1&offset=0&sort=rate&order=desc&locationId=${a.locationId}`);
    expect(page.json()).toMatchObject({ total: 1, limit: 1, offset: 0 });

    const bad = await manager.call('GET', '/cars?status=parked');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('status');
  });

  it('shows a car’s page with its bookings and holds, and answers 404 (audited) to another city’s manager', async () => {
    const lot = await newLot(ctx);
    const trip = await reserve(ctx.handle.db, lot.vin, '2026-12-01T16:00:00Z', '2026-12-03T16:00:00Z');
    const ref = (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('platform_id')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).platform_id;
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    const hold = await desk.call('POST', `/cars/${lot.carId}/holds`, {
      reason: 'cleaning',
      note: 'Interior detail',
      startsAt: '2026-12-05T15:00:00Z',
      endsAt: '2026-12-05T18:00:00Z',
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const page = await desk.call('GET', `/cars/${lot.carId}`);
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.car.vin).toBe(lot.vin);
    expect(body.timeline.map((t: { kind: string; label: string }) => [t.kind, t.label])).toEqual([
      ['hold', 'cleaning'],
      ['booking', ref],
    ]);
    expect(body.photos.length).toBeGreaterThan(0);

    const stranger = await staffCaller(ctx, 'manager', [b.locationId]);
    const res = await stranger.call('GET', `/cars/${lot.carId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('We could not find that car.');
    const [attempt] = await auditOf(ctx, stranger.id);
    expect(attempt).toMatchObject({
      action: 'fleet.read',
      outcome: 'failure',
      target_type: 'car',
      target_id: String(lot.carId),
    });
  });

  it('adds a car that search offers at once, with its audit record; the front desk may not', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const body = newCarBody(a);
    const res = await manager.call('POST', '/cars', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ vin: body.vin, status: 'available', model: 'Model 3', colour: 'BLUE' });
    expect((await offeredVins(ctx, a, '2026-12-20', '2026-12-23')).map((c) => c.vin)).toContain(body.vin);
    const [record] = await auditOf(ctx, manager.id);
    expect(record).toMatchObject({
      action: 'cars.create',
      outcome: 'success',
      target_type: 'car',
      target_id: String(res.json().id),
      location_id: String(a.locationId),
    });
    expect(record!.after).toMatchObject({ vin: body.vin, dailyRateCents: 7_900 });

    const desk = await staffCaller(ctx, 'agent', [a.locationId]);
    const refused = await desk.call('POST', '/cars', newCarBody(a));
    expect(refused.statusCode).toBe(403);
    expect((await auditOf(ctx, desk.id))[0]).toMatchObject({ action: 'cars.create', outcome: 'failure' });
  });

  it('another API process’s search offers a car added here, and drops one retired here, at its next look', async () => {
    const other = await buildApp({
      config: loadConfig({
        SEED_DEMO: 'false',
        WEB_DIST: '/nonexistent',
        SEARCH_MAX_STALENESS_MS: '0',
        ...RAISED_RATE_LIMITS,
      }),
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
    });
    try {
      const lot = await newLot(ctx);
      const search = async () =>
        (
          await other.inject({
            url: `/api/v1/vehicles/search/${lot.optionId}`,
            query: { pickupDate: '2026-12-20', returnDate: '2026-12-23' },
          })
        )
          .json()
          .items.map((i: { vin: string }) => i.vin);
      expect(await search()).toEqual([lot.vin]);
      const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
      const added = await manager.call('POST', '/cars', newCarBody(lot));
      expect(added.statusCode).toBe(201);
      expect(await search()).toEqual(expect.arrayContaining([lot.vin, added.json().vin]));
      expect((await manager.call('POST', `/cars/${lot.carId}/retire`)).statusCode).toBe(200);
      expect(await search()).toEqual([added.json().vin]);
    } finally {
      await other.close();
    }
  });

  it('past the waiting size, another process answers from the fleet in hand while it reads the changed one (decision 098)', async () => {
    const index = new SearchIndex(ctx.handle.db, () => ctx.clock.now, {
      maxStalenessMs: 0,
      fleetReloadMs: 600_000,
      // Every fleet counts as large: its reads run beside the searches.
      waitForFleetReadUpTo: 0,
    });
    const other = await buildApp({
      config: loadConfig({ SEED_DEMO: 'false', WEB_DIST: '/nonexistent', ...RAISED_RATE_LIMITS }),
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
      searchIndex: index,
    });
    try {
      const lot = await newLot(ctx);
      const search = async () =>
        (
          await other.inject({
            url: `/api/v1/vehicles/search/${lot.optionId}`,
            query: { pickupDate: '2026-12-20', returnDate: '2026-12-23' },
          })
        )
          .json()
          .items.map((i: { vin: string }) => i.vin);
      expect(await search()).toEqual([lot.vin]);
      const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
      const added = await manager.call('POST', '/cars', newCarBody(lot));
      expect(added.statusCode).toBe(201);
      // The look that sees the change starts the read and answers from the fleet it has.
      expect(await search()).toEqual([lot.vin]);
      await index.idle();
      expect(await search()).toEqual(expect.arrayContaining([lot.vin, added.json().vin]));
      expect((await manager.call('POST', `/cars/${lot.carId}/retire`)).statusCode).toBe(200);
      expect(await search()).toHaveLength(2);
      await index.idle();
      expect(await search()).toEqual([added.json().vin]);
    } finally {
      await other.close();
    }
  });

  it('refuses a bad car with a 422 naming the field, a known VIN with a 409, another city’s lot with a 404; nothing written', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const before = await countCars();
    const vin = freshVin();
    const typo = `${vin.slice(0, 8)}${vin[8] === '0' ? '1' : '0'}${vin.slice(9)}`;
    const badVin = await manager.call('POST', '/cars', newCarBody(a, { vin: typo }));
    expect(badVin.statusCode).toBe(422);
    expect(badVin.json()).toMatchObject({ field: 'vin' });
    expect(badVin.json().message).toContain('check digit');
    const badModel = await manager.call('POST', '/cars', newCarBody(a, { model: 'Cybertruck' }));
    expect(badModel.statusCode).toBe(422);
    expect(badModel.json().field).toBe('model');
    const cents = await manager.call('POST', '/cars', newCarBody(a, { dailyRateCents: 79.5 }));
    expect(cents.statusCode).toBe(400);
    expect(cents.json().field).toBe('dailyRateCents');
    const dup = await manager.call('POST', '/cars', newCarBody(a, { vin: a.vin }));
    expect(dup.statusCode).toBe(409);
    const elsewhere = await manager.call('POST', '/cars', newCarBody(b));
    expect(elsewhere.statusCode).toBe(404);
    expect(await countCars()).toBe(before);
    const attempts = (await auditOf(ctx, manager.id)).filter((r) => r.action === 'cars.create');
    expect(attempts.map((r) => r.outcome)).toEqual(['failure', 'failure', 'failure', 'failure', 'failure']);
  });

  it('edits a car with before and after in its audit record, and search shows the new rate at once', async () => {
    const lot = await newLot(ctx, { rackRate: 9_900 });
    const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
    expect(await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).toEqual([{ vin: lot.vin, rack_rate: 9_900 }]);
    const res = await manager.call('PATCH', `/cars/${lot.carId}`, { dailyRateCents: 12_500, colour: 'grey' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dailyRateCents: 12_500, colour: 'GREY' });
    expect(await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).toEqual([{ vin: lot.vin, rack_rate: 12_500 }]);
    const [record] = await auditOf(ctx, manager.id);
    expect(record).toMatchObject({ action: 'cars.edit', outcome: 'success' });
    expect(record!.before).toMatchObject({ dailyRateCents: 9_900, colour: 'WHITE' });
    expect(record!.after).toMatchObject({ dailyRateCents: 12_500, colour: 'GREY' });

    const bad = await manager.call('PATCH', `/cars/${lot.carId}`, { colour: 'green' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe('colour');
    const empty = await manager.call('PATCH', `/cars/${lot.carId}`, {});
    expect(empty.statusCode).toBe(400);
    const stranger = await staffCaller(ctx, 'manager', [b.locationId]);
    expect((await stranger.call('PATCH', `/cars/${lot.carId}`, { dailyRateCents: 1 })).statusCode).toBe(404);
    const row = await ctx.handle.db
      .selectFrom('vehicles')
      .select('rack_rate')
      .where('id', '=', lot.carId)
      .executeTakeFirstOrThrow();
    expect(row.rack_rate).toBe(12_500);
  });

  it('refuses to retire a car with upcoming trips, naming them; once free, retires it and search never offers it again', async () => {
    const lot = await newLot(ctx);
    const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
    const trip = await reserve(ctx.handle.db, lot.vin, '2026-12-10T16:00:00Z', '2026-12-12T16:00:00Z');
    const ref = (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('platform_id')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).platform_id;
    const refused = await manager.call('POST', `/cars/${lot.carId}/retire`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(ref);
    expect((await manager.call('GET', `/cars/${lot.carId}`)).json().car.status).toBe('available');

    await ctx.handle.db.updateTable('reservations').set({ status: 'Canceled' }).where('id', '=', trip.id).execute();
    const res = await manager.call('POST', `/cars/${lot.carId}/retire`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'retired', retiredAt: ctx.clock.now.toISOString() });
    expect(await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).toEqual([]);
    expect((await ctx.app.inject({ url: `/api/v1/vehicles/${lot.vin}` })).statusCode).toBe(404);
    expect((await manager.call('POST', `/cars/${lot.carId}/retire`)).statusCode).toBe(409);
    expect((await manager.call('PATCH', `/cars/${lot.carId}`, { dailyRateCents: 5_000 })).statusCode).toBe(409);
    const [record] = await auditOf(ctx, manager.id);
    expect(record).toMatchObject({ action: 'cars.edit', outcome: 'failure' });
    const retired = (await auditOf(ctx, manager.id)).find((r) => r.action === 'cars.retire' && r.outcome === 'success');
    expect(retired!.before).toMatchObject({ status: 'available' });
    expect(retired!.after).toMatchObject({ status: 'retired' });
    expect((await manager.call('GET', '/cars?status=retired')).json().cars.map((c: { vin: string }) => c.vin)).toEqual([
      lot.vin,
    ]);
  });

  it('lets only managers and owners retire, and viewers only read', async () => {
    const lot = await newLot(ctx);
    for (const role of ['agent', 'viewer'] as const) {
      const who = await staffCaller(ctx, role, [lot.locationId]);
      expect((await who.call('POST', `/cars/${lot.carId}/retire`)).statusCode).toBe(403);
      expect((await who.call('PATCH', `/cars/${lot.carId}`, { odometer: 1 })).statusCode).toBe(403);
      expect((await who.call('GET', `/cars/${lot.carId}`)).statusCode).toBe(200);
      expect((await auditOf(ctx, who.id)).filter((r) => r.outcome === 'failure')).toHaveLength(2);
    }
    const viewer = await staffCaller(ctx, 'viewer', [lot.locationId]);
    expect(
      (
        await viewer.call('POST', `/cars/${lot.carId}/holds`, {
          reason: 'service',
          startsAt: '2026-12-01T00:00:00Z',
          endsAt: '2026-12-02T00:00:00Z',
        })
      ).statusCode,
    ).toBe(403);
  });
});
