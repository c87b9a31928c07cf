import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatInstantInZone } from '@ampere/domain/format';
import { VEHICLE_UNAVAILABLE } from '../src/features/trips/book.ts';
import { reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type Lot, auditOf, newLot, offeredVins, staffCaller } from './ops-fleet-helpers.ts';
import { signInAs } from './sessions.ts';

/**
 * Holds (decision 083): a car blocked for service, cleaning, charging or other. car_blocks' exclusion
 * constraint keeps a hold and a booking apart whatever commits first; a clash names the trip.
 */
describe.each(engines())('holds on cars on %s', (engine) => {
  let ctx: TestContext;
  let elsewhere: Lot;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    elsewhere = await newLot(ctx);
  });
  afterAll(() => ctx?.close());

  /** The renter's booking of the car, 20–23 December 10:00 on the lot's clock (16:00Z), as the web app sends it. */
  const booking = (lot: Lot) => ({
    vehicleVin: lot.vin,
    pickupDate: '2026-12-20',
    pickupTime: '10:00',
    returnDate: '2026-12-23',
    returnTime: '10:00',
    addonIds: [],
    vehicleTimezone: lot.timezone,
  });
  const hold = (startsAt: string, endsAt: string, reason = 'service', note = 'Tyre rotation') => ({
    reason,
    note,
    startsAt,
    endsAt,
  });
  const refOf = async (id: string) =>
    (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('platform_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).platform_id;

  it('puts a car on hold: search and the renter’s car page stop offering it at once, and the record is audited', async () => {
    const lot = await newLot(ctx);
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    expect((await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).map((c) => c.vin)).toEqual([lot.vin]);
    const res = await desk.call(
      'POST',
      `/cars/${lot.carId}/holds`,
      hold('2026-12-21T00:00:00Z', '2026-12-22T00:00:00Z'),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ carId: lot.carId, reason: 'service', note: 'Tyre rotation', canceledAt: null });
    expect(await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).toEqual([]);
    expect((await offeredVins(ctx, lot, '2026-12-24', '2026-12-26')).map((c) => c.vin)).toEqual([lot.vin]);
    const page = (await ctx.app.inject({ url: `/api/v1/vehicles/${lot.vin}` })).json();
    expect(page.busy).toContainEqual({ from: '2026-12-21T00:00:00.000Z', until: '2026-12-22T00:00:00.000Z' });
    const [record] = await auditOf(ctx, desk.id);
    expect(record).toMatchObject({
      action: 'holds.create',
      outcome: 'success',
      target_type: 'hold',
      target_id: res.json().id,
      location_id: String(lot.locationId),
    });

    // A renter's booking over the hold is refused like any taken car.
    const renter = await signInAs(ctx);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: renter.headers,
      payload: booking(lot),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(VEHICLE_UNAVAILABLE);

    // The car is 'in service' in the console while the hold runs.
    const now = ctx.clock.now.getTime();
    const current = await desk.call(
      'POST',
      `/cars/${lot.carId}/holds`,
      hold(new Date(now - 3_600_000).toISOString(), new Date(now + 3_600_000).toISOString(), 'charging', ''),
    );
    expect(current.statusCode).toBe(201);
    expect((await desk.call('GET', `/cars/${lot.carId}`)).json().car.status).toBe('in service');
  });

  it('refuses a hold over another hold with a 409 giving that hold’s hours on the lot’s clock', async () => {
    const lot = await newLot(ctx);
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    const first = await desk.call(
      'POST',
      `/cars/${lot.carId}/holds`,
      hold('2026-12-21T15:00:00Z', '2026-12-21T18:00:00Z'),
    );
    expect(first.statusCode, first.body).toBe(201);
    const second = await desk.call(
      'POST',
      `/cars/${lot.carId}/holds`,
      hold('2026-12-21T17:00:00Z', '2026-12-21T19:00:00Z', 'cleaning', 'Valet'),
    );
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(
      `The car is already on hold then (service, ${formatInstantInZone('2026-12-21T15:00:00Z', lot.timezone)} to ${formatInstantInZone('2026-12-21T18:00:00Z', lot.timezone)}); change that hold instead.`,
    );
    expect(second.json().message).not.toContain('Z)');
  });

  it('refuses a hold over a booking (its turnaround included) with a 409 naming the trip; nothing written', async () => {
    const lot = await newLot(ctx);
    const trip = await reserve(ctx.handle.db, lot.vin, '2026-12-20T16:00:00Z', '2026-12-23T16:00:00Z');
    const ref = await refOf(trip.id);
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    for (const [from, to] of [
      ['2026-12-21T00:00:00Z', '2026-12-21T06:00:00Z'],
      // Within the hour after the return the car is being readied for the next renter.
      ['2026-12-23T16:30:00Z', '2026-12-23T20:00:00Z'],
    ] as const) {
      const res = await desk.call('POST', `/cars/${lot.carId}/holds`, hold(from, to));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain(`trip ${ref}`);
    }
    const after = await desk.call(
      'POST',
      `/cars/${lot.carId}/holds`,
      hold('2026-12-23T17:00:00Z', '2026-12-23T20:00:00Z'),
    );
    expect(after.statusCode).toBe(201);
    const holds = await ctx.handle.db
      .selectFrom('vehicle_holds')
      .select('id')
      .where('vehicle_id', '=', lot.carId)
      .execute();
    expect(holds).toHaveLength(1);
    expect((await auditOf(ctx, desk.id)).map((r) => r.outcome)).toEqual(['success', 'failure', 'failure']);
  });

  it('the database itself refuses a hold overlapping a booking, whatever the application does', async () => {
    const lot = await newLot(ctx);
    await reserve(ctx.handle.db, lot.vin, '2026-12-20T16:00:00Z', '2026-12-23T16:00:00Z');
    await expect(
      ctx.handle.db
        .insertInto('vehicle_holds')
        .values({
          vehicle_id: lot.carId,
          reason: 'other',
          starts_at: new Date('2026-12-22T00:00:00Z'),
          ends_at: new Date('2026-12-22T02:00:00Z'),
          created_at: ctx.clock.now,
          created_by: null,
        })
        .execute(),
    ).rejects.toMatchObject({ code: '23P01', constraint: 'car_blocks_no_overlap' });
  });

  it.runIf(engine === 'postgres')(
    'under real concurrency, whichever of a hold and a booking writes first wins, and the other waits and fails',
    async () => {
      const holdRow = (lot: Lot) => ({
        vehicle_id: lot.carId,
        reason: 'service' as const,
        starts_at: new Date('2026-12-21T00:00:00Z'),
        ends_at: new Date('2026-12-21T06:00:00Z'),
        created_at: ctx.clock.now,
        created_by: null,
      });
      for (const first of ['hold', 'booking'] as const) {
        const lot = await newLot(ctx);
        let written!: () => void;
        const firstWritten = new Promise<void>((resolve) => (written = resolve));
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        // The first writer keeps its transaction open while the second writes.
        const early = ctx.handle.db.transaction().execute(async (trx) => {
          if (first === 'hold') await trx.insertInto('vehicle_holds').values(holdRow(lot)).execute();
          else await reserve(trx, lot.vin, '2026-12-20T16:00:00Z', '2026-12-23T16:00:00Z');
          written();
          await gate;
        });
        await firstWritten;
        const late =
          first === 'hold'
            ? reserve(ctx.handle.db, lot.vin, '2026-12-20T16:00:00Z', '2026-12-23T16:00:00Z')
            : ctx.handle.db.insertInto('vehicle_holds').values(holdRow(lot)).execute();
        let settledEarly = false;
        const lateSettled = Promise.allSettled([late]).finally(() => (settledEarly = true));
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Still waiting on the first writer's uncommitted row.
        expect(settledEarly, first).toBe(false);
        release();
        await early;
        const [outcome] = await lateSettled;
        expect(outcome!.status, first).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({
          code: '23P01',
          constraint: 'car_blocks_no_overlap',
        });
      }
    },
  );

  it('changes a hold, ends it early and cancels it, each with before and after; search offers the car again', async () => {
    const lot = await newLot(ctx);
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    const created = (
      await desk.call('POST', `/cars/${lot.carId}/holds`, hold('2026-12-21T00:00:00Z', '2026-12-22T00:00:00Z'))
    ).json();
    const moved = await desk.call('PATCH', `/holds/${created.id}`, {
      startsAt: '2026-12-26T00:00:00Z',
      endsAt: '2026-12-27T00:00:00Z',
      note: 'Moved to after Christmas',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ startsAt: '2026-12-26T00:00:00.000Z', note: 'Moved to after Christmas' });
    expect((await offeredVins(ctx, lot, '2026-12-20', '2026-12-23')).map((c) => c.vin)).toEqual([lot.vin]);
    expect(await offeredVins(ctx, lot, '2026-12-25', '2026-12-28')).toEqual([]);
    const [record] = await auditOf(ctx, desk.id);
    expect(record).toMatchObject({ action: 'holds.edit', outcome: 'success' });
    expect(record!.before).toMatchObject({ startsAt: '2026-12-21T00:00:00.000Z' });
    expect(record!.after).toMatchObject({ startsAt: '2026-12-26T00:00:00.000Z' });

    const backwards = await desk.call('PATCH', `/holds/${created.id}`, { endsAt: '2026-12-25T00:00:00Z' });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json()).toMatchObject({ field: 'endsAt', message: 'A hold must end after it starts.' });

    const cancelled = await desk.call('DELETE', `/holds/${created.id}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().canceledAt).toBe(ctx.clock.now.toISOString());
    expect((await offeredVins(ctx, lot, '2026-12-25', '2026-12-28')).map((c) => c.vin)).toEqual([lot.vin]);
    expect((await desk.call('DELETE', `/holds/${created.id}`)).statusCode).toBe(409);

    // A running hold ended early gives the car back now.
    const now = ctx.clock.now.getTime();
    const running = (
      await desk.call(
        'POST',
        `/cars/${lot.carId}/holds`,
        hold(new Date(now - 3_600_000).toISOString(), new Date(now + 86_400_000).toISOString(), 'charging'),
      )
    ).json();
    const ended = await desk.call('PATCH', `/holds/${running.id}`, { endNow: true });
    expect(ended.json().endsAt).toBe(ctx.clock.now.toISOString());
    expect((await desk.call('GET', `/cars/${lot.carId}`)).json().car.status).toBe('available');
  });

  it('retiring a car ends its running hold now and cancels those ahead, in the same audited change', async () => {
    const lot = await newLot(ctx);
    const manager = await staffCaller(ctx, 'manager', [lot.locationId]);
    const now = ctx.clock.now.getTime();
    const running = (
      await manager.call(
        'POST',
        `/cars/${lot.carId}/holds`,
        hold(new Date(now - 3_600_000).toISOString(), new Date(now + 86_400_000).toISOString(), 'charging'),
      )
    ).json();
    const ahead = (
      await manager.call('POST', `/cars/${lot.carId}/holds`, hold('2026-12-24T00:00:00Z', '2026-12-25T00:00:00Z'))
    ).json();
    const res = await manager.call('POST', `/cars/${lot.carId}/retire`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await ctx.handle.db
      .selectFrom('vehicle_holds')
      .select(['id', 'starts_at', 'ends_at', 'canceled_at'])
      .where('vehicle_id', '=', lot.carId)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(running.id)).toMatchObject({ ends_at: ctx.clock.now, canceled_at: null });
    expect(byId.get(ahead.id)!.canceled_at).toEqual(ctx.clock.now);
    const record = (await auditOf(ctx, manager.id)).find((r) => r.action === 'cars.retire');
    expect(record!.after).toMatchObject({ status: 'retired', holdsEnded: 2 });
  });

  it('answers 404 (audited) to a manager of another city for a car’s or a hold’s call, and 403 to a viewer', async () => {
    const lot = await newLot(ctx);
    const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
    const created = (
      await desk.call('POST', `/cars/${lot.carId}/holds`, hold('2026-12-21T00:00:00Z', '2026-12-22T00:00:00Z'))
    ).json();
    const stranger = await staffCaller(ctx, 'manager', [elsewhere.locationId]);
    const tries = [
      await stranger.call('POST', `/cars/${lot.carId}/holds`, hold('2026-12-24T00:00:00Z', '2026-12-25T00:00:00Z')),
      await stranger.call('PATCH', `/holds/${created.id}`, { note: 'mine now' }),
      await stranger.call('DELETE', `/holds/${created.id}`),
    ];
    expect(tries.map((r) => r.statusCode)).toEqual([404, 404, 404]);
    const failures = await auditOf(ctx, stranger.id);
    expect(failures.map((r) => [r.action, r.outcome, r.target_type])).toEqual([
      ['holds.edit', 'failure', 'hold'],
      ['holds.edit', 'failure', 'hold'],
      ['holds.create', 'failure', 'car'],
    ]);
    const viewer = await staffCaller(ctx, 'viewer', [lot.locationId]);
    expect((await viewer.call('DELETE', `/holds/${created.id}`)).statusCode).toBe(403);
    const row = await ctx.handle.db
      .selectFrom('vehicle_holds')
      .select(['note', 'canceled_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ note: 'Tyre rotation', canceled_at: null });
    const bad = await desk.call('POST', `/cars/${lot.carId}/holds`, { ...hold('2026-12-24', 'soon'), reason: 'nap' });
    expect(bad.statusCode).toBe(400);
  });

  it('lets exactly one of a hold and a booking racing for the same hours win', async () => {
    for (let round = 0; round < 4; round++) {
      const lot = await newLot(ctx);
      const desk = await staffCaller(ctx, 'agent', [lot.locationId]);
      const renter = await signInAs(ctx);
      const [held, booked] = await Promise.all([
        desk.call('POST', `/cars/${lot.carId}/holds`, hold('2026-12-21T00:00:00Z', '2026-12-21T12:00:00Z')),
        ctx.app.inject({ method: 'POST', url: '/api/v1/reservations', headers: renter.headers, payload: booking(lot) }),
      ]);
      const codes = [held.statusCode, booked.statusCode].sort();
      expect(codes, `${held.body} ${booked.body}`).toEqual([201, 409]);
      const blocks = await ctx.handle.db
        .selectFrom('car_blocks')
        .select(['hold_id', 'reservation_id'])
        .where('vehicle_id', '=', lot.carId)
        .execute();
      expect(blocks).toHaveLength(1);
      if (held.statusCode === 409) {
        const ref = booked.json().reservation.platform_id;
        expect(held.json().message).toContain(ref);
      } else {
        expect(booked.json().message).toBe(VEHICLE_UNAVAILABLE);
      }
    }
  });
});
