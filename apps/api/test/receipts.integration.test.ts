import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTotal } from '@ampere/domain/money';
import { pdfTextLines } from '../src/pdf/text.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip } from './factories.ts';
import { type SandboxContext, createSandboxContext, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const RECEIPTS = '/api/admin/v1/transactions/receipts';

describe.each(engines())('receipts and receipt links on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, who?: SignedIn) =>
    ctx.app.inject({ method, url, headers: who?.headers ?? {} });
  const share = (who: SignedIn, platformId: string) =>
    inject('POST', `/api/v1/reservations/${platformId}/receipt-token`, who);
  const revoke = (who: SignedIn, platformId: string) =>
    inject('DELETE', `/api/v1/reservations/${platformId}/receipt-token`, who);
  const byToken = (token: string, who?: SignedIn) =>
    inject('GET', `${RECEIPTS}?token=${encodeURIComponent(token)}`, who);

  /** A renter with a name, email, license and a paid trip: the private details a receipt must never show. */
  async function renterWithPaidTrip(): Promise<{ who: SignedIn; trip: StartedTrip; phone: string }> {
    const who = await signInAs(ctx);
    await db()
      .updateTable('users')
      .set({
        first_name: 'Priya',
        last_name: 'Quartermaine',
        email: 'priya.q@example.com',
        license_number: 'D98765432',
        license_name: 'PRIYA QUARTERMAINE',
      })
      .where('id', '=', who.userId)
      .execute();
    const { phone } = await db()
      .selectFrom('users')
      .select('phone')
      .where('id', '=', who.userId)
      .executeTakeFirstOrThrow();
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    return { who, trip, phone };
  }

  /** The car as it went out, as the trip-status job records it. */
  async function rideOut(trip: StartedTrip, reading: { mileage: number; battery: number; at: Date }) {
    const r = await db()
      .selectFrom('reservations as r')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select(['v.id', 'v.vin'])
      .where('r.id', '=', trip.id)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('rides')
      .values({
        reservation_id: trip.id,
        vehicle_id: r.id,
        vin: r.vin,
        mileage_out: reading.mileage,
        battery_out: reading.battery,
        vehicle_pickup_at: reading.at,
        created_at: reading.at,
      })
      .execute();
    await db()
      .updateTable('reservations')
      .set({ status: 'On Rent', on_rent_at: reading.at })
      .where('id', '=', trip.id)
      .execute();
  }

  it('the owner makes a link; anyone opens the receipt with it, without a session; only the token’s hash is stored', async () => {
    const { who, trip } = await renterWithPaidTrip();
    const made = await share(who, trip.platformId);
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json();
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`/receipt?token=${link.token}`);
    expect(made.headers['cache-control']).toBe('private, no-store');
    const stored = await db()
      .selectFrom('receipt_tokens')
      .selectAll()
      .where('token_hash', '=', createHash('sha256').update(link.token).digest('hex'))
      .execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(link.token);

    const res = await byToken(link.token);
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json();
    expect(receipt.platform_id).toBe(trip.platformId);
    expect(receipt.viewer_is_owner).toBe(false);
    expect(receipt.share_link).toBeNull();
    expect(receipt.total).toBe(trip.due);
    expect(receipt.vehicle.image_url).toMatch(/\/moneyshot\.svg$/);
    // What the receipt's cards are made of: the payment, and the deposit hold now that it is placed.
    expect(
      receipt.transactions.map((t: { category: string; status: string }) => `${t.category} ${t.status}`).sort(),
    ).toEqual(['Deposit Pending', 'Rack Successful', 'Tax Successful']);
    expect(receipt.transactions.find((t: { category: string }) => t.category === 'Deposit').card_last_4).toBe('4242');
    // Before pickup there is no ride: the token page shows 'Unable to load receipt information…', and
    // its PDF refuses with the same words.
    expect(receipt.rides).toEqual([]);
    const pdf = await inject('GET', `${RECEIPTS}/pdf?token=${link.token}`);
    expect(pdf.statusCode).toBe(409);
    expect(pdf.headers['content-type']).toMatch(/^application\/json/);
    expect(pdf.json()).toMatchObject({
      field: 'token',
      message: 'Unable to load receipt information. Please try again later.',
    });

    // The owner's own view says a link is live (never the link itself).
    const own = (await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt`, who)).json();
    expect(own.share_link.created_at).toBe(TEST_NOW.toISOString());
    expect(JSON.stringify(own)).not.toContain(link.token);
    expect((await byToken(link.token, who)).json().viewer_is_owner).toBe(true);
  });

  it('shows nothing about the renter: no phone, email, name, license or account ids', async () => {
    const { who, trip, phone } = await renterWithPaidTrip();
    const { token } = (await share(who, trip.platformId)).json();
    const body = (await byToken(token)).body;
    for (const secret of [
      phone,
      phone.slice(2),
      'priya.q@example.com',
      'Priya',
      'Quartermaine',
      'D98765432',
      who.userId,
      who.token,
    ])
      expect(body).not.toContain(secret);
    const receipt = JSON.parse(body);
    expect(Object.keys(receipt).sort()).toEqual([
      'damage_waiver',
      'discount_code',
      'payments',
      'pickup_at',
      'pickup_location',
      'platform_id',
      'return_at',
      'rides',
      'share_link',
      'status',
      'timezone',
      'total',
      'transactions',
      'vehicle',
      'viewer_is_owner',
    ]);
    expect(Object.keys(receipt.pickup_location).sort()).toEqual(['city', 'name', 'state', 'timezone']);
    expect(receipt.transactions.every((t: Record<string, unknown>) => !('stripe_payment_intent_id' in t))).toBe(true);
    // Payments are numbered on the receipt, never named by the provider's ids.
    expect(body).not.toMatch(/"pi_/);
    expect(receipt.payments.map((p: { ref: number }) => p.ref)).toEqual([1, 2]);
  });

  it('with a ride: mileage and battery out, the ride’s own pickup, and On Rent for what is still to come', async () => {
    const { who, trip } = await renterWithPaidTrip();
    const out = new Date(TEST_NOW.getTime() + 7 * 86_400_000 + 4 * 60_000);
    await rideOut(trip, { mileage: 24_970.4, battery: 0.8, at: out });
    const { token } = (await share(who, trip.platformId)).json();
    const receipt = (await byToken(token)).json();
    expect(receipt.status).toBe('On Rent');
    expect(receipt.rides).toEqual([
      expect.objectContaining({
        mileage_out: 24_970.4,
        battery_out: 0.8,
        mileage_in: null,
        battery_in: null,
        vehicle_pickup_at: out.toISOString(),
        vehicle_return_at: null,
      }),
    ]);
    const text = pdfTextLines((await inject('GET', `${RECEIPTS}/pdf?token=${token}`)).rawPayload).join('\n');
    expect(text).toContain('24,970 mi');
    expect(text).toContain('80%');
    expect(text).toContain('On Rent');
  });

  it('another renter can neither make, revoke nor read the trip’s receipt: the same 404 as a trip that does not exist', async () => {
    const { who, trip } = await renterWithPaidTrip();
    const { token } = (await share(who, trip.platformId)).json();
    const other = await signInAs(ctx);
    for (const res of [
      await share(other, trip.platformId),
      await revoke(other, trip.platformId),
      await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt`, other),
      await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt/pdf`, other),
      await share(other, 'AMP-0000-0000'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No trip with that id.');
    }
    // The owner's link still works: the other renter's attempt to revoke it changed nothing.
    expect((await byToken(token)).statusCode).toBe(200);
    expect((await byToken(token, other)).json().viewer_is_owner).toBe(false);
    // Signed out, the owner's calls ask for a session.
    expect((await share({ userId: '', token: '', headers: {} }, trip.platformId)).statusCode).toBe(401);
  });

  it('revoking makes the link answer 404; a new link replaces the old one, which stays dead', async () => {
    const { who, trip } = await renterWithPaidTrip();
    const first = (await share(who, trip.platformId)).json().token;
    const revoked = await revoke(who, trip.platformId);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ share_link: null });
    for (const res of [await byToken(first), await inject('GET', `${RECEIPTS}/pdf?token=${first}`)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(
        'This receipt link is not valid or has been revoked. Ask the renter for a new one.',
      );
    }
    expect((await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt`, who)).json().share_link).toBeNull();
    // Revoking again is harmless.
    expect((await revoke(who, trip.platformId)).statusCode).toBe(200);

    const second = (await share(who, trip.platformId)).json().token;
    const third = (await share(who, trip.platformId)).json().token;
    expect(new Set([first, second, third]).size).toBe(3);
    expect((await byToken(second)).statusCode).toBe(404);
    expect((await byToken(third)).statusCode).toBe(200);
    expect(
      await db()
        .selectFrom('receipt_tokens')
        .select('id')
        .where('reservation_id', '=', trip.id)
        .where('revoked_at', 'is', null)
        .execute(),
    ).toHaveLength(1);

    // Two links asked for at once: both answered, one of them live, the other already replaced.
    const both = await Promise.all([share(who, trip.platformId), share(who, trip.platformId)]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    const opened = await Promise.all(both.map((r) => byToken(r.json().token)));
    expect(opened.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect((await byToken(third)).statusCode).toBe(404);
  });

  it('a missing or malformed token is a 400 naming it, an unknown one a 404: never a 500', async () => {
    const missing = await inject('GET', RECEIPTS);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'token', message: 'token is required' });
    for (const bad of ['short', 'x'.repeat(44), `${'a'.repeat(42)}!`, '%00'.repeat(15), 'a'.repeat(5000)]) {
      const res = await inject('GET', `${RECEIPTS}?token=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().field).toBe('token');
      expect((await inject('GET', `${RECEIPTS}/pdf?token=${bad}`)).statusCode).toBe(400);
    }
    expect((await inject('GET', `${RECEIPTS}/pdf`)).json()).toMatchObject({
      statusCode: 400,
      field: 'token',
      message: 'token is required',
    });
    expect((await byToken('A'.repeat(43))).statusCode).toBe(404);
  });

  it('an unpaid booking has no receipt to share yet (409), and its deposit, never held, is on no receipt card', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    const res = await share(who, trip.platformId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A receipt link can be shared once the trip is paid.');
    const own = (await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt`, who)).json();
    expect(own.transactions).toEqual([]);
    expect(own.total).toBe(0);
  });

  it('the PDF, for the owner and through the link (once the car is out): a PDF with the receipt’s total, titles and labels', async () => {
    const { who, trip } = await renterWithPaidTrip();
    const { token } = (await share(who, trip.platformId)).json();
    await rideOut(trip, { mileage: 12_000, battery: 0.9, at: new Date(TEST_NOW.getTime() + 7 * 86_400_000) });
    const owner = await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt/pdf`, who);
    const shared = await inject('GET', `${RECEIPTS}/pdf?token=${token}`);
    for (const res of [owner, shared]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="Ampere-Receipt-${trip.platformId}.pdf"`);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfTextLines(res.rawPayload).join('\n');
      const part = trip.platformId.split('-')[1];
      for (const expected of [
        'Your Receipts',
        formatTotal(trip.due),
        `Receipt #${part}-001`,
        `Receipt #${part}-002`,
        'Payment',
        'Authorization',
        'Collision Protection declined',
        'card ending in ...4242',
      ]) {
        expect(text).toContain(expected);
      }
    }
    expect((await inject('GET', `/api/v1/reservations/${trip.platformId}/receipt/pdf`)).statusCode).toBe(401);
  });
});
