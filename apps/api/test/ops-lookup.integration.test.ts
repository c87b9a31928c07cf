import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit, recordAudit } from '../src/features/audit/repository.ts';
import { carAtNewLot } from './factories.ts';
import { carAt, renter, tripOf } from './day-factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signedInStaff } from './staff.ts';

/** Finding a renter's trip (decision 086): by each key, within the staff member's locations, audited. */
describe.each(engines())('the lookup and a trip’s timeline on %s', (engine) => {
  let ctx: TestContext;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  let car: { id: number; vin: string };
  let trip: { id: string; platformId: string };
  let otherTrip: { id: string; platformId: string };
  let ana: string;
  let agent: { id: string; cookie: string };
  let elsewhere: { id: string; cookie: string };
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    const db = ctx.handle.db;
    const now = ctx.clock.now;
    lot = await carAtNewLot(db, null);
    other = await carAtNewLot(db, null);
    car = await carAt(db, lot.locationId);
    ana = await renter(db, {
      first: 'Anaïs',
      last: 'Lookupton',
      phone: '+16155550177',
      email: 'anais.lookupton@example.com',
      verified: true,
    });
    trip = await tripOf(db, car.vin, ana, '2026-11-28T16:00:00Z', '2026-11-30T16:00:00Z', 'Pending');
    otherTrip = await tripOf(db, other.vin, ana, '2026-12-05T16:00:00Z', '2026-12-06T16:00:00Z', 'Pending');
    agent = await signedInStaff(db, { role: 'agent', locationIds: [String(lot.locationId)], now });
    elsewhere = await signedInStaff(db, { role: 'manager', locationIds: [String(other.locationId)], now });
  });
  afterAll(() => ctx?.close());

  const lookup = (cookie: string | undefined, q: string) =>
    ctx.app.inject({ url: '/api/ops/v1/lookup', query: { q }, headers: cookie ? { cookie } : {} });
  const found = async (q: string, cookie = agent.cookie) => {
    const res = await lookup(cookie, q);
    expect(res.statusCode, q).toBe(200);
    return res.json().items.map((i: { reference: string; matchedBy: string }) => `${i.reference}:${i.matchedBy}`);
  };

  it('finds the trip by its id, its reference, the renter’s phone in any format, email, name, and the VIN or its end', async () => {
    const ref = trip.platformId;
    expect(await found(trip.id)).toEqual([`${ref}:trip`]);
    expect(await found(ref.toLowerCase())).toEqual([`${ref}:trip`]);
    for (const phone of ['(615) 555-0177', '615.555.0177', '+1 615 555 0177', '6155550177'])
      expect(await found(phone)).toEqual([`${ref}:phone`]);
    expect(await found('ANAIS.LOOKUPTON@example.com')).toEqual([`${ref}:email`]);
    expect(await found('anais.look')).toEqual([`${ref}:email`]);
    expect(await found('lookupton')).toEqual([`${ref}:name`]);
    expect(await found('Anaïs Lookupton')).toEqual([`${ref}:name`]);
    expect(await found(car.vin)).toEqual([`${ref}:vin`]);
    expect(await found(car.vin.slice(-6))).toEqual([`${ref}:vin`]);
    expect(await found(car.vin.slice(0, 11))).toContain(`${ref}:vin`);
    expect(await found(car.vin.slice(9, 15))).toContain(`${ref}:vin`);
    expect(await found('nobody-by-that-name')).toEqual([]);
  });

  it('keeps another city’s trips out of the lookup and its timeline a 404, audited', async () => {
    expect(await found('(615) 555-0177', elsewhere.cookie)).toEqual([`${otherTrip.platformId}:phone`]);
    const res = await ctx.app.inject({
      url: `/api/ops/v1/trips/${trip.id}/timeline`,
      headers: { cookie: elsewhere.cookie },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`No trip ${trip.id} in your locations.`);
    const [attempt] = (await listAudit(ctx.handle.db, { limit: 10, staffId: elsewhere.id })).filter(
      (r) => r.outcome === 'failure',
    );
    expect(attempt).toMatchObject({ action: 'trips.read', target_type: 'trip', target_id: trip.id });
  });

  it('audits every lookup as a read of renters’ details, and refuses one without a staff session or with a bad query', async () => {
    const viewer = await signedInStaff(ctx.handle.db, {
      role: 'viewer',
      locationIds: [String(lot.locationId)],
      now: ctx.clock.now,
    });
    expect(await found('lookupton', viewer.cookie)).toHaveLength(1);
    const [read] = await listAudit(ctx.handle.db, { limit: 5, staffId: viewer.id });
    expect(read).toMatchObject({
      action: 'trips.read',
      outcome: 'success',
      target_type: 'lookup',
      target_id: 'lookupton',
    });
    expect((await lookup(undefined, 'lookupton')).statusCode).toBe(401);
    const short = await lookup(viewer.cookie, 'a');
    expect(short.statusCode).toBe(400);
    expect(short.json().field).toBe('q');
  });

  it('shows a trip’s timeline in order, from booking to staff actions, with a link to the renter’s view', async () => {
    const db = ctx.handle.db;
    await db
      .updateTable('reservations')
      .set({ created_at: at('2026-11-20T10:00:00Z'), confirmed_at: at('2026-11-20T10:05:00Z') })
      .where('id', '=', trip.id)
      .execute();
    await db
      .insertInto('payments')
      .values({
        reservation_id: trip.id,
        user_id: ana,
        kind: 'CHARGE',
        provider: 'sandbox',
        provider_intent_id: 'pi_test_1',
        client_secret: 'pi_test_1_secret',
        amount: 21_645,
        capture_method: 'automatic',
        status: 'succeeded',
        payment_method_id: 'pm_1',
        card_last_4: '4242',
        last_error: null,
        created_at: at('2026-11-20T10:04:00Z'),
        updated_at: at('2026-11-20T10:04:00Z'),
      })
      .execute();
    await db
      .insertInto('trip_messages')
      .values({
        dedupe_key: `confirmed-${trip.id}`,
        channel: 'sms',
        kind: 'booking_confirmed',
        purpose: 'transactional',
        reservation_id: trip.id,
        user_id: ana,
        to_address: '+16155550177',
        subject: null,
        body: 'Your trip is booked.',
        created_at: at('2026-11-20T10:06:00Z'),
        send_after: at('2026-11-20T10:06:00Z'),
        claimed_until: null,
        sent_at: at('2026-11-20T10:07:00Z'),
        last_error: null,
      })
      .execute();
    await db
      .updateTable('insurance_verifications')
      .set({ created_at: at('2026-11-20T10:03:00Z') })
      .where('user_id', '=', ana)
      .execute();
    await recordAudit(db, {
      at: at('2026-11-21T09:00:00Z'),
      staff: { id: agent.id, role: 'agent' },
      action: 'verifications.review',
      target: { type: 'trip', id: trip.id },
      locationId: String(lot.locationId),
      sourceAddress: '127.0.0.1',
      outcome: 'success',
    });
    const res = await ctx.app.inject({
      url: `/api/ops/v1/trips/${trip.platformId}/timeline`,
      headers: { cookie: agent.cookie },
    });
    expect(res.statusCode).toBe(200);
    const { trip: t, events } = res.json();
    expect(t).toMatchObject({ tripId: trip.id, reference: trip.platformId, renterViewUrl: `/trip/${trip.platformId}` });
    expect(t.renter).toMatchObject({ name: 'Anaïs Lookupton', phone: '+16155550177' });
    expect(events.map((e: { kind: string; title: string }) => `${e.kind}: ${e.title}`)).toEqual([
      'booking: Booked',
      'verification: Insurance ACTIVE',
      'payment: Charge of $216.45',
      'booking: Paid and confirmed',
      'message: Text: booking_confirmed',
      'staff: Review a renter’s verification',
    ]);
    const times = events.map((e: { at: string }) => e.at);
    expect([...times].sort()).toEqual(times);
    // The timeline read itself is audited, and is not listed as a staff action on the trip.
    const [read] = await listAudit(db, { limit: 3, staffId: agent.id });
    expect(read).toMatchObject({ action: 'trips.read', target_type: 'trip', target_id: trip.id, outcome: 'success' });
  });
});
