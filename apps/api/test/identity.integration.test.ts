import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseVerificationRequired, licenseVerificationStatus } from '@ampere/domain/verification';
import { addDays, todayIn } from '@ampere/domain/time';
import { TwinIdentityProvider } from '../src/features/identity/twin.ts';
import { sign } from '../src/features/identity/veriff-webhook.ts';
import { TwinOutbox } from '../src/features/twins/outbox.ts';
import { startedTrip } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const SECRET = 'identity_twin_integration_secret';

describe.each(engines())('driver’s license checks on %s', (engine) => {
  let ctx: TestContext;
  let twin: TwinIdentityProvider;
  const afterVerification: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { SANDBOX_WEBHOOKS: 'off' },
      providers: (db, clock) => {
        twin = new TwinIdentityProvider(db, clock, new TwinOutbox(db, 'identity', SECRET));
        return { identity: twin, afterVerification: async (userId: string) => void afterVerification.push(userId) };
      },
    });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const start = (who: SignedIn, platformId?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/license',
      headers: who.headers,
      payload: platformId ? { platform_id: platformId } : {},
    });
  const latest = async (who: SignedIn) =>
    (await ctx.app.inject({ url: '/api/v1/verifications/license', headers: who.headers })).json().verification;
  const user = async (who: SignedIn) =>
    (await ctx.app.inject({ url: '/api/v1/users', headers: who.headers })).json().user;
  /** The analytics events the server recorded for the renter under that name (spec 7: id_verified). */
  const recorded = (who: SignedIn, name: string) =>
    db()
      .selectFrom('analytics_events')
      .select(['name', 'properties'])
      .where('user_id', '=', who.userId)
      .where('name', '=', name)
      .execute();
  /** The renter picks an outcome on the twin's hosted page. */
  const finish = (url: string, outcome: string, names: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ outcome, ...names }).toString(),
    });
  /** A paid trip (Pending) of this renter, returning `days` after a pickup a week from now. */
  const paidTrip = async (who: SignedIn, days = 3) => {
    const trip = await startedTrip(db(), who.userId, ctx.clock.now, { days });
    await db().updateTable('reservations').set({ status: 'Pending' }).where('id', '=', trip.id).execute();
    return trip;
  };
  const tripOf = async (id: string) =>
    db().selectFrom('reservations').select(['return_at', 'timezone']).where('id', '=', id).executeTakeFirstOrThrow();
  /** Runs a whole check through the twin: start, pick the outcome, let the twin's webhooks arrive. */
  const check = async (who: SignedIn, outcome: string, platformId?: string) => {
    const started = await start(who, platformId);
    expect(started.statusCode).toBe(200);
    const { url } = started.json().verification;
    const done = await finish(url, outcome, { first_name: 'Avery', last_name: 'Quinn' });
    expect(done.statusCode).toBe(303);
    await twin.outbox.deliverPendingEvents();
    return latest(who);
  };

  it('approve: the hosted page opens, the decision arrives by webhook and the license is on the renter', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    const started = (await start(who, trip.platformId)).json().verification;
    expect(started.status).toBe('created');
    const page = await ctx.app.inject({ url: started.url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Verify your driver’s license');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/<script>/);

    await finish(started.url, 'approve', { first_name: 'Avery', last_name: 'Quinn' });
    // Decided only once the webhook arrives, as with the real provider.
    expect((await user(who)).license_status).toBeNull();
    expect(await twin.outbox.deliverPendingEvents()).toBe(2);

    expect((await latest(who)).status).toBe('approved');
    const u = await user(who);
    expect(u.license_status).toBe('approved');
    expect(u.license_name).toBe('Avery Quinn');
    expect(u.license_number).toMatch(/^D\d{7}$/);
    expect(u.license_expiration > todayIn(ctx.clock.now, 'America/Chicago')).toBe(true);
    expect(u.birthday).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(licenseVerificationStatus(u)).toBe('verified');
    expect(licenseVerificationRequired(u, await tripOf(trip.id))).toBe(false);
    expect(afterVerification).toContain(who.userId);
    expect(await recorded(who, 'id_verified')).toEqual([
      { name: 'id_verified', properties: { verification_id: started.id, provider: 'twin' } },
    ]);
    // The finished page tells the web app's modal it is done.
    const donePage = await ctx.app.inject({ url: started.url });
    expect(donePage.body).toContain('data-twin-outcome="submitted"');
  });

  it('approve — under 25: the document’s birthday brings the underage fee to the renter’s open trip', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, ctx.clock.now, { days: 2 });
    const before = await db()
      .selectFrom('transactions')
      .select('description')
      .where('reservation_id', '=', trip.id)
      .execute();
    expect(before.map((t) => t.description)).not.toContain('Underage User Fee');
    // Onboarding: no trip named, so an unpaid trip does not stop the check.
    expect((await check(who, 'approve_under_25')).status).toBe('approved');
    const fee = await db()
      .selectFrom('transactions')
      .select(['amount', 'status'])
      .where('reservation_id', '=', trip.id)
      .where('description', '=', 'Underage User Fee')
      .execute();
    expect(fee).toHaveLength(1);
    expect(fee[0]!.status).toBe('Pending');
    expect(fee[0]!.amount).toBe(2 * 2_500);
  });

  it.each([
    ['decline', 'declined', 'declined'],
    ['resubmit', 'resubmission_requested', 'resubmission'],
    ['expired_license', 'declined', 'expired'],
    ['under_18', 'declined', 'declined'],
  ])(
    '%s: the check ends %s and the license shows %s (failed, with Try Again)',
    async (outcome, sessionStatus, licenseStatus) => {
      const who = await signInAs(ctx);
      const trip = await paidTrip(who);
      const first = await check(who, outcome, trip.platformId);
      expect(first.status).toBe(sessionStatus);
      expect(first.reason).toBeTruthy();
      const u = await user(who);
      expect(u.license_status).toBe(licenseStatus);
      expect(await recorded(who, 'id_verified')).toEqual([]);
      expect(licenseVerificationStatus(u)).toBe('failed');
      // Try Again opens a new session.
      const again = (await start(who, trip.platformId)).json().verification;
      expect(again.id).not.toBe(first.id);
      expect(again.status).toBe('created');
    },
  );

  it('license expires soon: approved, yet a trip returning after it still needs a license', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who, 10);
    expect((await check(who, 'expires_soon', trip.platformId)).status).toBe('approved');
    const u = await user(who);
    expect(u.license_status).toBe('approved');
    expect(u.license_expiration).toBe(addDays(todayIn(ctx.clock.now, 'America/Chicago'), 3));
    expect(licenseVerificationRequired(u, await tripOf(trip.id))).toBe(true);
  });

  it('cancel: the session is abandoned and the license is left as it was', async () => {
    const who = await signInAs(ctx);
    const v = await check(who, 'cancel');
    expect(v.status).toBe('abandoned');
    expect((await user(who)).license_status).toBeNull();
    const page = await ctx.app.inject({ url: v.url });
    expect(page.body).toContain('data-twin-outcome="canceled"');
  });

  it('an unfinished session is handed out again; a finished one cannot be finished twice', async () => {
    const who = await signInAs(ctx);
    const a = (await start(who)).json().verification;
    const b = (await start(who)).json().verification;
    expect(b.id).toBe(a.id);
    await finish(a.url, 'approve');
    const twice = await finish(a.url, 'decline');
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('already finished');
  });

  it('refuses another renter’s trip (404), an unpaid trip (409), and an unknown hosted session (404)', async () => {
    const owner = await signInAs(ctx);
    const other = await signInAs(ctx);
    const trip = await paidTrip(owner);
    const foreign = await start(other, trip.platformId);
    expect(foreign.statusCode).toBe(404);
    const unpaid = await startedTrip(db(), owner.userId, ctx.clock.now);
    const refused = await start(owner, unpaid.platformId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Pay for this trip before verifying your license.');
    expect((await ctx.app.inject({ url: '/twin/identity/6f1c1f8e-3c55-4d0e-9a59-2f1f4b1f0000' })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/v1/verifications/license', payload: {} })).statusCode,
    ).toBe(401);
  });

  describe('the signed webhook', () => {
    const post = (body: string, signature: string | undefined, provider = 'twin') =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/identity/${provider}`,
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-hmac-signature': signature } : {}) },
        payload: body,
      });
    /** The twin's undelivered webhooks for this session, in the order it wrote them. */
    const pending = async (sessionId: string) =>
      (
        await db()
          .selectFrom('twin_events')
          .select(['id', 'type', 'payload'])
          .where('twin', '=', 'identity')
          .where('delivered_at', 'is', null)
          .orderBy('seq')
          .execute()
      ).filter((e) => JSON.stringify(e.payload).includes(sessionId));
    const started = async (who: SignedIn) => {
      const v = (await start(who)).json().verification;
      const row = await db()
        .selectFrom('identity_verifications')
        .select('provider_session_id')
        .where('id', '=', v.id)
        .executeTakeFirstOrThrow();
      return { ...v, sessionId: row.provider_session_id };
    };
    const mark = (id: string) =>
      db().updateTable('twin_events').set({ delivered_at: ctx.clock.now }).where('id', '=', id).execute();

    it('a bad or missing signature is refused and changes nothing', async () => {
      const who = await signInAs(ctx);
      const v = await started(who);
      await finish(v.url, 'approve');
      const [, decision] = await pending(v.sessionId);
      const body = JSON.stringify(decision!.payload);
      expect((await post(body, undefined)).statusCode).toBe(400);
      expect((await post(body, sign('some other secret', body))).statusCode).toBe(400);
      expect((await post(body.replace('approved', 'declined'), sign(SECRET, body))).statusCode).toBe(400);
      expect((await post(body, sign(SECRET, body), 'veriff')).statusCode).toBe(404);
      expect((await user(who)).license_status).toBeNull();
      expect((await latest(who)).status).toBe('created');
      await twin.outbox.deliverPendingEvents();
    });

    it('a replayed decision is applied once; events out of order never move a check backwards', async () => {
      const who = await signInAs(ctx);
      const v = await started(who);
      await finish(v.url, 'approve');
      const [submitted, decision] = await pending(v.sessionId);
      const decisionBody = JSON.stringify(decision!.payload);
      // The decision first, then the earlier 'submitted' event.
      const first = await post(decisionBody, sign(SECRET, decisionBody));
      expect(first.json()).toEqual({ received: true });
      const replay = await post(decisionBody, sign(SECRET, decisionBody));
      expect(replay.json()).toEqual({ received: true, duplicate: true });
      const late = JSON.stringify(submitted!.payload);
      expect((await post(late, sign(SECRET, late))).statusCode).toBe(200);
      expect((await latest(who)).status).toBe('approved');
      expect(await recorded(who, 'id_verified')).toHaveLength(1);
      expect(
        await db()
          .selectFrom('webhook_events')
          .select('event_id')
          .where('provider', '=', 'identity-twin')
          .where('object_id', '=', v.sessionId)
          .execute(),
      ).toHaveLength(2);
      await mark(submitted!.id);
      await mark(decision!.id);
    });

    it('an older session’s decision arriving late does not undo a newer one', async () => {
      const who = await signInAs(ctx);
      const older = await started(who);
      await finish(older.url, 'approve');
      // Its 'submitted' event arrives; its decision is held back by the provider's retries.
      const [submitted, decision] = await pending(older.sessionId);
      await mark(decision!.id);
      await twin.outbox.deliverPendingEvents();
      expect(submitted).toBeDefined();
      const olderEvents = [decision!];
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 60_000);
      try {
        expect((await check(who, 'decline')).status).toBe('declined');
        for (const e of olderEvents) {
          const body = JSON.stringify(e.payload);
          expect((await post(body, sign(SECRET, body))).statusCode).toBe(200);
        }
        const rows = await db()
          .selectFrom('identity_verifications')
          .select('status')
          .where('user_id', '=', who.userId)
          .orderBy('created_at')
          .execute();
        expect(rows.map((r) => r.status)).toEqual(['approved', 'declined']);
        expect((await user(who)).license_status).toBe('declined');
        expect(await recorded(who, 'id_verified')).toEqual([]);
      } finally {
        ctx.clock.now = new Date(ctx.clock.now.getTime() - 60_000);
      }
    });
  });
});
