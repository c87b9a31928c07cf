import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STAFF_PAUSE_MESSAGE } from '@ampere/domain/car-actions';
import type { KeyAndCar } from '@ampere/domain/contract/ops-car';
import { KEY_REFUSAL_MESSAGES } from '@ampere/domain/verification';
import { transact } from '../src/db/transact.ts';
import { listAudit } from '../src/features/audit/repository.ts';
import { digitalKeySecret, keyToken } from '../src/features/keys/repository.ts';
import { issueKey } from '../src/features/keys/service.ts';
import { CarUnreachableError, type VehicleAccess } from '../src/features/vehicle-access/provider.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { carAtNewLot } from './factories.ts';
import { carAt, tripOf } from './day-factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { signedInStaff } from './staff.ts';

const HOUR = 3_600_000;
const ASLEEP = 'The vehicle is asleep (ASLEEP)';

/** The simulated fleet, with a switch that puts every car to sleep as a real one does. */
function sleepyFleet(fleet: SimulatedFleet): VehicleAccess & { asleep: boolean } {
  const wake = <T>(work: () => Promise<T>) =>
    access.asleep ? Promise.reject(new CarUnreachableError(ASLEEP)) : work();
  const access = {
    kind: 'simulated' as const,
    asleep: false,
    state: (car: Parameters<VehicleAccess['state']>[0]) => wake(() => fleet.state(car)),
    command: (car: Parameters<VehicleAccess['state']>[0], c: 'lock' | 'unlock') => wake(() => fleet.command(car, c)),
    position: (car: Parameters<VehicleAccess['state']>[0]) => wake(() => fleet.position(car)),
  };
  return access;
}

