import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { staffBoardChannel } from '@ampere/domain/day';
import { listAudit } from '../src/features/audit/repository.ts';
import { createListener, decodeDelivery } from '../src/features/realtime/fan-out.ts';
import { channelAuth } from '../src/features/realtime/signature.ts';
import { rawText } from '../src/features/realtime/socket-server.ts';
import { carAtNewLot } from './factories.ts';
import { carAt, renter, tripOf } from './day-factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signedInStaff } from './staff.ts';

/**
 * The today board (decision 086) on a location's own clock: Honolulu (UTC−10) at 23:50 on
 * 22 November, when it is already the 23rd in UTC, ten minutes before the lot's midnight.
 */
describe.each(engines())('the today board on %s', (engine) => {
  let ctx: TestContext;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  const NOW = new Date('2026-11-23T09:50:00Z'); // 23:50 HST, 22 November
  const trips: Record<string, { id: string; platformId: string }> = {};
  let lowCar: { vin: string; id: number };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    ctx.clock.now = NOW;
    const db = ctx.handle.db;
    lot = await carAtNewLot(db, null, { timezone: 'Pacific/Honolulu' });
    other = await carAtNewLot(db, null, { timezone: 'Pacific/Honolulu' });
    const paid = await renter(db, {
      first: 'Pat',
      last: 'Paid',
      phone: '+18085550101',
      email: 'pat@example.com',
      verified: true,
    });
    const fresh = await renter(db, { first: 'Una', last: 'Verified', phone: '+18085550102', email: 'una@example.com' });
    const car = async (battery?: number) =>
      carAt(db, lot.locationId, battery === undefined ? {} : { battery, now: NOW });
    // Today, five minutes before midnight: booked, not paid.
    trips.tonight = await tripOf(
      db,
      (await car(90)).vin,
      paid,
      '2026-11-23T09:55:00Z',
      '2026-11-25T09:55:00Z',
      'Started',
    );
    // Twenty minutes away, but after the lot's midnight: tomorrow; paid, renter not verified.
    trips.afterMidnight = await tripOf(
      db,
      (await car()).vin,
      fresh,
      '2026-11-23T10:10:00Z',
      '2026-11-25T10:10:00Z',
      'Pending',
    );
    // Tomorrow 10:00 HST (already 'today' in UTC), paid and verified, on a car charged to 30 %.
    lowCar = await car(30);
    trips.tomorrow = await tripOf(db, lowCar.vin, paid, '2026-11-23T20:00:00Z', '2026-11-26T20:00:00Z', 'Pending');
    // Due back at 22:00 HST, still out: past the 29-minute grace.
    trips.overdue = await tripOf(
      db,
      (await car()).vin,
      paid,
      '2026-11-20T20:00:00Z',
      '2026-11-23T08:00:00Z',
      'On Rent',
    );
    // Due back at 23:30 HST, still out: within the grace.
    trips.late = await tripOf(db, (await car()).vin, paid, '2026-11-20T20:00:00Z', '2026-11-23T09:30:00Z', 'On Rent');
    // The day after tomorrow: not on the board.
    trips.later = await tripOf(db, (await car()).vin, paid, '2026-11-24T20:00:00Z', '2026-11-26T20:00:00Z', 'Pending');
    // Another lot's pickup tonight: not on this board.
    trips.elsewhere = await tripOf(db, other.vin, paid, '2026-11-23T09:55:00Z', '2026-11-24T09:55:00Z', 'Pending');
  });
  afterAll(() => ctx?.close());

  const board = (cookie: string, locationId: number | string) =>
    ctx.app.inject({ url: `/api/ops/v1/today?locationId=${locationId}`, headers: { cookie } });
  const refs = (list: { reference: string }[]) => list.map((t) => t.reference);

  it('lists the lot’s day on its own clock: today, tomorrow, returns, overdue past the grace, low batteries, what needs attention', async () => {
    const agent = await signedInStaff(ctx.handle.db, {
      role: 'viewer',
      locationIds: [String(lot.locationId)],
      now: NOW,
    });
    const res = await board(agent.cookie, lot.locationId);
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({
      today: '2026-11-22',
      tomorrow: '2026-11-23',
      location: { timezone: 'Pacific/Honolulu' },
    });
    expect(b.rules).toEqual({ lowBatteryPercent: 50, overdueGraceMinutes: 29, pickupSoonHours: 24 });
    expect(refs(b.pickupsToday)).toEqual([trips.tonight!.platformId]);
    expect(b.pickupsToday[0].pickupLocal).toBe('2026-11-22 23:55');
    expect(refs(b.pickupsTomorrow)).toEqual([trips.afterMidnight!.platformId, trips.tomorrow!.platformId]);
    expect(refs(b.returnsToday)).toEqual([trips.overdue!.platformId, trips.late!.platformId]);
    expect(refs(b.overdue)).toEqual([trips.overdue!.platformId]);
    expect(b.lowBattery).toEqual([
      expect.objectContaining({
        batteryPercent: 30,
        reference: trips.tomorrow!.platformId,
        nextPickupLocal: '2026-11-23 10:00',
      }),
    ]);
    expect(b.lowBattery[0].car.vin).toBe(lowCar.vin);
    const attention = Object.fromEntries(
      b.needsAttention.map((t: { reference: string; problems: string[] }) => [t.reference, t.problems]),
    );
    expect(attention).toEqual({
      [trips.tonight!.platformId]: ['unpaid'],
      [trips.afterMidnight!.platformId]: ['unverified'],
    });
    const all = [b.pickupsToday, b.pickupsTomorrow, b.returnsToday, b.overdue].flat();
    expect(refs(all)).not.toContain(trips.later!.platformId);
    expect(refs(all)).not.toContain(trips.elsewhere!.platformId);
  });

  it('turns the page at the lot’s midnight, not UTC’s', async () => {
    ctx.clock.now = new Date('2026-11-23T10:05:00Z'); // 00:05 HST, 23 November
    try {
      const owner = await signedInStaff(ctx.handle.db, { role: 'owner', now: ctx.clock.now });
      const b = (await board(owner.cookie, lot.locationId)).json();
      expect(b.today).toBe('2026-11-23');
      expect(refs(b.pickupsToday)).toEqual([trips.afterMidnight!.platformId, trips.tomorrow!.platformId]);
      expect(refs(b.pickupsTomorrow)).toEqual([trips.later!.platformId]);
      expect(refs(b.returnsToday)).toEqual([]);
      expect(refs(b.overdue)).toEqual([trips.overdue!.platformId, trips.late!.platformId]);
    } finally {
      ctx.clock.now = NOW;
    }
  });

  it('answers 404 for another location’s board, audited, and 401 without a staff session', async () => {
    const manager = await signedInStaff(ctx.handle.db, {
      role: 'manager',
      locationIds: [String(other.locationId)],
      now: NOW,
    });
    const res = await board(manager.cookie, lot.locationId);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`No location ${lot.locationId} in your locations.`);
    const [attempt] = (await listAudit(ctx.handle.db, { limit: 5, staffId: manager.id })).filter(
      (r) => r.action === 'today.read',
    );
    expect(attempt).toMatchObject({ outcome: 'failure' });
    expect((await ctx.app.inject({ url: `/api/ops/v1/today?locationId=${lot.locationId}` })).statusCode).toBe(401);
    const bad = await board(manager.cookie, 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('locationId');
  });

  it('signs a subscription to the board channel of the staff member’s own location only', async () => {
    const agent = await signedInStaff(ctx.handle.db, {
      role: 'agent',
      locationIds: [String(lot.locationId)],
      now: NOW,
    });
    const sign = (cookie: string | undefined, channel: string, form = false) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/ops/v1/realtime/auth',
        headers: {
          ...(cookie ? { cookie } : {}),
          'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        },
        payload: form
          ? `socket_id=123.456&channel_name=${channel}`
          : JSON.stringify({ socket_id: '123.456', channel_name: channel }),
      });
    const channel = staffBoardChannel(lot.locationId);
    const ok = await sign(agent.cookie, channel, true);
    expect(ok.statusCode).toBe(200);
    const { key, secret } = ctx.app.realtime.transport;
    expect(ok.json().auth).toBe(channelAuth(key, secret, '123.456', channel));
    expect((await sign(agent.cookie, staffBoardChannel(other.locationId))).statusCode).toBe(404);
    expect((await sign(undefined, channel)).statusCode).toBe(401);
    // A renter's channel is never signed here.
    const renterChannel = await sign(agent.cookie, 'private-user-test-123');
    expect(renterChannel.statusCode).toBe(400);
    expect(renterChannel.json().field).toBe('channel_name');
  });

  it('tells the location’s channel when a trip there changes or a car’s battery does', async () => {
    const heard: { channel: string; data: string }[] = [];
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const listener = createListener(
      ctx.handle.db,
      (payload) => {
        const d = decodeDelivery(payload);
        if (d) heard.push(d);
      },
      quiet,
    );
    await listener.ready();
    try {
      const db = ctx.handle.db;
      await db
        .updateTable('reservations')
        .set({ status: 'Pending', confirmed_at: NOW })
        .where('id', '=', trips.tonight!.id)
        .execute();
      await db.updateTable('simulated_cars').set({ battery_level: 0.25 }).where('vehicle_id', '=', lowCar.id).execute();
      const channel = staffBoardChannel(lot.locationId);
      await expect
        .poll(() => heard.filter((h) => h.channel === channel).map((h) => JSON.parse(h.data).reason))
        .toEqual(['trip', 'battery']);
      expect(heard.map((h) => h.channel)).not.toContain(staffBoardChannel(other.locationId));
    } finally {
      await listener.close();
    }
  });

  it('delivers the REFRESH to a staff member’s browser subscribed on the realtime server with the console’s own cookie', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const agent = await signedInStaff(ctx.handle.db, {
      role: 'agent',
      locationIds: [String(lot.locationId)],
      now: NOW,
    });
    const frames: { event: string; channel?: string; data?: unknown }[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${ctx.app.realtime.transport.key}?protocol=7&client=js`);
    ws.on('message', (raw) => frames.push(JSON.parse(rawText(raw)) as (typeof frames)[number]));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      await expect.poll(() => frames.find((f) => f.event === 'pusher:connection_established')).toBeTruthy();
      const established = frames.find((f) => f.event === 'pusher:connection_established')!;
      const socketId = (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
      const channel = staffBoardChannel(lot.locationId);
      const res = await fetch(`http://127.0.0.1:${port}/api/ops/v1/realtime/auth`, {
        method: 'POST',
        headers: { cookie: agent.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `socket_id=${socketId}&channel_name=${channel}`,
      });
      expect(res.status).toBe(200);
      const { auth } = (await res.json()) as { auth: string };
      ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
      await expect
        .poll(() => frames.some((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === channel))
        .toBe(true);
      await ctx.handle.db
        .updateTable('reservations')
        .set({ status: 'Canceled', canceled_at: NOW })
        .where('id', '=', trips.later!.id)
        .execute();
      await expect.poll(() => frames.find((f) => f.event === 'REFRESH' && f.channel === channel)).toBeTruthy();
      const refresh = frames.find((f) => f.event === 'REFRESH')!;
      expect(JSON.parse(refresh.data as string)).toEqual({ locationId: String(lot.locationId), reason: 'trip' });
    } finally {
      ws.terminate();
    }
  });
});
