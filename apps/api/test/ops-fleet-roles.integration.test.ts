import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_CSV_COLUMNS } from '@ampere/domain/fleet';
import { STAFF_ROLES, type StaffAction, can } from '@ampere/domain/staff';
import { reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type Lot, auditOf, freshVin, newLot, staffCaller } from './ops-fleet-helpers.ts';

/**
 * Every fleet route against every role (decision 079's matrix): a role the matrix refuses gets a
 * 403 that is audited and changes nothing; a role it allows gets past the door.
 */
describe.each(engines())('the fleet routes’ role matrix on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  interface RouteCase {
    action: StaffAction;
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    url: (lot: Lot, holdId: string) => string;
    payload?: (lot: Lot) => unknown;
    csv?: boolean;
  }
  const ROUTES: RouteCase[] = [
    { action: 'fleet.read', method: 'GET', url: () => '/cars' },
    { action: 'fleet.read', method: 'GET', url: (l) => `/cars/${l.carId}` },
    {
      action: 'cars.create',
      method: 'POST',
      url: () => '/cars',
      payload: (l) => ({
        vin: freshVin(),
        year: 2025,
        model: 'Model Y',
        colour: 'red',
        locationId: l.locationId,
        dailyRateCents: 9_000,
      }),
    },
    { action: 'cars.edit', method: 'PATCH', url: (l) => `/cars/${l.carId}`, payload: () => ({ odometer: 12_345 }) },
    {
      action: 'holds.create',
      method: 'POST',
      url: (l) => `/cars/${l.carId}/holds`,
      payload: () => ({ reason: 'cleaning', startsAt: '2027-01-05T10:00:00Z', endsAt: '2027-01-05T12:00:00Z' }),
    },
    { action: 'holds.edit', method: 'PATCH', url: (_l, h) => `/holds/${h}`, payload: () => ({ note: 'changed' }) },
    { action: 'holds.edit', method: 'DELETE', url: (_l, h) => `/holds/${h}` },
    { action: 'fleet.export', method: 'GET', url: () => '/fleet/export' },
    {
      action: 'fleet.import',
      method: 'POST',
      url: () => '/fleet/import?dryRun=true',
      payload: (l) => `${FLEET_CSV_COLUMNS.join(',')}\n${freshVin()},2025,Model Y,red,${l.lotName},9000,0\n`,
      csv: true,
    },
    { action: 'fleet.read', method: 'GET', url: () => '/locations' },
    { action: 'fleet.read', method: 'GET', url: () => '/fleet/catalog' },
    {
      action: 'locations.edit',
      method: 'PATCH',
      url: (l) => `/locations/${l.locationId}`,
      payload: () => ({ street: '5 Matrix Road' }),
    },
    { action: 'cars.retire', method: 'POST', url: (l) => `/cars/${l.carId}/retire` },
  ];

  it.each(STAFF_ROLES)('holds %s to the matrix on every fleet route', async (role) => {
    const lot = await newLot(ctx);
    const hold = await ctx.handle.db
      .insertInto('vehicle_holds')
      .values({
        vehicle_id: lot.carId,
        reason: 'service',
        note: 'Brakes',
        starts_at: new Date('2027-01-01T10:00:00Z'),
        ends_at: new Date('2027-01-01T12:00:00Z'),
        created_at: ctx.clock.now,
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const who = await staffCaller(ctx, role, [lot.locationId]);
    for (const r of ROUTES) {
      const payload = r.payload?.(lot);
      const res = await who.call(r.method, r.url(lot, hold.id), payload, r.csv ? { 'content-type': 'text/csv' } : {});
      const label = `${role} ${r.method} ${r.url(lot, hold.id)}`;
      if (can(role, r.action)) {
        expect([401, 403, 500], `${label}: ${res.body}`).not.toContain(res.statusCode);
      } else {
        expect(res.statusCode, label).toBe(403);
        expect((await auditOf(ctx, who.id))[0], label).toMatchObject({ action: r.action, outcome: 'failure' });
      }
    }
    if (role === 'viewer') {
      // Nothing a refused call asked for happened.
      const car = await ctx.handle.db
        .selectFrom('vehicles')
        .select(['odometer', 'retired_at'])
        .where('id', '=', lot.carId)
        .executeTakeFirstOrThrow();
      expect(car).toEqual({ odometer: 12_000, retired_at: null });
      const held = await ctx.handle.db
        .selectFrom('vehicle_holds')
        .select(['note', 'canceled_at'])
        .where('id', '=', hold.id)
        .executeTakeFirstOrThrow();
      expect(held).toEqual({ note: 'Brakes', canceled_at: null });
    }
  });

  it('gives the console’s forms the models, colours, hold reasons and CSV columns', async () => {
    const viewer = await staffCaller(ctx, 'viewer');
    const res = await viewer.call('GET', '/fleet/catalog');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      colours: ['BLACK', 'GREY', 'WHITE', 'RED', 'BLUE'],
      holdReasons: ['service', 'cleaning', 'charging', 'other'],
      csvColumns: [...FLEET_CSV_COLUMNS],
    });
    expect(res.json().models.map((m: { name: string }) => m.name)).toContain('Model 3');
  });

  it('shows a car with a trip in progress as on rent, and pages past the end with the right total', async () => {
    const lot = await newLot(ctx);
    await reserve(ctx.handle.db, lot.vin, '2026-11-21T16:00:00Z', '2026-11-24T16:00:00Z', 'On Rent');
    const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
    expect((await manager.call('GET', '/cars?status=on%20rent')).json()).toMatchObject({
      total: 1,
      cars: [{ vin: lot.vin, status: 'on rent' }],
    });
    expect((await manager.call('GET', '/cars?offset=10&sort=status&order=desc')).json()).toMatchObject({
      total: 1,
      cars: [],
    });
    for (const sort of ['vin', 'model', 'location', 'status', 'battery', 'rate', 'year'])
      expect((await manager.call('GET', `/cars?sort=${sort}`)).statusCode).toBe(200);
  });

  it('the database refuses a new booking of a retired car, even one written past the application', async () => {
    const lot = await newLot(ctx);
    await ctx.handle.db
      .updateTable('vehicles')
      .set({ retired_at: ctx.clock.now })
      .where('id', '=', lot.carId)
      .execute();
    await expect(reserve(ctx.handle.db, lot.vin, '2027-02-01T16:00:00Z', '2027-02-03T16:00:00Z')).rejects.toMatchObject(
      {
        code: '23P01',
      },
    );
  });
});
