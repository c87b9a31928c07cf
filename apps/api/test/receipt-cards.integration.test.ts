import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHARGE_BANDS } from '@ampere/domain/end-trip';
import { formatDateShort, formatInstantInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { type ReceiptView, receiptView } from '@ampere/domain/receipt';
import { toLocal } from '@ampere/domain/time';
import type { Receipt } from '@ampere/domain/contract/receipt';
import { issueKeyIfReady } from '../src/features/trips/keys.ts';
import { recordRideStarts } from '../src/features/trips/rides.ts';
import { advanceTripStatus } from '../src/features/trips/trip-status.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { pdfTextLines } from '../src/pdf/text.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { type SandboxContext, createSandboxContext, payTrip, reviewEnds } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The receipt as its renter reads it (decision 051): a card per payment, hold and refund, each dated when its money moved. */
describe.each(engines())('receipt cards on %s', (engine) => {
  let ctx: SandboxContext;
  let fleet: SimulatedFleet;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
    fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const call = (who: SignedIn, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  /** A renter who stays signed in while the test clock moves days on. */
  async function renter(): Promise<SignedIn> {
    ctx.clock.now = TEST_NOW;
    const who = await signInAs(ctx);
    await db()
      .updateTable('sessions')
      .set({ expires_at: new Date('2030-01-01T00:00:00Z') })
      .where('user_id', '=', who.userId)
      .execute();
    return who;
  }

  async function receiptOf(who: SignedIn, trip: StartedTrip): Promise<{ receipt: Receipt; view: ReceiptView }> {
    const res = await call(who, 'GET', `/api/v1/reservations/${trip.platformId}/receipt`);
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json() as Receipt;
    return { receipt, view: receiptView(receipt) };
  }
  const pdfText = async (who: SignedIn, trip: StartedTrip) =>
    pdfTextLines((await call(who, 'GET', `/api/v1/reservations/${trip.platformId}/receipt/pdf`)).rawPayload)
      .map((line) => line.trim())
      .join('\n');

  /** What the provider kept for the trip, from its own records: every intent's amount received, less its refunds. */
  async function keptByProvider(trip: StartedTrip): Promise<number> {
    const rows = await db()
      .selectFrom('sandbox_payment_intents')
      .select(['amount_received', 'amount_refunded'])
      .where(sql<string>`metadata->>'reservation_id'`, '=', trip.id)
      .execute();
    return rows.reduce((sum, r) => sum + r.amount_received - r.amount_refunded, 0);
  }

  it('an extra and a coupon: one card for the one payment (the tax added later on it), with the coupon’s line and the card', async () => {
    const who = await renter();
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    const waiver = await db()
      .selectFrom('addons as a')
      .innerJoin('vehicles as v', (join) =>
        join.on((eb) => eb.or([eb('a.model_id', 'is', null), eb('a.model_id', '=', eb.ref('v.model_id'))])),
      )
      .innerJoin('reservations as r', 'r.vehicle_id', 'v.id')
      .select(['a.id', 'a.amount'])
      .where('r.id', '=', trip.id)
      .where('a.type', '=', 'DAMAGE_WAIVER')
      .where('a.active', '=', true)
      .executeTakeFirstOrThrow();
    // Chosen a few minutes after booking: the tax is rewritten then, at a later instant than the rental.
    ctx.clock.now = new Date(TEST_NOW.getTime() + 5 * MINUTE);
    const added = await call(who, 'PATCH', '/api/v1/reservations/addons', {
      platform_id: trip.platformId,
      addon_ids: [waiver.id],
    });
    expect(added.statusCode, added.body).toBe(200);
    const applied = await call(who, 'POST', '/api/v1/discounts/apply', {
      code: 'WELCOME10',
      platform_id: trip.platformId,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');

    const { receipt, view } = await receiptOf(who, trip);
    expect(receipt.discount_code).toBe('WELCOME10');
    expect(view.cards.map((c) => c.label)).toEqual(['Payment', 'Authorization']);
    const [payment] = view.cards;
    const off = receipt.transactions.reduce((sum, t) => sum + t.discount_amount, 0);
    expect(off).toBeGreaterThan(0);
    expect(payment!.lines.map((l) => l.label)).toEqual([
      'Rental (3 days)',
      'Collision Protection',
      'Discount (WELCOME10)',
      'Sales tax',
    ]);
    expect(payment!.lines[2]!.amount).toBe(formatTotal(-off));
    expect(payment!.paidWith).toBe('Paid with card ending in ...4242');
    expect(payment!.total).toBe(view.total);
    // Total paid is what the provider kept, to the cent.
    expect(receipt.total).toBe(await keptByProvider(trip));
    const text = await pdfText(who, trip);
    for (const words of ['Discount (WELCOME10)', formatTotal(-off), 'Collision Protection', 'Paid with card ending in'])
      expect(text).toContain(words);
  });

  it('a cancelled trip: the payment on its day, the refund on the refund’s own day with its card, and Total paid net of it', async () => {
    const who = await renter();
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    const cancelledAt = new Date(TEST_NOW.getTime() + 2 * DAY + 3 * 60 * MINUTE);
    ctx.clock.now = cancelledAt;
    const res = await call(who, 'POST', `/api/v1/reservations/${trip.platformId}/cancel`);
    expect(res.statusCode, res.body).toBe(200);

    const refund = await db()
      .selectFrom('payment_refunds')
      .select('refunded_at')
      .where('reservation_id', '=', trip.id)
      .executeTakeFirstOrThrow();
    expect(refund.refunded_at).toEqual(cancelledAt);
    const { receipt, view } = await receiptOf(who, trip);
    const zone = receipt.timezone;
    expect(view.cards.map((c) => [c.label, c.date, c.total])).toEqual([
      ['Payment', formatInstantInZone(TEST_NOW, zone), formatTotal(trip.due)],
      ['Released', formatInstantInZone(cancelledAt, zone), '$0.00'],
      ['Refund', formatInstantInZone(cancelledAt, zone), formatTotal(-trip.due)],
    ]);
    const part = trip.platformId.split('-')[1];
    expect(view.cards[2]).toMatchObject({
      lines: [{ label: `Refund of Receipt #${part}-001`, amount: formatTotal(-trip.due) }],
      paidWith: 'Refunded to card ending in ...4242',
    });
    expect(view.cards[1]!.story).toBe(
      `$200.00 held → $200.00 released on ${formatDateShort(toLocal(cancelledAt, zone).date)}`,
    );
    expect(view.total).toBe('$0.00');
    expect(view.refunds).toEqual({ paid: formatTotal(trip.due), refunded: formatTotal(trip.due) });
    expect(receipt.total).toBe(0);
    expect(await keptByProvider(trip)).toBe(0);
    const text = await pdfText(who, trip);
    for (const words of ['Paid', 'Refunded', 'Refunded to card ending in ...4242', `Refund of Receipt #${part}-001`])
      expect(text).toContain(words);
  });

  it('returned with a low battery: the deposit’s card tells what was held, kept for the fee and released, from the ledger', async () => {
    const who = await renter();
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { leadDays: 2 });
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    await verifiedRenter(db(), who.userId, ctx.clock.now);
    expect(await issueKeyIfReady({ db: db(), clock: () => ctx.clock.now }, trip.id)).toBe(true);
    const row = await db()
      .selectFrom('reservations as r')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select(['r.pickup_at', 'r.return_at', 'v.id', 'v.vin', 'v.odometer'])
      .where('r.id', '=', trip.id)
      .executeTakeFirstOrThrow();
    ctx.clock.now = new Date(row.pickup_at.getTime() + MINUTE);
    await advanceTripStatus({ db: db(), clock: () => ctx.clock.now });
    await recordRideStarts({ db: db(), clock: () => ctx.clock.now, access: fleet });
    const car = { id: row.id, vin: row.vin, odometer: row.odometer };
    await fleet.drive(car, { miles: 40, battery_level: 0.05 });
    const returnedAt = new Date(row.return_at.getTime() - 30 * MINUTE);
    ctx.clock.now = returnedAt;
    const ended = await call(who, 'POST', `/api/v1/reservations/${trip.platformId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    await reviewEnds(ctx, trip.platformId);

    const { receipt, view } = await receiptOf(who, trip);
    const fee = RECHARGE_BANDS[0].cents;
    const deposit = view.cards.find((c) => c.label === 'Partially Captured')!;
    const on = formatDateShort(toLocal(returnedAt, receipt.timezone).date);
    expect(deposit.story).toBe(
      `$200.00 held → ${formatTotal(fee)} kept for the Recharge Fee → ${formatTotal(20_000 - fee)} released on ${on}`,
    );
    expect(deposit.lines).toEqual([
      expect.objectContaining({
        label: 'Recharge Fee (0–20%)',
        note: 'Pulled from security deposit',
        amount: formatTotal(fee),
      }),
    ]);
    expect([deposit.totalLabel, deposit.total, deposit.paidWith]).toEqual([
      'Kept from deposit',
      formatTotal(fee),
      'Held on card ending in ...4242',
    ]);
    expect(deposit.date).toBe(formatInstantInZone(returnedAt, receipt.timezone));
    // No 'Pulled from' card beside it: the fee is one amount, told once.
    expect(view.cards.map((c) => c.label)).toEqual(['Payment', 'Partially Captured']);
    expect(receipt.total).toBe(trip.due + fee);
    expect(receipt.total).toBe(await keptByProvider(trip));
    expect(await pdfText(who, trip)).toContain(
      `$200.00 held -> ${formatTotal(fee)} kept for the Recharge Fee -> ${formatTotal(20_000 - fee)} released on ${on}`,
    );
  });
});
