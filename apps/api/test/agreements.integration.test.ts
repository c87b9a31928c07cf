import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blockedUntil } from '@ampere/domain/availability';
import { formatTotal } from '@ampere/domain/money';
import { addDays, toInstant, todayIn } from '@ampere/domain/time';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { pdfTextLines } from '../src/pdf/text.ts';
import { RAISED_RATE_LIMITS, TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import type { ReservationStatus } from '@ampere/domain/constants';

const MINUTE = 60_000;
const LINK_REFUSED = 'This link has expired or is not valid. Open the agreement again from your trip.';

interface Trip {
  id: string;
  platformId: string;
  vin: string;
  total: number;
}

describe.each(engines())('agreements on %s', (engine) => {
  let ctx: TestContext;
  let vehicleOffset = 0;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
  });

  /** A renter with a name, phone and email on their profile, signed in. */
  async function renter(first = 'Jane', last = 'Doe'): Promise<SignedIn> {
    const signedIn = await signInAs(ctx);
    await ctx.handle.db
      .updateTable('users')
      .set({
        first_name: first,
        last_name: last,
        email: `${first.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`,
      })
      .where('id', '=', signedIn.userId)
      .execute();
    return signedIn;
  }

  /**
   * A week's trip, a week from now, on a seeded car nobody has booked, owned by `userId`, with its
   * line items as booking leaves them: rack days, tax, the deposit hold and optionally the waiver.
   */
  async function bookTrip(
    userId: string,
    opts: { status?: ReservationStatus; waiver?: 'Pending' | 'Canceled' } = {},
  ): Promise<Trip> {
    const db = ctx.handle.db;
    const car = await db
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .select(['v.id', 'v.vin', 'v.rack_rate', 'v.location_id', 'l.timezone'])
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('reservations as r').select('r.id').whereRef('r.vehicle_id', '=', 'v.id'))),
      )
      .orderBy('v.id')
      .offset(vehicleOffset++)
      .executeTakeFirstOrThrow();
    const pickupDate = addDays(todayIn(TEST_NOW, car.timezone), 7);
    const platformId = `AGR-${randomBytes(4).toString('hex').toUpperCase()}-${vehicleOffset}`;
    const reservation = await db
      .insertInto('reservations')
      .values({
        platform_id: platformId,
        vehicle_id: car.id,
        user_id: userId,
        status: opts.status ?? 'Started',
        pickup_at: toInstant({ date: pickupDate, time: '10:00' }, car.timezone),
        return_at: toInstant({ date: addDays(pickupDate, 7), time: '10:00' }, car.timezone),
        blocked_until: blockedUntil(toInstant({ date: addDays(pickupDate, 7), time: '10:00' }, car.timezone)),
        timezone: car.timezone,
        pickup_location_id: car.location_id,
        dropoff_location_id: car.location_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rack = car.rack_rate * 7;
    const waiver = 2_500 * 7;
    const tax = Math.round((rack + (opts.waiver === 'Pending' ? waiver : 0)) * 0.0925);
    const line = {
      reservation_id: reservation.id,
      status: 'Pending' as const,
      initiated_at: TEST_NOW,
      released_at: null,
      card_last_4: null,
      payment_id: null,
      reserve_applied_payment_id: null,
      effective_date: null,
    };
    await db
      .insertInto('transactions')
      .values([
        {
          ...line,
          category: 'Rack',
          description: 'Rental',
          cost: car.rack_rate,
          amount: rack,
          number_of_days: 7,
          addon_id: null,
        },
        ...(opts.waiver
          ? [
              {
                ...line,
                status: opts.waiver,
                category: 'Addon' as const,
                description: 'Collision Protection',
                cost: 2_500,
                amount: waiver,
                number_of_days: 7,
                addon_id: 'collision-protection',
              },
            ]
          : []),
        {
          ...line,
          category: 'Tax',
          description: 'Sales tax',
          cost: tax,
          amount: tax,
          number_of_days: null,
          addon_id: null,
        },
        {
          ...line,
          category: 'Deposit',
          description: 'Security deposit',
          cost: 20_000,
          amount: 20_000,
          number_of_days: null,
          addon_id: null,
        },
      ])
      .execute();
    return {
      id: reservation.id,
      platformId,
      vin: car.vin,
      total: rack + tax + (opts.waiver === 'Pending' ? waiver : 0),
    };
  }

  const sign = (who: SignedIn, trip: Pick<Trip, 'platformId'>, body: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/agreements',
      headers: who.headers,
      payload: {
        type: 'RENTAL_AGREEMENT',
        platform_id: trip.platformId,
        signature: 'Jane Doe',
        date: '2026-11-22',
        rental_type: 'BUSINESS',
        ...body,
      },
    });
  const signedUrl = (who: SignedIn, id: string) =>
    ctx.app.inject({ url: `/api/v1/agreements/${id}/signed_url`, headers: who.headers });
  const open = (url: string) => ctx.app.inject({ url });
  /** The rental type the trip took from its signing. */
  const rentalTypeOf = async (trip: Pick<Trip, 'id'>) =>
    (
      await ctx.handle.db
        .selectFrom('reservations')
        .select('rental_type')
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow()
    ).rental_type;
  /** The agreements' types in the order the renter's trip lists them. */
  const agreementTypes = async (who: SignedIn, trip: Pick<Trip, 'platformId'>) => {
    const res = await ctx.app.inject({ url: `/api/v1/reservations/${trip.platformId}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().reservation.agreements as { type: string }[]).map((a) => a.type);
  };

  it('signs the rental agreement as a PDF a renter can read, and opens it by a signed link', async () => {
    const jane = await renter();
    const trip = await bookTrip(jane.userId);
    const res = await sign(jane, trip, { signature: ' jane   DOE ' });
    expect(res.statusCode).toBe(201);
    const { agreement } = res.json();
    expect(agreement).toMatchObject({
      type: 'RENTAL_AGREEMENT',
      platform_id: trip.platformId,
      signature: 'jane DOE',
      date: '2026-11-22',
      rental_type: 'BUSINESS',
      created_at: TEST_NOW.toISOString(),
    });
    expect(await rentalTypeOf(trip)).toBe('BUSINESS');

    const link = await signedUrl(jane, agreement.id);
    expect(link.statusCode).toBe(200);
    expect(link.headers['cache-control']).toBe('private, no-store');
    const { signed_url, expires_at } = link.json();
    expect(signed_url).toMatch(
      new RegExp(`^/api/v1/agreements/${agreement.id}/document\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`),
    );
    expect(expires_at).toBe(new Date(TEST_NOW.getTime() + 15 * MINUTE).toISOString());

    const doc = await open(signed_url);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.headers['content-disposition']).toBe(
      `inline; filename="Ampere-Rental-Agreement-${trip.platformId}.pdf"`,
    );
    expect(doc.headers['cache-control']).toBe('private, no-store');
    expect(doc.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const stored = await ctx.handle.db
      .selectFrom('agreements')
      .select('document_sha256')
      .where('id', '=', agreement.id)
      .executeTakeFirstOrThrow();
    expect(createHash('sha256').update(doc.rawPayload).digest('hex')).toBe(stored.document_sha256);

    const text = pdfTextLines(doc.rawPayload).join('\n');
    for (const expected of [
      'Rental Agreement',
      trip.platformId,
      trip.vin,
      'Jane Doe',
      'jane DOE',
      'Business',
      formatTotal(trip.total),
      'Signed electronically on Nov 22, 2026',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('answers a second signing of the same type with the first agreement', async () => {
    const jane = await renter();
    const trip = await bookTrip(jane.userId);
    const first = await sign(jane, trip);
    expect(first.statusCode).toBe(201);
    const again = await sign(jane, trip, { rental_type: 'LEISURE' });
    expect(again.statusCode).toBe(200);
    expect(again.json().agreement).toEqual(first.json().agreement);
    expect(
      await ctx.handle.db.selectFrom('agreements').select('id').where('reservation_id', '=', trip.id).execute(),
    ).toHaveLength(1);

    // A double click: two requests at once make one agreement.
    const fresh = await bookTrip(jane.userId);
    const [a, b] = await Promise.all([sign(jane, fresh), sign(jane, fresh)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().agreement.id).toBe(b.json().agreement.id);
    expect(
      await ctx.handle.db.selectFrom('agreements').select('id').where('reservation_id', '=', fresh.id).execute(),
    ).toHaveLength(1);
  });

  it('signs the collision protection waiver only for a trip that has it', async () => {
    const jane = await renter();
    const without = await bookTrip(jane.userId);
    const refused = await sign(jane, without, { type: 'DAMAGE_WAIVER' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'This trip has no collision protection to sign for.',
      field: 'type',
    });
    const removed = await bookTrip(jane.userId, { waiver: 'Canceled' });
    expect((await sign(jane, removed, { type: 'DAMAGE_WAIVER' })).statusCode).toBe(422);

    const covered = await bookTrip(jane.userId, { waiver: 'Pending' });
    const res = await sign(jane, covered, { type: 'DAMAGE_WAIVER', rental_type: 'LEISURE' });
    expect(res.statusCode).toBe(201);
    const { agreement } = res.json();
    expect(agreement).toMatchObject({ type: 'DAMAGE_WAIVER', rental_type: 'LEISURE' });
    const doc = await open((await signedUrl(jane, agreement.id)).json().signed_url);
    expect(doc.headers['content-disposition']).toBe(
      `inline; filename="Ampere-Collision-Protection-Waiver-${covered.platformId}.pdf"`,
    );
    const text = pdfTextLines(doc.rawPayload).join('\n');
    expect(text).toContain('Collision Protection Waiver');
    expect(text).toContain('$25.00 per rental day');
    expect(text).toContain('$175.00 ($25.00 × 7 days)');
    // Both agreements of one trip: the rental agreement is listed first, though signed second.
    expect((await sign(jane, covered)).statusCode).toBe(201);
    expect(await agreementTypes(jane, covered)).toEqual(['RENTAL_AGREEMENT', 'DAMAGE_WAIVER']);
  });

  it('signs the rental agreement and the waiver sent at once, as the signature page sends them', async () => {
    const jane = await renter();
    const covered = await bookTrip(jane.userId, { waiver: 'Pending' });
    const answers = await Promise.all([
      sign(jane, covered, { type: 'DAMAGE_WAIVER', rental_type: 'LEISURE' }),
      sign(jane, covered, { rental_type: 'LEISURE' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect(await agreementTypes(jane, covered)).toEqual(['RENTAL_AGREEMENT', 'DAMAGE_WAIVER']);
    expect(await rentalTypeOf(covered)).toBe('LEISURE');
  });

  it('refuses a signature that is not the name on the profile', async () => {
    const jane = await renter();
    const trip = await bookTrip(jane.userId);
    const res = await sign(jane, trip, { signature: 'Janet Doe' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      field: 'signature',
      message: 'The signature must match the name on your profile: Jane Doe.',
    });
    const tooShort = await sign(jane, trip, { signature: 'J' });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().field).toBe('signature');
  });

  it('signs with the longest first and last name the profile accepts', async () => {
    const who = await signInAs(ctx);
    const profile = (body: object) =>
      ctx.app.inject({ method: 'PATCH', url: '/api/v1/users/profile', headers: who.headers, payload: body });
    const [first, last] = ['Marguerite'.repeat(6), 'Vanderbilt'.repeat(6)];
    expect((await profile({ first_name: `${first}e` })).statusCode).toBe(400);
    const saved = await profile({ first_name: first, last_name: last });
    expect(saved.statusCode, saved.body).toBe(200);
    const trip = await bookTrip(who.userId);
    const res = await sign(who, trip, { signature: `${first} ${last}` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().agreement.signature).toBe(`${first} ${last}`);
    const pdf = await open((await signedUrl(who, res.json().agreement.id)).json().signed_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdfTextLines(pdf.rawPayload).join('')).toContain(first);
  });

  it('takes any full name while the profile has none, and shows it on the document', async () => {
    const anon = await signInAs(ctx);
    const trip = await bookTrip(anon.userId);
    const res = await sign(anon, trip, { signature: 'Sam Rivera' });
    expect(res.statusCode).toBe(201);
    const text = pdfTextLines(
      (await open((await signedUrl(anon, res.json().agreement.id)).json().signed_url)).rawPayload,
    ).join('\n');
    expect(text).toContain('Sam Rivera');
    expect(text).toContain('Not given');
  });

  it("finds only the renter's own trips", async () => {
    const jane = await renter();
    const other = await renter('Omar', 'Haddad');
    const trip = await bookTrip(jane.userId);
    const res = await sign(other, trip, { signature: 'Omar Haddad' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'No trip with that id.', field: 'platform_id' });
    expect((await sign(jane, { platformId: 'AGR-NOPE-0' })).statusCode).toBe(404);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/agreements',
          payload: {
            type: 'RENTAL_AGREEMENT',
            platform_id: trip.platformId,
            signature: 'Jane Doe',
            date: '2026-11-22',
            rental_type: 'BUSINESS',
          },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('signs only before the trip starts, on the day of signing', async () => {
    const jane = await renter();
    const onRent = await bookTrip(jane.userId, { status: 'On Rent' });
    const started = await sign(jane, onRent);
    expect(started.statusCode).toBe(422);
    expect(started.json().message).toBe('Agreements are signed before pickup, and this trip has already started.');
    const canceled = await bookTrip(jane.userId, { status: 'Canceled' });
    expect((await sign(jane, canceled)).json()).toMatchObject({
      statusCode: 422,
      message: 'This trip was canceled, so there is nothing to sign.',
    });

    const pending = await bookTrip(jane.userId, { status: 'Pending' });
    const backDated = await sign(jane, pending, { date: '2026-11-20' });
    expect(backDated.statusCode).toBe(422);
    expect(backDated.json()).toMatchObject({ field: 'date', message: "The date must be today's date, Nov 22, 2026." });
    // A day either way of the trip's calendar is accepted (a renter's device may be in another zone).
    expect((await sign(jane, pending, { date: '2026-11-23' })).statusCode).toBe(201);
  });

  it('opens a document link for 15 minutes, and refuses it expired or altered', async () => {
    const jane = await renter();
    const trip = await bookTrip(jane.userId);
    const { agreement } = (await sign(jane, trip)).json();
    const { signed_url } = (await signedUrl(jane, agreement.id)).json();

    ctx.clock.now = new Date(TEST_NOW.getTime() + 14 * MINUTE + 59_000);
    expect((await open(signed_url)).statusCode).toBe(200);
    ctx.clock.now = new Date(TEST_NOW.getTime() + 15 * MINUTE);
    const expired = await open(signed_url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(LINK_REFUSED);
    ctx.clock.now = TEST_NOW;

    const url = new URL(signed_url, 'http://localhost');
    const sig = url.searchParams.get('signature')!;
    const expires = Number(url.searchParams.get('expires'));
    const withQuery = (path: string, q: Record<string, string | number>) =>
      `${path}?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;
    const alteredSig = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const otherTrip = await bookTrip(jane.userId);
    const otherId = (await sign(jane, otherTrip)).json().agreement.id;
    for (const forged of [
      withQuery(url.pathname, { expires, signature: alteredSig }),
      withQuery(url.pathname, { expires: expires + 3600, signature: sig }),
      withQuery(url.pathname.replace(agreement.id, otherId), { expires, signature: sig }),
      withQuery(url.pathname.replace(agreement.id, 'not-an-id'), { expires, signature: sig }),
      withQuery(url.pathname, { expires }),
      url.pathname,
    ]) {
      const res = await open(forged);
      expect(res.statusCode, forged).toBe(403);
      expect(res.json().message).toBe(LINK_REFUSED);
    }
  });

  it("gives no link to someone else's agreement", async () => {
    const jane = await renter();
    const other = await renter('Omar', 'Haddad');
    const { agreement } = (await sign(jane, await bookTrip(jane.userId))).json();
    const res = await signedUrl(other, agreement.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No agreement with that id.');
    expect((await signedUrl(jane, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await signedUrl(jane, 'nope')).statusCode).toBe(400);
    expect((await ctx.app.inject({ url: `/api/v1/agreements/${agreement.id}/signed_url` })).statusCode).toBe(401);
  });

  it('makes absolute links when PUBLIC_URL is set', async () => {
    const jane = await renter();
    const { agreement } = (await sign(jane, await bookTrip(jane.userId))).json();
    const app = await buildApp({
      config: loadConfig({
        SEED_DEMO: 'false',
        WEB_DIST: '/nonexistent',
        PUBLIC_URL: 'http://rent.example.test/',
        ...RAISED_RATE_LIMITS,
      }),
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
    });
    try {
      const res = await app.inject({ url: `/api/v1/agreements/${agreement.id}/signed_url`, headers: jane.headers });
      expect(res.json().signed_url).toMatch(
        new RegExp(`^http://rent\\.example\\.test/api/v1/agreements/${agreement.id}/document\\?expires=`),
      );
    } finally {
      await app.close();
    }
  });
});
