import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReservationWithSecret } from '@ampere/domain/contract/booking';
import { startedTrip } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/** Spec 7: POST /api/v1/discounts/apply takes the trip as platform_id, or platformId in some flows. */
describe.each(engines())('applying a coupon on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  const apply = (who: SignedIn, body: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/discounts/apply', headers: who.headers, payload: body });

  it('names the trip by platformId as well as platform_id', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, who.userId, ctx.clock.now);
    const camel = await apply(who, { code: 'EVENT15', platformId: trip.platformId });
    expect(camel.statusCode, camel.body).toBe(200);
    const r = ReservationWithSecret.parse(camel.json()).reservation;
    expect([r.platform_id, r.discount_code]).toEqual([trip.platformId, 'EVENT15']);
    expect(r.transactions.filter((t) => t.category === 'Rack').every((t) => t.discount_amount > 0)).toBe(true);
    // Both, naming the same trip (any case), are fine.
    const both = await apply(who, {
      code: 'welcome10',
      platform_id: trip.platformId,
      platformId: trip.platformId.toLowerCase(),
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(ReservationWithSecret.parse(both.json()).reservation.discount_code).toBe('WELCOME10');
  });

  it("refuses neither, or two different trips, with a 400 naming the field; another renter's trip is not found", async () => {
    const who = await signInAs(ctx);
    const mine = await startedTrip(ctx.handle.db, who.userId, ctx.clock.now);
    const other = await signInAs(ctx);
    const theirs = await startedTrip(ctx.handle.db, other.userId, ctx.clock.now);

    const neither = await apply(who, { code: 'EVENT15' });
    expect([neither.statusCode, neither.json().field, neither.json().message]).toEqual([
      400,
      'platform_id',
      'platform_id is required (or platformId)',
    ]);
    const differ = await apply(who, { code: 'EVENT15', platform_id: mine.platformId, platformId: theirs.platformId });
    expect([differ.statusCode, differ.json().field]).toEqual([400, 'platformId']);
    expect(differ.json().message).toMatch(/^platformId names another trip than platform_id/);
    const malformed = await apply(who, { code: 'EVENT15', platformId: 'not a trip' });
    expect([malformed.statusCode, malformed.json().field]).toEqual([400, 'platformId']);
    const stranger = await apply(who, { code: 'EVENT15', platformId: theirs.platformId });
    expect([stranger.statusCode, stranger.json().field]).toEqual([404, 'platform_id']);

    // Nothing was applied to either trip.
    const codes = await ctx.handle.db
      .selectFrom('reservations')
      .select('discount_code')
      .where('id', 'in', [mine.id, theirs.id])
      .execute();
    expect(codes.map((c) => c.discount_code)).toEqual([null, null]);
  });
});
