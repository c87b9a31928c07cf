import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeCancellationDeadline } from '@ampere/domain/booking';
import { issueKeyIfReady } from '../src/features/trips/keys.ts';
import { settleMoneyOwed } from '../src/features/trips/outbox-sweep.ts';
import { closeReservation } from '../src/features/trips/cancel.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { type SandboxContext, askLaterReturn, createSandboxContext, payBalance, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

describe.each(engines())('cancelling a trip on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const cancel = (who: SignedIn, platformId: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/reservations/${platformId}/cancel`, headers: who.headers });
  const get = async (who: SignedIn, platformId: string) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/v1/reservations/${platformId}`, headers: who.headers })).json()
      .reservation;
  /** A trip paid as the browser pays it: the charge with a new card, the deposit held on the saved card. */
  async function paidTrip(who: SignedIn, opts: { leadDays?: number } = {}): Promise<StartedTrip> {
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { leadDays: opts.leadDays });
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    return trip;
  }
  const ledger = (trip: StartedTrip) =>
    db()
      .selectFrom('transactions')
      .select(['category', 'status', 'amount', 'discount_amount', 'released_at'])
      .where('reservation_id', '=', trip.id)
      .execute();
  const money = (trip: StartedTrip) =>
    db()
      .selectFrom('payments')
      .select(['kind', 'status', 'amount_captured', 'amount_refunded', 'provider_intent_id'])
      .where('reservation_id', '=', trip.id)
      .execute();

  it('inside the window: Canceled, the deposit hold released, every cent charged refunded, the car free again', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    const res = await cancel(who, trip.platformId);
    expect(res.statusCode).toBe(200);
    const r = res.json().reservation;
    expect(r.status).toBe('Canceled');
    expect(r.can_cancel).toBe(false);
    expect(r.key).toBeNull();
    const paid = await money(trip);
    const charge = paid.find((p) => p.kind === 'CHARGE')!;
    const hold = paid.find((p) => p.kind === 'DEPOSIT_HOLD')!;
    // What the provider took, it gave back: to the cent.
    expect(charge.amount_captured).toBe(trip.due);
    expect(charge.amount_refunded).toBe(trip.due);
    expect(hold.status).toBe('canceled');
    expect(hold.amount_captured).toBe(0);
    const intent = await ctx.gateway.retrievePaymentIntent(charge.provider_intent_id!);
    expect(intent.amount_refunded).toBe(intent.amount_received);
    const rows = await ledger(trip);
    expect(rows.filter((t) => t.category !== 'Deposit').every((t) => t.status === 'Refunded')).toBe(true);
    const deposit = rows.find((t) => t.category === 'Deposit')!;
    expect(deposit.status).toBe('Canceled');
    expect(deposit.released_at).not.toBeNull();
    // The dates are free: the same car can be booked by someone else at once.
    const overlap = await db()
      .selectFrom('reservations')
      .select('id')
      .where('id', '=', trip.id)
      .where('status', 'in', ['Started', 'Pending', 'On Rent'])
      .execute();
    expect(overlap).toHaveLength(0);
    // Cancelling twice is refused and refunds nothing more.
    const again = await cancel(who, trip.platformId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This trip is already cancelled.');
    expect((await money(trip)).find((p) => p.kind === 'CHARGE')!.amount_refunded).toBe(trip.due);
  });

  it('a trip with a paid extension, cancelled: both charges refunded in full, to the cent; the provider and the ledger agree', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    const asked = await askLaterReturn(ctx, who, trip, 1);
    expect(asked.statusCode, asked.body).toBe(200);
    const extension = asked.json().reservation.payment_balance as number;
    expect(extension).toBeGreaterThan(0);
    const extended = await payBalance(ctx, who, trip.platformId, trip.id);
    expect(extended.payment_balance).toBe(0);
    expect(extended.can_cancel).toBe(true);

    const res = await cancel(who, trip.platformId);
    expect(res.statusCode, res.body).toBe(200);
    const charges = (await money(trip)).filter((p) => p.kind === 'CHARGE' && p.amount_captured > 0);
    expect(charges).toHaveLength(2);
    expect(charges.reduce((n, c) => n + c.amount_captured, 0)).toBe(trip.due + extension);
    for (const c of charges) {
      expect(c.amount_refunded).toBe(c.amount_captured);
      const intent = await ctx.gateway.retrievePaymentIntent(c.provider_intent_id!);
      expect(intent.amount_refunded).toBe(intent.amount_received);
    }
    // Every item paid for is Refunded, and together they are what the provider gave back.
    const rows = await ledger(trip);
    const refunded = rows.filter((t) => t.status === 'Refunded');
    expect(rows.filter((t) => t.category !== 'Deposit').every((t) => t.status === 'Refunded')).toBe(true);
    expect(refunded.reduce((n, t) => n + t.amount - t.discount_amount, 0)).toBe(trip.due + extension);
    expect(rows.find((t) => t.category === 'Deposit')!.status).toBe('Canceled');
  });

  it('a live key stops working when the trip is cancelled', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    await verifiedRenter(db(), who.userId, TEST_NOW);
    expect(await issueKeyIfReady({ db: db(), clock: () => ctx.clock.now }, trip.id)).toBe(true);
    await cancel(who, trip.platformId);
    const keys = await db().selectFrom('digital_keys').select('status').where('reservation_id', '=', trip.id).execute();
    expect(keys.map((k) => k.status)).toEqual(['revoked']);
  });

  it('an unpaid booking is given up: its items and charge canceled, nothing refunded', async () => {
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: who.headers,
      payload: { platform_id: trip.platformId },
    });
    const res = await cancel(who, trip.platformId);
    expect(res.json().reservation.status).toBe('Canceled');
    expect((await ledger(trip)).every((t) => t.status === 'Canceled')).toBe(true);
    const paid = await money(trip);
    expect(paid.every((p) => p.status === 'canceled')).toBe(true);
    expect(paid.every((p) => p.amount_captured === 0)).toBe(true);
  });

  it('after the free-cancellation deadline (one day before pickup, on the pickup place’s clock) it is refused and nothing changes', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who, { leadDays: 3 });
    const row = await db()
      .selectFrom('reservations')
      .select(['pickup_at', 'timezone'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    const deadline = freeCancellationDeadline(row.pickup_at, row.timezone);
    const saved = ctx.clock.now;
    try {
      ctx.clock.now = new Date(deadline.getTime() + 60_000);
      // The session from signInAs lasts a day from TEST_NOW; sign in again at the moved clock.
      const later = await signInAs(ctx);
      await db().updateTable('reservations').set({ user_id: later.userId }).where('id', '=', trip.id).execute();
      // The trip as the page reads it says so, on the server's clock: no Cancel Trip to offer.
      const shown = await get(later, trip.platformId);
      expect(shown.can_cancel).toBe(false);
      expect(shown.free_cancellation_until).toBe(deadline.toISOString());
      const res = await cancel(later, trip.platformId);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/^Free cancellation ended .+; this trip can no longer be cancelled\.$/);
      ctx.clock.now = new Date(deadline.getTime() - 60_000);
      expect((await get(later, trip.platformId)).can_cancel).toBe(true);
      expect((await cancel(later, trip.platformId)).statusCode).toBe(200);
    } finally {
      ctx.clock.now = saved;
    }
  });

  it('across the spring DST change the deadline is the pickup’s clock time the day before: 23 hours ahead, not 24', async () => {
    const saved = ctx.clock.now;
    try {
      // Booked Thursday for Sunday 2027-03-14 10:00 in Chicago, the day clocks spring forward.
      ctx.clock.now = new Date('2027-03-11T18:00:00Z');
      const who = await signInAs(ctx);
      const trip = await startedTrip(db(), who.userId, ctx.clock.now, { leadDays: 3, timezone: 'America/Chicago' });
      expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
      const row = await db()
        .selectFrom('reservations')
        .select(['pickup_at'])
        .where('id', '=', trip.id)
        .executeTakeFirstOrThrow();
      expect(row.pickup_at.toISOString()).toBe('2027-03-14T15:00:00.000Z');
      // Saturday 09:59 CST is 23 h 1 min before pickup: a 24-hour rule would already refuse it.
      ctx.clock.now = new Date('2027-03-13T15:59:00Z');
      const at = await signInAs(ctx);
      await db().updateTable('reservations').set({ user_id: at.userId }).where('id', '=', trip.id).execute();
      const res = await cancel(at, trip.platformId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().reservation.status).toBe('Canceled');
      const charge = (await money(trip)).find((p) => p.kind === 'CHARGE')!;
      expect(charge.amount_refunded).toBe(trip.due);

      // Another trip the same Sunday, tried at Saturday 10:00 CST: the deadline itself, refused, with the time on Chicago's clock.
      ctx.clock.now = new Date('2027-03-11T18:00:00Z');
      const late = await signInAs(ctx);
      const second = await startedTrip(db(), late.userId, ctx.clock.now, { leadDays: 3, timezone: 'America/Chicago' });
      expect((await payTrip(ctx, late, second.platformId)).status).toBe('Pending');
      ctx.clock.now = new Date('2027-03-13T16:00:00Z');
      const again = await signInAs(ctx);
      await db().updateTable('reservations').set({ user_id: again.userId }).where('id', '=', second.id).execute();
      const refused = await cancel(again, second.platformId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/^Free cancellation ended .*Mar 13, 2027.*10:00/);
      expect((await money(second)).find((p) => p.kind === 'CHARGE')!.amount_refunded).toBe(0);
    } finally {
      ctx.clock.now = saved;
    }
  });

  it('another renter’s trip is a 404, and a trip under way cannot be cancelled', async () => {
    const owner = await signInAs(ctx);
    const other = await signInAs(ctx);
    const trip = await paidTrip(owner);
    expect((await cancel(other, trip.platformId)).statusCode).toBe(404);
    await db().updateTable('reservations').set({ status: 'On Rent' }).where('id', '=', trip.id).execute();
    expect((await get(owner, trip.platformId)).can_cancel).toBe(false);
    const res = await cancel(owner, trip.platformId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A trip that has started or ended cannot be cancelled.');
  });

  it('money a request could not finish at the provider is settled by the job, once: a refund owed, and a retired charge', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    const charge = await db()
      .selectFrom('payments')
      .select(['id', 'amount_captured', 'provider_intent_id'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .executeTakeFirstOrThrow();
    // As if the provider was unreachable right after a cancellation recorded its refund.
    await db()
      .insertInto('payment_refunds')
      .values({
        payment_id: charge.id,
        reservation_id: trip.id,
        amount: charge.amount_captured,
        reason: 'cancellation',
        created_at: TEST_NOW,
        provider_refund_id: null,
        refunded_at: null,
      })
      .execute();
    // And an unpaid charge of another trip retired by a change whose provider call never happened.
    const other = await startedTrip(db(), who.userId, TEST_NOW);
    const secrets = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/payments',
        headers: who.headers,
        payload: { platform_id: other.platformId },
      })
    ).json().stripe;
    const open = await db()
      .selectFrom('payments')
      .select(['id', 'provider_intent_id'])
      .where('client_secret', '=', secrets.client_secret)
      .executeTakeFirstOrThrow();
    await db().updateTable('payments').set({ status: 'canceling' }).where('id', '=', open.id).execute();

    const sweepDeps = { db: db(), gateway: ctx.gateway, clock: () => ctx.clock.now };
    const told: string[] = [];
    const publish = async (userId: string) => void told.push(userId);
    await settleMoneyOwed(sweepDeps, publish);
    await settleMoneyOwed(sweepDeps, publish);
    // The renter's open pages reload once, for both trips, when the money was settled.
    expect(told.filter((u) => u === who.userId)).toEqual([who.userId]);
    const intent = await ctx.gateway.retrievePaymentIntent(charge.provider_intent_id!);
    expect(intent.amount_refunded).toBe(charge.amount_captured);
    expect(
      (
        await db()
          .selectFrom('payment_refunds')
          .select('refunded_at')
          .where('payment_id', '=', charge.id)
          .executeTakeFirstOrThrow()
      ).refunded_at,
    ).not.toBeNull();
    expect((await ctx.gateway.retrievePaymentIntent(open.provider_intent_id!)).status).toBe('canceled');
    expect(
      (await db().selectFrom('payments').select('status').where('id', '=', open.id).executeTakeFirstOrThrow()).status,
    ).toBe('canceled');
  });

  it('a cancellation committed while the provider was unreachable is finished by the job: refunded to the cent, the hold released', async () => {
    const who = await signInAs(ctx);
    const trip = await paidTrip(who);
    // What the request commits before it calls the provider; the calls themselves never happened.
    await ctx.handle.db.transaction().execute((trx) => closeReservation(trx, trip.id, ctx.clock.now, 'renter'));
    const told: string[] = [];
    await settleMoneyOwed({ db: db(), gateway: ctx.gateway, clock: () => ctx.clock.now }, async (u) => {
      told.push(u);
    });
    expect(told.filter((u) => u === who.userId)).toEqual([who.userId]);
    const paid = await money(trip);
    const charge = paid.find((p) => p.kind === 'CHARGE')!;
    expect(charge.amount_refunded).toBe(trip.due);
    expect((await ctx.gateway.retrievePaymentIntent(charge.provider_intent_id!)).amount_refunded).toBe(trip.due);
    const hold = paid.find((p) => p.kind === 'DEPOSIT_HOLD')!;
    expect(hold.status).toBe('canceled');
    expect((await ctx.gateway.retrievePaymentIntent(hold.provider_intent_id!)).status).toBe('canceled');
    const deposit = (await ledger(trip)).find((t) => t.category === 'Deposit')!;
    expect(deposit.status).toBe('Canceled');
    expect(deposit.released_at).not.toBeNull();
  });
});
