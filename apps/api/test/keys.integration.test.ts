import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwinIdentityProvider } from '../src/features/identity/twin.ts';
import { issueKeyIfReady } from '../src/features/trips/keys.ts';
import { TwinOutbox } from '../src/features/twins/outbox.ts';
import { startedTrip } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import type { InsuranceState } from '@ampere/domain/verification';

describe.each(engines())('digital keys on %s', (engine) => {
  let ctx: TestContext;
  let identity: TwinIdentityProvider;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { SANDBOX_WEBHOOKS: 'off' },
      providers: (db, clock) => {
        identity = new TwinIdentityProvider(
          db,
          clock,
          new TwinOutbox(db, 'identity', 'identity_twin_keys_test_secret'),
        );
        return { identity };
      },
    });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const deps = () => ({ db: db(), clock: () => ctx.clock.now });
  const reservation = async (who: SignedIn, platformId: string) =>
    (await ctx.app.inject({ url: `/api/v1/reservations/${platformId}`, headers: who.headers })).json().reservation;
  const act = (who: SignedIn, platformId: string, action: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${platformId}/key`,
      headers: who.headers,
      payload: { action },
    });
  const page = (token: string) => ctx.app.inject({ url: `/api/v1/keys/${token}` });
  const recorded = (who: SignedIn) =>
    db()
      .selectFrom('analytics_events')
      .select(['name', 'properties'])
      .where('user_id', '=', who.userId)
      .where('name', '=', 'paid_and_verified')
      .execute();
  const command = (token: string, c: 'lock' | 'unlock') =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/keys/${token}/commands`, payload: { command: c } });

  const verifyLicense = (who: SignedIn, expiration = '2031-01-31') =>
    db()
      .updateTable('users')
      .set({
        license_status: 'approved',
        license_number: 'D7654321',
        license_expiration: expiration,
        license_name: 'Avery Quinn',
      })
      .where('id', '=', who.userId)
      .execute();
  const connectInsurance = (who: SignedIn, status: InsuranceState = 'ACTIVE') =>
    db()
      .insertInto('insurance_verifications')
      .values({
        user_id: who.userId,
        reservation_id: null,
        status,
        carrier: 'GEICO',
        policy_number: 'GE-12345678',
        created_at: ctx.clock.now,
      })
      .execute();
  const holdDeposit = (tripId: string) =>
    db()
      .updateTable('transactions')
      .set({ card_last_4: '4242' })
      .where('reservation_id', '=', tripId)
      .where('category', '=', 'Deposit')
      .execute();
  /** A paid trip (Pending) a week away. */
  const paidTrip = async (who: SignedIn) => {
    const trip = await startedTrip(db(), who.userId, ctx.clock.now);
    await db().updateTable('reservations').set({ status: 'Pending' }).where('id', '=', trip.id).execute();
    await db()
      .updateTable('transactions')
      .set({ status: 'Successful' })
      .where('reservation_id', '=', trip.id)
      .where('category', '!=', 'Deposit')
      .execute();
    return trip;
  };
  /** A trip with everything a key needs, and its key. */
  const keyedTrip = async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    await Promise.all([verifyLicense(who), connectInsurance(who), holdDeposit(trip.id)]);
    expect(await issueKeyIfReady(deps(), trip.id)).toBe(true);
    const r = await reservation(who, trip.platformId);
    return { who, trip, key: r.key as { token: string; status: string; valid_from: string; valid_until: string }, r };
  };

  it('a key is given only once the trip is paid, the license verified, insurance connected and the deposit held', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    const noKey = async () => {
      expect(await issueKeyIfReady(deps(), trip.id)).toBe(false);
      expect((await reservation(who, trip.platformId)).key).toBeNull();
    };
    await noKey();
    await verifyLicense(who);
    await noKey();
    await connectInsurance(who, 'MFA_EXPIRED');
    await noKey();
    await connectInsurance(who);
    await noKey(); // the deposit is not held yet
    await holdDeposit(trip.id);
    expect(await issueKeyIfReady(deps(), trip.id)).toBe(true);
    expect(await issueKeyIfReady(deps(), trip.id)).toBe(false); // one live key per trip
    const r = await reservation(who, trip.platformId);
    expect(r.key.status).toBe('active');
    expect(r.key.token).toMatch(/^[\w-]{40,}$/);
    expect(new Date(r.key.valid_from).getTime()).toBe(new Date(r.pickup_at).getTime() - 30 * 60_000);
    expect(r.key.valid_until).toBe(r.return_at);
  });

  it('a license that runs out before the return, or an unpaid trip, gets no key', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    await Promise.all([verifyLicense(who, '2026-12-01'), connectInsurance(who), holdDeposit(trip.id)]);
    expect(await issueKeyIfReady(deps(), trip.id)).toBe(false);
    const unpaid = await startedTrip(db(), who.userId, ctx.clock.now, { leadDays: 20 });
    await holdDeposit(unpaid.id);
    await verifyLicense(who);
    expect(await issueKeyIfReady(deps(), unpaid.id)).toBe(false);
    expect(await issueKeyIfReady(deps(), trip.id)).toBe(true);
  });

  it('calls at once on a trip that is ready issue one key: the one that takes the lock second finds it', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    await Promise.all([verifyLicense(who), connectInsurance(who), holdDeposit(trip.id)]);
    const issued = await Promise.all([1, 2, 3].map(() => issueKeyIfReady(deps(), trip.id)));
    expect(issued.filter(Boolean)).toHaveLength(1);
    const keys = await db().selectFrom('digital_keys').select('status').where('reservation_id', '=', trip.id).execute();
    expect(keys).toEqual([{ status: 'active' }]);
  });

  it('the license decision arriving last issues the key at once, and the trip is recorded paid and verified once', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    await Promise.all([connectInsurance(who), holdDeposit(trip.id)]);
    const { url } = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/license',
        headers: who.headers,
        payload: { platform_id: trip.platformId },
      })
    ).json().verification;
    await ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=approve&first_name=Avery&last_name=Quinn',
    });
    expect((await reservation(who, trip.platformId)).key).toBeNull();
    expect(await recorded(who)).toEqual([]);
    await identity.outbox.deliverPendingEvents();
    expect((await reservation(who, trip.platformId)).key?.status).toBe('active');
    // Spec 7: paid_and_verified, when the last of payment, license, insurance and deposit came in.
    expect(await recorded(who)).toEqual([{ name: 'paid_and_verified', properties: { platform_id: trip.platformId } }]);
    // A key revoked and given again is not a second time the trip became paid and verified.
    expect((await act(who, trip.platformId, 'REVOKE_KEY')).statusCode).toBe(200);
    expect(await issueKeyIfReady({ ...deps(), analytics: ctx.app.analytics }, trip.id)).toBe(true);
    expect(await recorded(who)).toHaveLength(1);
  });

  it('the renter pauses, resumes, replaces and revokes the key; what does not apply is a 409', async () => {
    const { who, trip, key } = await keyedTrip();
    const paused = await act(who, trip.platformId, 'PAUSE_KEY');
    expect(paused.statusCode).toBe(200);
    expect(paused.json().reservation.key.status).toBe('paused');
    expect((await act(who, trip.platformId, 'PAUSE_KEY')).json().message).toBe('The key is already paused.');
    expect((await act(who, trip.platformId, 'UNPAUSE_KEY')).json().reservation.key.status).toBe('active');
    const replaced = (await act(who, trip.platformId, 'CREATE_NEW_KEY')).json().reservation.key;
    expect(replaced.token).not.toBe(key.token);
    expect((await page(key.token)).json().refusal).toBe('revoked');
    const revoked = await act(who, trip.platformId, 'REVOKE_KEY');
    expect(revoked.json().reservation.key).toBeNull();
    expect((await act(who, trip.platformId, 'REVOKE_KEY')).statusCode).toBe(409);
    // A new key needs everything in place still.
    await db().updateTable('users').set({ license_status: 'declined' }).where('id', '=', who.userId).execute();
    const refused = await act(who, trip.platformId, 'CREATE_NEW_KEY');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("Verify your driver's license first.");
    const other = await signInAs(ctx);
    expect((await act(other, trip.platformId, 'CREATE_NEW_KEY')).statusCode).toBe(404);
    expect((await act(who, trip.platformId, 'OPEN_SESAME')).statusCode).toBe(400);
  });

  it('the key page shows the trip and car; the key opens the car only within its window', async () => {
    const { key, r, trip } = await keyedTrip();
    const before = await page(key.token);
    expect(before.statusCode).toBe(200);
    const body = before.json();
    expect(body.platform_id).toBe(r.platform_id);
    expect(body.vehicle.vin).toBe(r.vehicle.vin);
    expect(body.car.locked).toBe(true);
    expect(body.car.battery_level).toBeGreaterThanOrEqual(0.7);
    expect(body.refusal).toBe('not_yet');
    const early = await command(key.token, 'unlock');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This key starts working 30 minutes before pickup.');

    const saved = ctx.clock.now;
    try {
      ctx.clock.now = new Date(new Date(r.pickup_at).getTime() - 10 * 60_000);
      const unlocked = await command(key.token, 'unlock');
      expect(unlocked.statusCode).toBe(200);
      expect(unlocked.json().car.locked).toBe(false);
      expect((await page(key.token)).json().car.locked).toBe(false);
      expect((await command(key.token, 'lock')).json().car.locked).toBe(true);
      ctx.clock.now = new Date(r.return_at);
      expect((await command(key.token, 'unlock')).json().message).toBe('This key has expired: the trip has ended.');
    } finally {
      ctx.clock.now = saved;
    }
    const audit = await db()
      .selectFrom('car_commands as c')
      .innerJoin('digital_keys as k', 'k.id', 'c.key_id')
      .select(['c.command', 'c.result'])
      .where('k.reservation_id', '=', trip.id)
      .orderBy('c.id')
      .execute();
    expect(audit).toEqual([
      { command: 'unlock', result: 'refused:not_yet' },
      { command: 'unlock', result: 'ok' },
      { command: 'lock', result: 'ok' },
      { command: 'unlock', result: 'refused:expired' },
    ]);
  });

  it('a revoked or paused key cannot unlock; an unknown token is a 404', async () => {
    const { who, trip, key, r } = await keyedTrip();
    const atPickup = async <T>(work: () => Promise<T>) => {
      const saved = ctx.clock.now;
      ctx.clock.now = new Date(r.pickup_at);
      try {
        return await work();
      } finally {
        ctx.clock.now = saved;
      }
    };
    await act(who, trip.platformId, 'PAUSE_KEY');
    expect((await atPickup(() => command(key.token, 'unlock'))).json().message).toBe(
      'This key is paused. Resume it from your trip page to unlock the car.',
    );
    await act(who, trip.platformId, 'REVOKE_KEY');
    expect((await atPickup(() => command(key.token, 'unlock'))).json().message).toBe(
      'This key has been revoked. Open your trip for a new one.',
    );
    expect((await page(key.token)).json().refusal).toBe('revoked');
    const unknown = await page('x'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This key does not exist.');
    expect((await page('short')).statusCode).toBe(400);
  });
});
