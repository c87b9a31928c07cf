import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DO_NOT_RENT_MESSAGE } from '@ampere/domain/renter-review';
import { listAudit } from '../src/features/audit/repository.ts';
import { sendDueMessages } from '../src/features/messages/deliver.ts';
import { outstanding } from '../src/features/trips/keys.ts';
import { carAt, tripOf } from './day-factories.ts';
import { carAtNewLot } from './factories.ts';
import { TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { signedInStaff } from './staff.ts';

const HOUR = 3_600_000;

/** The console's renters (decisions 094 and 095): the review queue, the do-not-rent list, the renter page and a text. */
describe.each(engines())('the console’s renters on %s', (engine) => {
  let ctx: TestContext;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  let agent: { id: string; cookie: string };
  let manager: { id: string; cookie: string };
  let viewer: { id: string; cookie: string };
  let elsewhere: { id: string; cookie: string };
  let phones = 0;
  const db = () => ctx.handle.db;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    lot = await carAtNewLot(db(), null);
    other = await carAtNewLot(db(), null);
    const now = ctx.clock.now;
    const here = [String(lot.locationId)];
    agent = await signedInStaff(db(), { role: 'agent', locationIds: here, now });
    manager = await signedInStaff(db(), { role: 'manager', locationIds: here, now });
    viewer = await signedInStaff(db(), { role: 'viewer', locationIds: here, now });
    elsewhere = await signedInStaff(db(), { role: 'manager', locationIds: [String(other.locationId)], now });
  });
  afterAll(() => ctx?.close());
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
  });

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/ops/v1${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A signed-in renter with a name and a Nashville number (texts go to US numbers), and a paid trip at the lot. */
  async function renterWithTrip(): Promise<SignedIn & { tripId: string; reference: string; phone: string }> {
    const phone = `+1615555${3_000 + ++phones}`;
    const who = await signInAs(ctx, phone);
    await db()
      .updateTable('users')
      .set({ first_name: 'Rosa', last_name: `Review${phones}` })
      .where('id', '=', who.userId)
      .execute();
    const car = await carAt(db(), lot.locationId);
    const trip = await tripOf(db(), car.vin, who.userId, '2026-12-01T16:00:00Z', '2026-12-04T16:00:00Z', 'Pending');
    return { ...who, tripId: trip.id, reference: trip.platformId, phone };
  }

  /** The provider's decision on a license check, as its webhook leaves it. */
  async function licenseCheck(userId: string, status: 'declined' | 'resubmission_requested', reason: string) {
    const row = await db()
      .insertInto('identity_verifications')
      .values({
        user_id: userId,
        reservation_id: null,
        provider: 'twin',
        provider_session_id: `sess-${randomBytes(6).toString('hex')}`,
        status,
        url: 'https://verify.example/session',
        reason,
        decided_at: new Date(TEST_NOW.getTime() - HOUR),
        created_at: new Date(TEST_NOW.getTime() - 2 * HOUR),
        updated_at: new Date(TEST_NOW.getTime() - HOUR),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('users')
      .set({ license_status: status === 'declined' ? 'declined' : 'resubmission' })
      .where('id', '=', userId)
      .execute();
    return row.id;
  }

  async function brokenInsurance(userId: string, status: 'ACCOUNT_DISABLED' | 'MFA_EXPIRED') {
    const row = await db()
      .insertInto('insurance_verifications')
      .values({ user_id: userId, reservation_id: null, status, carrier: 'Progressive', policy_number: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** What stands between the trip and its key, by the key's own rule. */
  async function missing(tripId: string) {
    const trip = await db()
      .selectFrom('reservations')
      .select(['id', 'user_id', 'status', 'pickup_at', 'return_at', 'timezone'])
      .where('id', '=', tripId)
      .executeTakeFirstOrThrow();
    return outstanding(db(), trip);
  }

  const queue = async (cookie: string) => {
    const res = await call(cookie, 'GET', '/renters/review-queue');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as { subject: string; checkId: string; why: string; renter: { id: string } }[];
  };
  const review = (cookie: string, subject: string, checkId: string, body: object) =>
    call(cookie, 'POST', `/renters/checks/${subject}/${checkId}/review`, body);

  it('queues failed and flagged checks of renters with a trip at the staff member’s lots, and nobody else’s', async () => {
    const ana = await renterWithTrip();
    const declined = await licenseCheck(ana.userId, 'declined', 'Document expired');
    const disabled = await brokenInsurance(ana.userId, 'ACCOUNT_DISABLED');
    const ben = await renterWithTrip();
    const flagged = await licenseCheck(ben.userId, 'resubmission_requested', 'Photo is blurry');

    const items = await queue(agent.cookie);
    expect(items.filter((i) => i.renter.id === ana.userId || i.renter.id === ben.userId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: 'license', checkId: declined, why: 'failed' }),
        expect.objectContaining({ subject: 'insurance', checkId: disabled, why: 'failed' }),
        expect.objectContaining({ subject: 'license', checkId: flagged, why: 'flagged' }),
      ]),
    );
    const theirs = (await queue(elsewhere.cookie)).filter((i) => [ana.userId, ben.userId].includes(i.renter.id));
    expect(theirs).toEqual([]);

    const refused = await call(viewer.cookie, 'GET', '/renters/review-queue');
    expect(refused.statusCode).toBe(403);
    const [attempt] = await listAudit(db(), { limit: 1, staffId: viewer.id });
    expect(attempt).toMatchObject({ action: 'verifications.review', outcome: 'failure' });
  });

  it('lets a failed check through only by an override with a reason, audited, and the key’s gates follow', async () => {
    const ana = await renterWithTrip();
    const declined = await licenseCheck(ana.userId, 'declined', 'Document expired');
    const disabled = await brokenInsurance(ana.userId, 'ACCOUNT_DISABLED');
    expect(await missing(ana.tripId)).toEqual(expect.arrayContaining(['license', 'insurance']));

    const approve = await review(agent.cookie, 'license', declined, { decision: 'approve' });
    expect(approve.statusCode).toBe(422);
    expect(approve.json()).toMatchObject({ field: 'decision' });
    const bare = await review(agent.cookie, 'license', declined, { decision: 'override', reason: ' ' });
    expect(bare.statusCode).toBe(422);
    expect(bare.json()).toMatchObject({ field: 'reason', message: 'A reason is required.' });
    const badDecision = await review(agent.cookie, 'license', declined, { decision: 'shrug' });
    expect(badDecision.statusCode).toBe(400);
    expect(badDecision.json().field).toBe('decision');

    const reason = 'Renewed license seen at the desk, valid until 2031';
    const ok = await review(agent.cookie, 'license', declined, { decision: 'override', reason });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ decision: 'override', reason, providerStatus: 'declined' });
    const [record] = await listAudit(db(), { limit: 1, staffId: agent.id });
    expect(record).toMatchObject({
      action: 'verifications.review',
      outcome: 'success',
      target_type: 'license_check',
      target_id: declined,
    });
    expect(JSON.stringify(record!.after)).toContain(reason);

    // The provider's word stays; the gates read the override beside it.
    const user = await ctx.app.inject({ url: '/api/v1/users', headers: ana.headers });
    expect(user.json().user).toMatchObject({ license_status: 'declined', license_override: true });
    expect(await missing(ana.tripId)).not.toContain('license');
    expect(await missing(ana.tripId)).toContain('insurance');

    const again = await review(manager.cookie, 'license', declined, { decision: 'uphold', reason: 'Changed my mind' });
    expect(again.statusCode).toBe(409);

    expect(
      (
        await review(agent.cookie, 'insurance', disabled, {
          decision: 'override',
          reason: 'Policy card checked by phone with the insurer',
        })
      ).statusCode,
    ).toBe(200);
    expect(await missing(ana.tripId)).not.toContain('insurance');
    const trip = await ctx.app.inject({ url: `/api/v1/reservations/${ana.reference}`, headers: ana.headers });
    expect(trip.json().reservation.insurance_verifications).toEqual([expect.objectContaining({ status: 'WAIVED' })]);
    expect((await queue(agent.cookie)).filter((i) => i.renter.id === ana.userId)).toEqual([]);

    // A newer check from the provider is the renter's own again.
    await db()
      .insertInto('identity_verifications')
      .values({
        user_id: ana.userId,
        reservation_id: null,
        provider: 'twin',
        provider_session_id: `sess-${randomBytes(6).toString('hex')}`,
        status: 'declined',
        url: 'https://verify.example/session',
        reason: 'Face does not match',
        decided_at: TEST_NOW,
        created_at: TEST_NOW,
        updated_at: TEST_NOW,
      })
      .execute();
    expect(await missing(ana.tripId)).toContain('license');
  });

  it('takes a renter let through off the today board’s “not verified”', async () => {
    const ivy = await signInAs(ctx, `+1615555${3_000 + ++phones}`);
    const car = await carAt(db(), lot.locationId);
    // Picking up tomorrow morning: within the board's "soon" window.
    const trip = await tripOf(db(), car.vin, ivy.userId, '2026-11-23T14:00:00Z', '2026-11-25T14:00:00Z', 'Pending');
    const declined = await licenseCheck(ivy.userId, 'declined', 'Document expired');
    const disabled = await brokenInsurance(ivy.userId, 'ACCOUNT_DISABLED');
    const problems = async () => {
      const board = await call(agent.cookie, 'GET', `/today?locationId=${lot.locationId}`);
      expect(board.statusCode, board.body).toBe(200);
      const found = (board.json().needsAttention as { tripId: string; problems: string[] }[]).find(
        (t) => t.tripId === trip.id,
      );
      return found?.problems ?? [];
    };
    expect(await problems()).toContain('unverified');
    const why = 'Seen in person at the desk';
    expect((await review(agent.cookie, 'license', declined, { decision: 'override', reason: why })).statusCode).toBe(
      200,
    );
    expect(await problems()).toContain('unverified');
    expect((await review(agent.cookie, 'insurance', disabled, { decision: 'override', reason: why })).statusCode).toBe(
      200,
    );
    expect(await problems()).not.toContain('unverified');
  });

  it('approves a flagged check without a reason, and an upheld check keeps the renter verifying', async () => {
    const ben = await renterWithTrip();
    const flagged = await licenseCheck(ben.userId, 'resubmission_requested', 'Photo is blurry');
    expect((await review(agent.cookie, 'license', flagged, { decision: 'approve' })).statusCode).toBe(200);
    expect(await missing(ben.tripId)).not.toContain('license');

    const cy = await renterWithTrip();
    const mfa = await brokenInsurance(cy.userId, 'MFA_EXPIRED');
    const upheld = await review(agent.cookie, 'insurance', mfa, {
      decision: 'uphold',
      reason: 'Asked the renter to reconnect',
    });
    expect(upheld.statusCode).toBe(200);
    expect(await missing(cy.tripId)).toContain('insurance');
    expect((await queue(agent.cookie)).filter((i) => i.renter.id === cy.userId)).toEqual([]);
  });

  it('answers 404 for another city’s renter and check, audited as a failure', async () => {
    const dee = await renterWithTrip();
    const declined = await licenseCheck(dee.userId, 'declined', 'Document expired');
    const res = await review(elsewhere.cookie, 'license', declined, { decision: 'override', reason: 'Looks fine' });
    expect(res.statusCode).toBe(404);
    expect((await call(elsewhere.cookie, 'GET', `/renters/${dee.userId}`)).statusCode).toBe(404);
    expect(
      (
        await call(elsewhere.cookie, 'POST', `/renters/${dee.userId}/do-not-rent`, {
          reason: 'Chargebacks on two trips',
          until: '2027-01-01T00:00:00Z',
        })
      ).statusCode,
    ).toBe(404);
    const failures = (await listAudit(db(), { limit: 10, staffId: elsewhere.id })).filter(
      (r) => r.outcome === 'failure',
    );
    expect(failures.map((f) => f.action)).toEqual(
      expect.arrayContaining(['verifications.review', 'trips.read', 'donotrent.edit']),
    );
  });

  describe('the do-not-rent list', () => {
    const bookBody = (vin: string) => ({
      vehicleVin: vin,
      pickupDate: '2026-12-10',
      pickupTime: '10:00',
      returnDate: '2026-12-13',
      returnTime: '10:00',
      addonIds: [],
      vehicleTimezone: lot.timezone,
    });
    const book = async (who: SignedIn) => {
      const car = await carAt(db(), lot.locationId);
      return ctx.app.inject({
        method: 'POST',
        url: '/api/v1/reservations',
        headers: who.headers,
        payload: bookBody(car.vin),
      });
    };
    const list = (cookie: string, renterId: string, body: object) =>
      call(cookie, 'POST', `/renters/${renterId}/do-not-rent`, body);

    it('is for managers, and needs a reason and an expiry, each named when missing', async () => {
      const eve = await renterWithTrip();
      const until = new Date(TEST_NOW.getTime() + 30 * 86_400_000).toISOString();
      const byAgent = await list(agent.cookie, eve.userId, { reason: 'Chargebacks on two trips', until });
      expect(byAgent.statusCode).toBe(403);
      const [attempt] = await listAudit(db(), { limit: 1, staffId: agent.id });
      expect(attempt).toMatchObject({ action: 'donotrent.edit', outcome: 'failure', target_id: eve.userId });

      const noReason = await list(manager.cookie, eve.userId, { until });
      expect(noReason.statusCode).toBe(422);
      expect(noReason.json().field).toBe('reason');
      const noExpiry = await list(manager.cookie, eve.userId, { reason: 'Chargebacks on two trips' });
      expect(noExpiry.statusCode).toBe(422);
      expect(noExpiry.json()).toMatchObject({ field: 'until', message: 'An expiry date is required.' });
      const past = await list(manager.cookie, eve.userId, {
        reason: 'Chargebacks on two trips',
        until: TEST_NOW.toISOString(),
      });
      expect(past.json().field).toBe('until');
    });

    it('refuses a listed renter’s booking with the courteous message, and books them again after the expiry', async () => {
      const fay = await renterWithTrip();
      const until = new Date(TEST_NOW.getTime() + 2 * HOUR).toISOString();
      const listed = await list(manager.cookie, fay.userId, { reason: 'Abandoned a car at the airport', until });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toMatchObject({ live: true, reason: 'Abandoned a car at the airport' });
      expect((await list(manager.cookie, fay.userId, { reason: 'Twice is too many', until })).statusCode).toBe(409);

      const refused = await book(fay);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(DO_NOT_RENT_MESSAGE);
      expect(refused.body).not.toContain('Abandoned');
      const theirTrips = await db().selectFrom('reservations').select('id').where('user_id', '=', fay.userId).execute();
      expect(theirTrips).toHaveLength(1);

      const shown = await call(viewer.cookie, 'GET', '/renters/do-not-rent');
      expect(shown.json().items).toEqual(
        expect.arrayContaining([expect.objectContaining({ renter: expect.objectContaining({ id: fay.userId }) })]),
      );

      ctx.clock.now = new Date(TEST_NOW.getTime() + 2 * HOUR);
      const after = await book(fay);
      expect(after.statusCode, after.body).toBe(201);
      // Two hours on, the morning's console sessions have ended: a new shift reads the page.
      const later = await signedInStaff(db(), {
        role: 'viewer',
        locationIds: [String(lot.locationId)],
        now: ctx.clock.now,
      });
      const page = await call(later.cookie, 'GET', `/renters/${fay.userId}`);
      expect(page.json().doNotRent).toMatchObject({
        listed: false,
        history: [expect.objectContaining({ live: false })],
      });
    });

    it('books a renter again once a manager lifts them off the list, audited', async () => {
      const gus = await renterWithTrip();
      const until = new Date(TEST_NOW.getTime() + 90 * 86_400_000).toISOString();
      expect((await list(manager.cookie, gus.userId, { reason: 'Smoked in two cars', until })).statusCode).toBe(200);
      expect((await book(gus)).statusCode).toBe(422);
      const lifted = await call(manager.cookie, 'POST', `/renters/${gus.userId}/do-not-rent/lift`, {
        reason: 'Paid the cleaning fees',
      });
      expect(lifted.statusCode, lifted.body).toBe(200);
      expect(lifted.json()).toMatchObject({ live: false, liftReason: 'Paid the cleaning fees' });
      const [record] = await listAudit(db(), { limit: 1, staffId: manager.id });
      expect(record).toMatchObject({ action: 'donotrent.edit', outcome: 'success', target_id: gus.userId });
      expect((await book(gus)).statusCode).toBe(201);
      expect((await call(manager.cookie, 'POST', `/renters/${gus.userId}/do-not-rent/lift`, {})).statusCode).toBe(404);
    });
  });

  it('sends a one-off text through the renters’ sender, records it in their messages and audits its words', async () => {
    const hal = await renterWithTrip();
    const text = 'Hi Rosa, your car is parked in bay 4 today. Reply here if you need anything.';
    const tooLong = await call(agent.cookie, 'POST', `/renters/${hal.userId}/texts`, { text: 'x'.repeat(321) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().field).toBe('text');
    expect((await call(viewer.cookie, 'POST', `/renters/${hal.userId}/texts`, { text })).statusCode).toBe(403);

    const sent = await call(agent.cookie, 'POST', `/renters/${hal.userId}/texts`, { text });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ tripId: hal.tripId, to: hal.phone });
    await sendDueMessages({ db: db(), clock: () => ctx.clock.now, sms: ctx.app.sms, email: ctx.app.email });
    const outbox = await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(hal.phone)}` });
    expect(outbox.json().messages.map((m: { body: string }) => m.body)).toContain(text);

    const page = await call(agent.cookie, 'GET', `/renters/${hal.userId}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().messages).toEqual([
      expect.objectContaining({ kind: 'staff_text', body: text, status: 'sent', tripReference: hal.reference }),
    ]);
    expect(page.json().trips).toEqual([expect.objectContaining({ reference: hal.reference })]);
    const [record] = (await listAudit(db(), { limit: 5, staffId: agent.id })).filter(
      (r) => r.action === 'renters.message' && r.outcome === 'success',
    );
    expect(JSON.stringify(record!.after)).toContain(text);
  });
});