/** The key and the car from a trip in the console (issue 30 §5, decision 096). */
describe.each(engines())('the key and the car from the console on %s', (engine) => {
  let ctx: TestContext;
  let access: ReturnType<typeof sleepyFleet>;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  let agent: { id: string; cookie: string };
  let viewer: { id: string; cookie: string };
  let elsewhere: { id: string; cookie: string };

  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      providers: (db, clock) => {
        access = sleepyFleet(new SimulatedFleet(db, clock));
        return { vehicleAccess: access };
      },
    });
    const db = ctx.handle.db;
    const now = ctx.clock.now;
    lot = await carAtNewLot(db, null);
    other = await carAtNewLot(db, null);
    agent = await signedInStaff(db, { role: 'agent', locationIds: [String(lot.locationId)], now, name: 'Desk Dee' });
    viewer = await signedInStaff(db, { role: 'viewer', locationIds: [String(lot.locationId)], now });
    elsewhere = await signedInStaff(db, { role: 'manager', locationIds: [String(other.locationId)], now });
  });
  afterAll(() => ctx?.close());
  beforeEach(() => {
    access.asleep = false;
  });

  const db = () => ctx.handle.db;

  /** A verified renter's paid trip on the lot's car, picked up an hour ago (On Rent), with its key. */
  const keyedTrip = async (status: 'Pending' | 'On Rent' = 'On Rent') => {
    const who: SignedIn = await signInAs(ctx);
    await db()
      .updateTable('users')
      .set({
        first_name: 'Kit',
        license_status: 'approved',
        license_number: 'D1234567',
        license_expiration: '2035-01-01',
      })
      .where('id', '=', who.userId)
      .execute();
    await db()
      .insertInto('insurance_verifications')
      .values({ user_id: who.userId, reservation_id: null, status: 'ACTIVE', carrier: 'USAA', policy_number: 'P-1' })
      .execute();
    const now = ctx.clock.now;
    const pickupAt = new Date(now.getTime() - HOUR);
    const returnAt = new Date(now.getTime() + 48 * HOUR);
    // Each trip its own car at the lot, so trips never overlap.
    const { vin } = await carAt(db(), lot.locationId);
    const trip = await tripOf(db(), vin, who.userId, pickupAt.toISOString(), returnAt.toISOString(), status);
    await db()
      .insertInto('transactions')
      .values({
        reservation_id: trip.id,
        category: 'Deposit',
        status: 'Pending',
        description: 'Security deposit',
        cost: 25_000,
        amount: 25_000,
        number_of_days: null,
        effective_date: null,
        initiated_at: now,
        released_at: null,
        card_last_4: '4242',
        payment_id: null,
        reserve_applied_payment_id: null,
        addon_id: null,
      })
      .execute();
    const row = await db()
      .selectFrom('reservations')
      .select(['id', 'pickup_at', 'return_at'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    await transact(db(), (trx) => issueKey(trx, row, now));
    return { ...trip, who, token: await tokenOf(trip.id) };
  };

  const tokenOf = async (tripId: string) => {
    const key = await db()
      .selectFrom('digital_keys')
      .select('id')
      .where('reservation_id', '=', tripId)
      .where('status', '!=', 'revoked')
      .executeTakeFirstOrThrow();
    return keyToken(await digitalKeySecret(db()), key.id);
  };

  const panel = (tripId: string, cookie = agent.cookie) =>
    ctx.app.inject({ url: `/api/ops/v1/trips/${tripId}/key-car`, headers: { cookie } });
  const key = (tripId: string, verb: string, cookie = agent.cookie) =>
    ctx.app.inject({ method: 'POST', url: `/api/ops/v1/trips/${tripId}/key/${verb}`, headers: { cookie } });
  const car = (tripId: string, command: string, cookie = agent.cookie) =>
    ctx.app.inject({ method: 'POST', url: `/api/ops/v1/trips/${tripId}/car/${command}`, headers: { cookie } });
  const keyPage = (token: string) => ctx.app.inject({ url: `/api/v1/keys/${token}` });
  const renterCommand = (token: string, command: 'lock' | 'unlock') =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/keys/${token}/commands`, payload: { command } });
  const audits = (staffId: string) => listAudit(db(), { limit: 20, staffId });

  it('shows the trip’s key, and the car’s lock, odometer, battery and position near its lot, read now; the read is audited', async () => {
    const trip = await keyedTrip();
    const res = await panel(trip.platformId);
    expect(res.statusCode).toBe(200);
    const body = res.json<KeyAndCar>();
    expect(body.trip).toMatchObject({ tripId: trip.id, reference: trip.platformId, status: 'On Rent' });
    expect(body.key).toMatchObject({ status: 'active', pausedBy: null });
    expect(body.car).toMatchObject({ locked: true, odometerMiles: expect.any(Number) });
    expect(body.car!.batteryPercent).toBeGreaterThanOrEqual(70);
    const lotAt = await db()
      .selectFrom('locations')
      .select(['latitude', 'longitude'])
      .where('id', '=', lot.locationId)
      .executeTakeFirstOrThrow();
    expect(Math.abs(body.car!.latitude - Number(lotAt.latitude))).toBeLessThanOrEqual(SimulatedFleet.DRIFT_DEGREES);
    expect(Math.abs(body.car!.longitude - Number(lotAt.longitude))).toBeLessThanOrEqual(SimulatedFleet.DRIFT_DEGREES);
    expect(body.car!.milesFromLot).toBeLessThan(0.5);
    expect(body.carMessage).toBeNull();
    expect(body.notes).toEqual([]);
    const [read] = await audits(agent.id);
    expect(read).toMatchObject({ action: 'trips.read', outcome: 'success', target_type: 'trip', target_id: trip.id });
  });

  it('a car that does not answer leaves the panel up with the key and says so', async () => {
    const trip = await keyedTrip();
    access.asleep = true;
    const body = (await panel(trip.id)).json<KeyAndCar>();
    expect(body.car).toBeNull();
    expect(body.carMessage).toContain('not answering');
    expect(body.key?.status).toBe('active');
  });

  it('a viewer reads the panel but cannot act: each attempt is a 403, audited', async () => {
    const trip = await keyedTrip();
    expect((await panel(trip.id, viewer.cookie)).statusCode).toBe(200);
    const pause = await key(trip.id, 'pause', viewer.cookie);
    expect(pause.statusCode).toBe(403);
    expect(pause.json().message).toContain('Viewer');
    expect((await car(trip.id, 'unlock', viewer.cookie)).statusCode).toBe(403);
    const failures = (await audits(viewer.id)).filter((a) => a.outcome === 'failure');
    expect(failures.map((a) => a.action)).toEqual(['cars.command', 'keys.manage']);
    expect(failures[1]).toMatchObject({ target_type: 'trip', target_id: trip.id });
    expect((await keyPage(trip.token)).json().refusal).toBeNull();
  });

  it('another location’s trip is a 404 for every call, audited, and nothing changes', async () => {
    const trip = await keyedTrip();
    for (const res of [
      await panel(trip.id, elsewhere.cookie),
      await key(trip.id, 'revoke', elsewhere.cookie),
      await car(trip.id, 'unlock', elsewhere.cookie),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`No trip ${trip.id} in your locations.`);
    }
    const failures = (await audits(elsewhere.id)).filter((a) => a.outcome === 'failure');
    expect(failures.map((a) => a.action)).toEqual(['cars.command', 'keys.manage', 'trips.read']);
    expect((await keyPage(trip.token)).json().refusal).toBeNull();
  });

  it('a key paused by the desk: the renter’s key page says so and refuses to unlock, the renter cannot resume it, the desk can', async () => {
    const trip = await keyedTrip();
    const paused = await key(trip.id, 'pause');
    expect(paused.statusCode).toBe(200);
    expect(paused.json<KeyAndCar>().key).toMatchObject({ status: 'paused', pausedBy: 'staff' });
    const page = (await keyPage(trip.token)).json();
    expect(page).toMatchObject({ refusal: 'paused', message: STAFF_PAUSE_MESSAGE });
    const refused = await renterCommand(trip.token, 'unlock');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(STAFF_PAUSE_MESSAGE);
    for (const action of ['UNPAUSE_KEY', 'CREATE_NEW_KEY']) {
      const own = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/reservations/${trip.platformId}/key`,
        headers: trip.who.headers,
        payload: { action },
      });
      expect(own.statusCode, action).toBe(409);
      expect(own.json().message).toBe(STAFF_PAUSE_MESSAGE);
    }
    expect((await key(trip.id, 'pause')).json().message).toBe('The key is already paused.');

    const resumed = await key(trip.id, 'resume');
    expect(resumed.json<KeyAndCar>().key).toMatchObject({ status: 'active', pausedBy: null });
    expect((await keyPage(trip.token)).json().refusal).toBeNull();
    const opened = await renterCommand(trip.token, 'unlock');
    expect(opened.statusCode).toBe(200);
    expect(opened.json().car.locked).toBe(false);
    const done = (await audits(agent.id)).filter((a) => a.action === 'keys.manage' && a.outcome === 'success');
    expect(done.map((a) => (a.after as { action: string }).action)).toEqual(['UNPAUSE_KEY', 'PAUSE_KEY']);
  });

  it('a pause the renter made is theirs to resume, and the desk may resume it too', async () => {
    const trip = await keyedTrip();
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${trip.platformId}/key`,
      headers: trip.who.headers,
      payload: { action: 'PAUSE_KEY' },
    });
    expect((await keyPage(trip.token)).json().message).toBe(KEY_REFUSAL_MESSAGES.paused);
    expect((await panel(trip.id)).json<KeyAndCar>().key?.pausedBy).toBe('renter');
    expect((await key(trip.id, 'resume')).statusCode).toBe(200);
    expect((await keyPage(trip.token)).json().refusal).toBeNull();
  });

  it('replace gives the renter a new working key, kills the old link, and texts them', async () => {
    const trip = await keyedTrip();
    const res = await key(trip.platformId, 'replace');
    expect(res.statusCode).toBe(200);
    expect(res.json<KeyAndCar>().key?.status).toBe('active');
    const fresh = await tokenOf(trip.id);
    expect(fresh).not.toBe(trip.token);
    expect((await keyPage(trip.token)).json().refusal).toBe('revoked');
    expect((await renterCommand(trip.token, 'unlock')).statusCode).toBe(409);
    expect((await keyPage(fresh)).json().refusal).toBeNull();
    expect((await renterCommand(fresh, 'unlock')).statusCode).toBe(200);
    const told = await db()
      .selectFrom('trip_messages')
      .select(['channel', 'body'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'key_replaced')
      .execute();
    expect(told.map((m) => m.channel)).toContain('sms');
    expect(told[0]!.body).toContain('The old key link no longer opens the car');
  });

  it('revoke ends the key; then nothing is left to pause or resume, but a replacement issues one again', async () => {
    const trip = await keyedTrip('Pending');
    const res = await key(trip.id, 'revoke');
    expect(res.statusCode).toBe(200);
    expect(res.json<KeyAndCar>().key).toBeNull();
    expect((await keyPage(trip.token)).json().refusal).toBe('revoked');
    const again = await key(trip.id, 'resume');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This trip has no live key to resume.');
    expect((await key(trip.id, 'replace')).json<KeyAndCar>().key?.status).toBe('active');
  });

  it('locks and unlocks the car, each audited with what the car reported', async () => {
    const trip = await keyedTrip();
    const open = await car(trip.id, 'unlock');
    expect(open.statusCode).toBe(200);
    expect(open.json<KeyAndCar>().car?.locked).toBe(false);
    const shut = await car(trip.id, 'lock');
    expect(shut.json<KeyAndCar>().car?.locked).toBe(true);
    const done = (await audits(agent.id)).filter((a) => a.action === 'cars.command');
    expect(done.slice(0, 2).map((a) => [a.outcome, (a.after as { command: string }).command])).toEqual([
      ['success', 'lock'],
      ['success', 'unlock'],
    ]);
  });

  it('an unlock the car does not take is a 503 staff can act on, audited, and opens a support note each time', async () => {
    const trip = await keyedTrip();
    access.asleep = true;
    const res = await car(trip.id, 'unlock');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain('A support note is open on the trip');
    expect(res.headers['retry-after']).toBe('30');
    expect((await car(trip.id, 'unlock')).statusCode).toBe(503);
    expect((await car(trip.id, 'lock')).statusCode).toBe(503); // a failed lock is audited, but opens no note
    const [failure] = await audits(agent.id);
    expect(failure).toMatchObject({ action: 'cars.command', outcome: 'failure', target_id: trip.id });
    expect(failure!.reason).toMatch(/^503: The car did not lock/);
    access.asleep = false;
    const { notes } = (await panel(trip.id)).json<KeyAndCar>();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatchObject({
      source: 'staff',
      title: 'Unlock from the console failed',
      detail: ASLEEP,
      staffName: 'Desk Dee',
      resolvedAt: null,
    });
  });

  it('a renter’s failed unlocks open one note an hour, and staff close it', async () => {
    const trip = await keyedTrip();
    access.asleep = true;
    expect((await renterCommand(trip.token, 'unlock')).statusCode).toBe(503);
    expect((await renterCommand(trip.token, 'unlock')).statusCode).toBe(503);
    const start = ctx.clock.now;
    try {
      ctx.clock.now = new Date(start.getTime() + HOUR);
      expect((await renterCommand(trip.token, 'unlock')).statusCode).toBe(503);
    } finally {
      ctx.clock.now = start;
    }
    access.asleep = false;
    const { notes } = (await panel(trip.id)).json<KeyAndCar>();
    expect(notes.map((n) => n.source)).toEqual(['renter', 'renter']);
    expect(notes[0]!.title).toBe('The renter’s key could not unlock the car');

    const closed = await ctx.app.inject({
      method: 'POST',
      url: `/api/ops/v1/trips/${trip.id}/notes/${notes[0]!.id}/resolve`,
      headers: { cookie: agent.cookie },
    });
    expect(closed.statusCode).toBe(200);
    const after = closed.json<KeyAndCar>().notes;
    expect(after.map((n) => n.resolvedAt === null)).toEqual([true, false]);
    expect(after[1]).toMatchObject({ id: notes[0]!.id, resolvedBy: 'Desk Dee' });
    const twice = await ctx.app.inject({
      method: 'POST',
      url: `/api/ops/v1/trips/${trip.id}/notes/${notes[0]!.id}/resolve`,
      headers: { cookie: agent.cookie },
    });
    expect(twice.statusCode).toBe(409);
    const viewerTry = await ctx.app.inject({
      method: 'POST',
      url: `/api/ops/v1/trips/${trip.id}/notes/${notes[1]!.id}/resolve`,
      headers: { cookie: viewer.cookie },
    });
    expect(viewerTry.statusCode).toBe(403);
  });

  it('the trip’s timeline lists the desk’s key and car actions and its support notes', async () => {
    const trip = await keyedTrip();
    await key(trip.id, 'pause');
    access.asleep = true;
    await car(trip.id, 'unlock');
    access.asleep = false;
    const res = await ctx.app.inject({
      url: `/api/ops/v1/trips/${trip.id}/timeline`,
      headers: { cookie: agent.cookie },
    });
    const titles = res.json().events.map((e: { title: string }) => e.title);
    expect(titles).toContain('Key paused by staff');
    expect(titles).toContain('Support note: Unlock from the console failed');
  });

  it('after the return the car can be locked but not unlocked, and the key cannot be touched', async () => {
    const trip = await keyedTrip();
    await db().updateTable('reservations').set({ status: 'Returned' }).where('id', '=', trip.id).execute();
    const unlock = await car(trip.id, 'unlock');
    expect(unlock.statusCode).toBe(409);
    expect(unlock.json().message).toContain('over');
    expect((await car(trip.id, 'lock')).statusCode).toBe(200);
    const replace = await key(trip.id, 'replace');
    expect(replace.statusCode).toBe(409);
    expect(replace.json().message).toBe('This trip is over: its key has ended.');
  });

  it('a verb or command the console does not know is a 400 naming the field', async () => {
    const trip = await keyedTrip();
    const res = await key(trip.id, 'borrow');
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('verb');
    expect((await car(trip.id, 'honk')).json().field).toBe('command');
  });
});
