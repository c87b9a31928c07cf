import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_REVIEW_HOURS } from '@ampere/domain/charges';
import { SECURITY_DEPOSIT_CENTS } from '@ampere/domain/constants';
import { settleReturnedDeposits } from '../src/features/trips/settle-deposit.ts';
import { engines } from './harness.ts';
import {
  type ReturnedTrip,
  agreedBooks,
  auditOf,
  messagesOf,
  ops,
  photoEvidence,
  returnedTrip,
  staffAt,
} from './money-helpers.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';

const HOUR = 3_600_000;

describe.each(engines())('charges after the trip on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const hold = (trip: ReturnedTrip) =>
    db()
      .selectFrom('payments')
      .select(['id', 'status', 'amount', 'amount_captured', 'provider_intent_id'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'DEPOSIT_HOLD')
      .executeTakeFirstOrThrow();

  it('after a return the hold stays for the review window; the job settles it once when the window ends', async () => {
    const trip = await returnedTrip(ctx);
    expect((await hold(trip)).status).toBe('requires_capture');
    const syncDeps = { db: db(), gateway: ctx.gateway, clock: () => ctx.clock.now };
    ctx.clock.now = new Date(ctx.clock.now.getTime() + (DEPOSIT_REVIEW_HOURS - 1) * HOUR);
    await settleReturnedDeposits(syncDeps);
    expect((await hold(trip)).status).toBe('requires_capture');
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 2 * HOUR);
    await settleReturnedDeposits(syncDeps);
    await settleReturnedDeposits(syncDeps);
    const h = await hold(trip);
    expect(h.status).toBe('canceled');
    expect(h.amount_captured).toBe(0);
    const review = await db().selectFrom('deposit_reviews').selectAll().where('payment_id', '=', h.id).execute();
    expect(review.map((r) => [r.settled_how, r.settled_by])).toEqual([['released', null]]);
  });

  it('a charge within the deposit waits on the hold; staff settle it: one partial capture, the rest released; books agree', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const agent = await staffAt(ctx, 'agent', [trip.locationId]);
    const evidence = await photoEvidence(ctx, agent.cookie, trip.id);
    const posted = await ops(ctx, agent.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'cleaning',
      reason: 'Sand and pet hair all over the back seat.',
      evidenceIds: [evidence],
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const [charge] = posted.json().charges;
    expect(charge).toMatchObject({ amount: 7_500, status: 'posted', onHoldCents: 7_500, toCardCents: 0 });
    expect(charge.evidence).toHaveLength(1);
    expect(await agreedBooks(ctx, trip)).toBe(before);
    // The renter is told by text (and email when they have one), with the charge's page.
    const told = await messagesOf(ctx, trip.id, 'charge_posted');
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]!.body).toContain(`/trip/${trip.platformId}/charges/${charge.id}`);

    // An agent cannot settle the deposit; a manager can.
    const h = await hold(trip);
    expect((await ops(ctx, agent.cookie, 'POST', `/deposits/${h.id}/release`, {})).statusCode).toBe(403);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const settled = await ops(ctx, manager.cookie, 'POST', `/deposits/${h.id}/release`, { reason: 'Review done' });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().deposit).toMatchObject({ status: 'captured', capturedCents: 7_500 });
    const intent = await ctx.gateway.retrievePaymentIntent(h.provider_intent_id!);
    expect(intent.amount_received).toBe(7_500);
    expect(intent.amount_capturable).toBe(0);
    expect(await agreedBooks(ctx, trip)).toBe(before + 7_500);
    const money = (await ops(ctx, manager.cookie, 'GET', `/trips/${trip.id}/charges`)).json();
    expect(money.charges[0]).toMatchObject({ status: 'collected', fromDepositCents: 7_500 });
    // Settling again is refused: the hold was captured once.
    expect((await ops(ctx, manager.cookie, 'POST', `/deposits/${h.id}/release`, {})).statusCode).toBe(409);
    const audit = await auditOf(ctx, trip.id);
    expect(audit.filter((a) => a.outcome === 'success').map((a) => a.action)).toEqual([
      'charges.post',
      'charges.post',
      'deposits.release',
    ]);
    // The agent's refused attempt is audited against the hold it aimed at.
    const refused = await db()
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'reason'])
      .where('target_id', '=', h.id)
      .where('staff_id', '=', agent.id)
      .execute();
    expect(refused).toMatchObject([{ action: 'deposits.release', outcome: 'failure' }]);
    expect(refused[0]!.reason).toMatch(/^403/);
    expect((await messagesOf(ctx, trip.id, 'deposit_settled')).length).toBeGreaterThan(0);
  });

  it('a charge beyond the deposit: the hold covers what it can, the card is charged off-session for the rest', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const evidence = await photoEvidence(ctx, manager.cookie, trip.id);
    const posted = await ops(ctx, manager.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'damage',
      cents: 120_000,
      reason: 'Rear bumper cracked; body shop estimate attached.',
      evidenceIds: [evidence],
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const [charge] = posted.json().charges;
    expect(charge).toMatchObject({
      amount: 120_000,
      onHoldCents: SECURITY_DEPOSIT_CENTS,
      toCardCents: 120_000 - SECURITY_DEPOSIT_CENTS,
      owedCents: 0,
    });
    expect(charge.cardLast4).toBe('4242');
    expect(await agreedBooks(ctx, trip)).toBe(before + 120_000 - SECURITY_DEPOSIT_CENTS);
    const h = await hold(trip);
    const settled = await ops(ctx, manager.cookie, 'POST', `/deposits/${h.id}/release`, {});
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().deposit.capturedCents).toBe(SECURITY_DEPOSIT_CENTS);
    expect(await agreedBooks(ctx, trip)).toBe(before + 120_000);
    const money = (await ops(ctx, manager.cookie, 'GET', `/trips/${trip.id}/charges`)).json();
    expect(money.charges[0]).toMatchObject({ status: 'charged', fromDepositCents: SECURITY_DEPOSIT_CENTS });
    expect(money.books.gatewayKeptCents).toBe(money.books.ledgerPaidCents);
  });

  it('a charge with no evidence is refused, naming the field, and nothing is written', async () => {
    const trip = await returnedTrip(ctx);
    const agent = await staffAt(ctx, 'agent', [trip.locationId]);
    const res = await ops(ctx, agent.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'smoking',
      reason: 'Smells of smoke.',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ field: 'evidence', message: 'Smoking Fee needs evidence first: a photo.' });
    const charges = await db().selectFrom('charges').select('id').where('reservation_id', '=', trip.id).execute();
    expect(charges).toEqual([]);
    const audit = await auditOf(ctx, trip.id);
    expect(audit.map((a) => [a.action, a.outcome])).toEqual([['charges.post', 'failure']]);
  });

  it('a declined card leaves the charge owed, told to the renter; nothing half-written', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const pm = (await db()
      .selectFrom('payments')
      .select('payment_method_id')
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .executeTakeFirstOrThrow())!.payment_method_id!;
    await db().updateTable('sandbox_payment_methods').set({ behaviour: 'charge_fails' }).where('id', '=', pm).execute();
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const h = await hold(trip);
    // The hold is settled first (nothing on it), so the whole charge goes to the card.
    expect((await ops(ctx, manager.cookie, 'POST', `/deposits/${h.id}/release`, {})).statusCode).toBe(200);
    const evidence = await photoEvidence(ctx, manager.cookie, trip.id);
    const posted = await ops(ctx, manager.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'missingKey',
      reason: 'The key card was not in the car.',
      evidenceIds: [evidence],
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().charges[0]).toMatchObject({ status: 'owed', owedCents: 15_000, toCardCents: 0 });
    const charges = await db()
      .selectFrom('payments')
      .select(['status', 'amount_captured'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .orderBy('created_at')
      .execute();
    expect(charges.at(-1)).toEqual({ status: 'canceled', amount_captured: 0 });
    const items = await db()
      .selectFrom('transactions')
      .select(['status', 'payment_id'])
      .where('reservation_id', '=', trip.id)
      .where('charge_id', 'is not', null)
      .execute();
    expect(items).toEqual([{ status: 'Pending', payment_id: null }]);
    expect(await agreedBooks(ctx, trip)).toBe(before);
    const told = await messagesOf(ctx, trip.id, 'charge_posted');
    expect(told[0]!.body).toContain('declined');
  });

  it('staff of another location get a 404 for the trip, its hold and its charges', async () => {
    const trip = await returnedTrip(ctx);
    const elsewhere = await staffAt(ctx, 'manager', ['999999']);
    expect((await ops(ctx, elsewhere.cookie, 'GET', `/trips/${trip.id}/charges`)).statusCode).toBe(404);
    const h = await hold(trip);
    expect((await ops(ctx, elsewhere.cookie, 'POST', `/deposits/${h.id}/release`, {})).statusCode).toBe(404);
    const res = await ops(ctx, elsewhere.cookie, 'GET', '/deposits');
    expect(res.json().deposits.some((d: { tripId: string }) => d.tripId === trip.id)).toBe(false);
  });

  it('the deposit list shows the hold with its brand and last four, expiry and review end, never a card number', async () => {
    const trip = await returnedTrip(ctx);
    const viewer = await staffAt(ctx, 'viewer', [trip.locationId]);
    const res = await ops(ctx, viewer.cookie, 'GET', `/deposits?tripId=${trip.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const [d] = res.json().deposits;
    expect(d).toMatchObject({
      status: 'in_review',
      amount: SECURITY_DEPOSIT_CENTS,
      cardBrand: 'visa',
      cardLast4: '4242',
      reauthoriseAt: null,
    });
    expect(new Date(d.reviewEndsAt).getTime()).toBeGreaterThan(ctx.clock.now.getTime());
    expect(d.expiresAt).not.toBeNull();
    expect(res.body).not.toMatch(/4242424242424242/);
  });
});
