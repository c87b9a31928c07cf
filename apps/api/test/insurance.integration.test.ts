import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insuranceVerificationRequired } from '@ampere/domain/verification';
import { Realtime } from '../src/features/realtime/service.ts';
import { TwinInsuranceProvider } from '../src/features/insurance/twin.ts';
import { TwinOutbox } from '../src/features/twins/outbox.ts';
import { startedTrip } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const SECRET = 'insurance_twin_integration_secret';

describe.each(engines())('insurance connections on %s', (engine) => {
  let ctx: TestContext;
  let twin: TwinInsuranceProvider;
  const published: { channel: string; event: string; data: unknown }[] = [];
  const afterVerification: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { SANDBOX_WEBHOOKS: 'off' },
      providers: (db, clock) => {
        twin = new TwinInsuranceProvider(db, clock, new TwinOutbox(db, 'insurance', SECRET));
        // A realtime provider that records what the renter's pages would be sent.
        const realtime = new Realtime(db, {
          kind: 'pusher',
          key: 'k',
          secret: 's',
          send: async (channel, event, data) => void published.push({ channel, event, data: JSON.parse(data) }),
        });
        return {
          insurance: twin,
          realtime,
          afterVerification: async (userId: string) => void afterVerification.push(userId),
        };
      },
    });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const start = (who: SignedIn, platformId?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/insurance',
      headers: who.headers,
      payload: platformId ? { platform_id: platformId } : {},
    });
  const finish = (uri: string, outcome: string, carrier = 'GEICO') =>
    ctx.app.inject({
      method: 'POST',
      url: uri,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ outcome, carrier, username: 'a@b.c', password: 'x' }).toString(),
    });
  const paidTrip = async (who: SignedIn, days = 3) => {
    const trip = await startedTrip(db(), who.userId, ctx.clock.now, { days });
    await db().updateTable('reservations').set({ status: 'Pending' }).where('id', '=', trip.id).execute();
    return trip;
  };
  const reservation = async (who: SignedIn, platformId: string) =>
    (await ctx.app.inject({ url: `/api/v1/reservations/${platformId}`, headers: who.headers })).json().reservation;
  /** The analytics events the server recorded for the renter under that name (spec 7: insurance_verified). */
  const recorded = (who: SignedIn, name: string) =>
    db()
      .selectFrom('analytics_events')
      .select(['name', 'properties'])
      .where('user_id', '=', who.userId)
      .where('name', '=', name)
      .execute();
  const recent = async (who: SignedIn) =>
    (await ctx.app.inject({ url: '/api/v1/users/insurance/recent', headers: who.headers })).json()
      .insurance_verifications;
  const channels = new Map<string, string>();
  const eventsFor = (who: SignedIn) =>
    published.filter((p) => p.channel === channels.get(who.userId)).map((p) => p.event);
  const signIn = async () => {
    const who = await signInAs(ctx);
    const u = await db()
      .selectFrom('users')
      .select('stytch_user_id')
      .where('id', '=', who.userId)
      .executeTakeFirstOrThrow();
    channels.set(who.userId, `private-${u.stytch_user_id}`);
    return who;
  };
  /** Start, pick a carrier and an outcome on the twin's page, let its webhooks arrive. */
  const connect = async (who: SignedIn, outcome: string, platformId?: string, carrier = 'GEICO') => {
    const res = await start(who, platformId);
    expect(res.statusCode).toBe(200);
    const { ignition_uri, insurance_verification } = res.json();
    expect(insurance_verification.status).toBe('PENDING');
    const page = await finish(ignition_uri, outcome, carrier);
    expect([200, 303]).toContain(page.statusCode);
    await twin.outbox.deliverPendingEvents();
    const row = await db()
      .selectFrom('insurance_verifications')
      .selectAll()
      .where('id', '=', insurance_verification.id)
      .executeTakeFirstOrThrow();
    return { row, uri: ignition_uri as string, id: insurance_verification.id as string };
  };

  it('an active policy: connected through the twin, checked with the provider, the trip is insured and the page is told', async () => {
    const who = await signIn();
    const trip = await paidTrip(who);
    expect(insuranceVerificationRequired((await reservation(who, trip.platformId)).insurance_verifications)).toBe(true);
    const page = await ctx.app.inject({ url: (await start(who, trip.platformId)).json().ignition_uri });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Connect your insurance');
    const { row } = await connect(who, 'active', trip.platformId, 'State Farm');
    expect(row.status).toBe('ACTIVE');
    expect(row.result).toBe('PASSED');
    expect(row.carrier).toBe('State Farm');
    expect(row.policy_number).toMatch(/^ST-\d{8}$/);
    const r = await reservation(who, trip.platformId);
    expect(insuranceVerificationRequired(r.insurance_verifications)).toBe(false);
    expect(eventsFor(who)).toEqual(['insurance-completed']);
    expect(afterVerification).toContain(who.userId);
    expect(await recorded(who, 'insurance_verified')).toEqual([
      {
        name: 'insurance_verified',
        properties: { insurance_verification_id: row.id, carrier: 'State Farm', provider: 'twin' },
      },
    ]);
    const list = await recent(who);
    expect(list[0].status).toBe('ACTIVE');
    expect(list[0].policies).toEqual([{ axle_policy_carrier: 'State Farm', axle_policy_number: row.policy_number }]);
  });

  it('a policy connected before booking (onboarding) counts for the renter’s trips', async () => {
    const who = await signIn();
    expect((await connect(who, 'active')).row.status).toBe('ACTIVE');
    const trip = await paidTrip(who);
    expect(insuranceVerificationRequired((await reservation(who, trip.platformId)).insurance_verifications)).toBe(
      false,
    );
  });

  it.each([
    ['inactive', 'PENDING', 'insurance-failed'],
    ['credentials_expired', 'CREDENTIALS_EXPIRED', 'insurance-failed'],
    ['mfa_expired', 'MFA_EXPIRED', 'insurance-failed'],
    ['account_disabled', 'ACCOUNT_DISABLED', 'insurance-failed'],
    ['account_inaccessible', 'ACCOUNT_INACCESSIBLE', 'insurance-failed'],
  ])('%s: connects but does not insure the trip (%s, %s)', async (outcome, status, event) => {
    const who = await signIn();
    const trip = await paidTrip(who);
    const { row } = await connect(who, outcome, trip.platformId);
    expect(row.status).toBe(status);
    expect(row.last_error).toBeTruthy();
    expect(insuranceVerificationRequired((await reservation(who, trip.platformId)).insurance_verifications)).toBe(true);
    expect(eventsFor(who)).toEqual([event]);
    expect(afterVerification).not.toContain(who.userId);
    expect(await recorded(who, 'insurance_verified')).toEqual([]);
  });

  it('exit, a carrier error and a wrong password leave the trip uninsured and tell the page', async () => {
    const who = await signIn();
    const trip = await paidTrip(who);
    const exited = await connect(who, 'exit', trip.platformId);
    expect(exited.row.status).toBe('PENDING');
    const page = await ctx.app.inject({ url: exited.uri });
    expect(page.body).toContain('data-twin-outcome="exited"');
    const errored = await connect(who, 'error', trip.platformId);
    expect(errored.row.last_error).toContain('not responding');
    const wrong = await connect(who, 'wrong_password', trip.platformId);
    expect(wrong.row.status).toBe('PENDING');
    // A wrong password leaves the session open: the renter can sign in again on the same page.
    const retry = await finish(wrong.uri, 'active');
    expect(retry.statusCode).toBe(303);
    await twin.outbox.deliverPendingEvents();
    const after = await db()
      .selectFrom('insurance_verifications')
      .select('status')
      .where('id', '=', wrong.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('ACTIVE');
    expect(eventsFor(who)).toEqual(['insurance-exited', 'insurance-error', 'insurance-failed', 'insurance-completed']);
  });

  it('a wrong password keeps the window open for another try; leaving after it tells the page what went wrong (spec 4)', async () => {
    const who = await signIn();
    const trip = await paidTrip(who);
    const wrong = await connect(who, 'wrong_password', trip.platformId, 'State Farm');
    const told = () => published.filter((p) => p.channel === channels.get(who.userId)).map((p) => p.data);
    // The page hears of the refused sign-in, marked as one to retry in the same window.
    expect(told()).toEqual([
      {
        insurance_verification_id: wrong.id,
        status: 'PENDING',
        message: 'State Farm did not accept that username and password.',
        retry: true,
      },
    ]);
    const page = await ctx.app.inject({ url: wrong.uri });
    expect(page.body).toContain('Connect your insurance');
    expect(page.body).not.toContain('data-twin-outcome');
    // The renter gives up: the exit carries the reason, for the trip page to name.
    await finish(wrong.uri, 'exit', 'State Farm');
    await twin.outbox.deliverPendingEvents();
    expect(eventsFor(who)).toEqual(['insurance-failed', 'insurance-exited']);
    expect(told()[1]).toEqual({
      insurance_verification_id: wrong.id,
      status: 'PENDING',
      message: 'State Farm did not accept that username and password.',
      retry: false,
    });
  });

  it('an unfinished connection is handed out again; a finished one cannot be finished twice', async () => {
    const who = await signIn();
    const a = (await start(who)).json();
    const b = (await start(who)).json();
    expect(b.ignition_uri).toBe(a.ignition_uri);
    await finish(a.ignition_uri, 'exit');
    const twice = await finish(a.ignition_uri, 'active');
    expect(twice.statusCode).toBe(409);
    await twin.outbox.deliverPendingEvents();
    expect((await start(who)).json().ignition_uri).not.toBe(a.ignition_uri);
  });

  it('refuses another renter’s trip (404), an unpaid trip (409), and an unknown hosted session (404)', async () => {
    const owner = await signIn();
    const other = await signIn();
    const trip = await paidTrip(owner);
    expect((await start(other, trip.platformId)).statusCode).toBe(404);
    const unpaid = await startedTrip(db(), owner.userId, ctx.clock.now);
    const refused = await start(owner, unpaid.platformId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Pay for this trip before connecting insurance.');
    expect((await ctx.app.inject({ url: '/twin/insurance/ign_doesnotexist0000000' })).statusCode).toBe(404);
  });

  describe('the webhook', () => {
    const post = (body: string, secret: string | undefined, provider = 'twin') =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/insurance/${provider}`,
        headers: { 'content-type': 'application/json', ...(secret ? { 'x-axle-webhook-secret': secret } : {}) },
        payload: body,
      });
    const pending = async (token: string) =>
      (
        await db()
          .selectFrom('twin_events')
          .select(['id', 'payload'])
          .where('twin', '=', 'insurance')
          .where('delivered_at', 'is', null)
          .orderBy('seq')
          .execute()
      ).filter((e) => JSON.stringify(e.payload).includes(token));

    it('without the shared secret it is refused and changes nothing', async () => {
      const who = await signIn();
      const { ignition_uri, insurance_verification } = (await start(who)).json();
      await finish(ignition_uri, 'active');
      const [completed] = await pending(ignition_uri.split('/').at(-1));
      const body = JSON.stringify(completed!.payload);
      expect((await post(body, undefined)).statusCode).toBe(400);
      expect((await post(body, 'not the secret at all')).statusCode).toBe(400);
      expect((await post(body, SECRET, 'axle')).statusCode).toBe(404);
      const row = await db()
        .selectFrom('insurance_verifications')
        .select('status')
        .where('id', '=', insurance_verification.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('PENDING');
      expect(eventsFor(who)).toEqual([]);
      await twin.outbox.deliverPendingEvents();
      expect(eventsFor(who)).toEqual(['insurance-completed']);
    });

    it('a replay is applied once, and a late exit does not undo a connection', async () => {
      const who = await signIn();
      const { ignition_uri, insurance_verification } = (await start(who)).json();
      const token = ignition_uri.split('/').at(-1);
      await finish(ignition_uri, 'active');
      const [completed] = await pending(token);
      await db()
        .updateTable('twin_events')
        .set({ delivered_at: ctx.clock.now })
        .where('id', '=', completed!.id)
        .execute();
      const body = JSON.stringify(completed!.payload);
      expect((await post(body, SECRET)).json()).toEqual({ received: true });
      expect((await post(body, SECRET)).json()).toEqual({ received: true, duplicate: true });
      const late = JSON.stringify({
        id: 'evt_late_exit_1',
        type: 'ignition.exited',
        data: { token, step: 'carrier-select' },
        createdAt: new Date(0).toISOString(),
      });
      expect((await post(late, SECRET)).statusCode).toBe(200);
      const row = await db()
        .selectFrom('insurance_verifications')
        .select('status')
        .where('id', '=', insurance_verification.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('ACTIVE');
      expect(eventsFor(who)).toEqual(['insurance-completed']);
      expect(await recorded(who, 'insurance_verified')).toHaveLength(1);
    });
  });
});
