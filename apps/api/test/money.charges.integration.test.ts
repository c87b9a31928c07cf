import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_REVIEW_HOURS, byChargeOrder } from '@ampere/domain/charges';
import { SECURITY_DEPOSIT_CENTS } from '@ampere/domain/constants';
import { settleReturnedDeposits } from '../src/features/trips/settle-deposit.ts';
import { type CrashPoint, armCrash } from '../src/crash.ts';
import { CARD_CHARGE_WAIT_MS, finishCardCharges } from '../src/features/money/service.ts';
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
    // The renter's view: on the deposit hold, to be taken from it; nothing owed on the card.
    const seen = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/charges/${charge.id}`,
      headers: trip.renter.headers,
    });
    expect(seen.json()).toMatchObject({ onHoldCents: 7_500, owedCents: 0, fromDepositCents: 0, toCardCents: 0 });
    // The console's payments read in staff's words, never the provider's statuses.
    const held = (await ops(ctx, agent.cookie, 'GET', `/trips/${trip.id}/charges`)).json();
    expect(held.payments.find((p: { kind: string }) => p.kind === 'DEPOSIT_HOLD').statusLabel).toBe(
      'Held (not yet taken)',
    );

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
    expect(money.payments.find((p: { kind: string }) => p.kind === 'DEPOSIT_HOLD').statusLabel).toBe(
      'Taken from the hold',
    );
    const renterSeen = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/charges/${charge.id}`,
      headers: trip.renter.headers,
    });
    expect(renterSeen.json()).toMatchObject({ onHoldCents: 0, owedCents: 0, fromDepositCents: 7_500 });
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
    // The card charge is told as the charge it pays, not as a charge for the trip's balance.
    expect((await messagesOf(ctx, trip.id, 'charge_posted')).length).toBeGreaterThan(0);
    expect(await messagesOf(ctx, trip.id, 'charge_made')).toEqual([]);
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

  /**
   * A card charge after the trip whose request stopped at `point` (the process died there: in this
   * process, the armed point throws, which leaves the database as dying would). The hold is settled
   * first, so the whole charge goes to the card. The trip, what was paid before, the charge's id.
   */
  async function cutOffCharge(point: CrashPoint, opts: { declines?: boolean } = {}) {
    const trip = await returnedTrip(ctx);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    expect((await ops(ctx, manager.cookie, 'POST', `/deposits/${(await hold(trip)).id}/release`, {})).statusCode).toBe(
      200,
    );
    const before = await agreedBooks(ctx, trip);
    if (opts.declines) {
      const card = await db()
        .selectFrom('payments')
        .select('payment_method_id')
        .where('reservation_id', '=', trip.id)
        .where('kind', '=', 'CHARGE')
        .executeTakeFirstOrThrow();
      await db()
        .updateTable('sandbox_payment_methods')
        .set({ behaviour: 'charge_fails' })
        .where('id', '=', card.payment_method_id!)
        .execute();
    }
    const evidence = await photoEvidence(ctx, manager.cookie, trip.id);
    armCrash(point, 'throw');
    let posted;
    try {
      posted = await ops(ctx, manager.cookie, 'POST', `/trips/${trip.id}/charges`, {
        type: 'damage',
        cents: 30_000,
        reason: 'Wing mirror cracked; body shop estimate attached.',
        evidenceIds: [evidence],
      });
    } finally {
      armCrash(undefined);
    }
    expect(posted.statusCode).toBe(500);
    const [charge] = await db()
      .selectFrom('charges')
      .select(['id', 'status'])
      .where('reservation_id', '=', trip.id)
      .execute();
    expect(charge!.status).toBe('posted');
    expect(await messagesOf(ctx, trip.id, 'charge_posted')).toEqual([]);
    return { trip, before, chargeId: charge!.id };
  }

  /** The sandbox's intents made for the trip's charges after the trip (by the key each was made with). */
  const cardIntents = async (trip: ReturnedTrip) => {
    const rows = await db()
      .selectFrom('payments')
      .select('id')
      .where('reservation_id', '=', trip.id)
      .where('off_session', '=', true)
      .execute();
    if (rows.length === 0) return [];
    return db()
      .selectFrom('sandbox_payment_intents')
      .select(['status', 'amount_received'])
      .where(
        'idempotency_key',
        'in',
        rows.map((r) => `payment-${r.id}`),
      )
      .execute();
  };

  const job = () => ctx.app.trips.jobDeps.payments;
  const later = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + CARD_CHARGE_WAIT_MS + 1_000));

  it.each([
    'charge-before-payment-row',
    'charge-after-payment-row',
    'charge-after-intent-created',
    'charge-before-confirm',
    'charge-after-confirm',
  ] as const)(
    'a card charge cut off at %s is finished once by the job: intents = ledger = charge page',
    async (point) => {
      const { trip, before, chargeId } = await cutOffCharge(point);
      // Not before the request has had its time.
      expect(await finishCardCharges(job())).toBe(0);
      later();
      expect(await finishCardCharges(job())).toBe(1);
      expect(await finishCardCharges(job())).toBe(0);
      expect(await cardIntents(trip)).toEqual([{ status: 'succeeded', amount_received: 30_000 }]);
      expect(await agreedBooks(ctx, trip)).toBe(before + 30_000);
      const page = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/charges/${chargeId}`,
        headers: trip.renter.headers,
      });
      expect(page.json()).toMatchObject({ status: 'charged', toCardCents: 30_000, owedCents: 0, cardLast4: '4242' });
      const told = await messagesOf(ctx, trip.id, 'charge_posted');
      expect(new Set(told.map((m) => m.dedupe_key)).size).toBe(1);
      // A second run, later still, changes nothing.
      later();
      expect(await finishCardCharges(job())).toBe(0);
      expect(await agreedBooks(ctx, trip)).toBe(before + 30_000);
      expect(await messagesOf(ctx, trip.id, 'charge_posted')).toHaveLength(told.length);
    },
  );

  it('a card charge cut off before its intent, on a card that declines: the job leaves it owed as the request would', async () => {
    const { trip, before, chargeId } = await cutOffCharge('charge-after-payment-row', { declines: true });
    later();
    expect(await finishCardCharges(job())).toBe(1);
    expect(await finishCardCharges(job())).toBe(0);
    expect(await cardIntents(trip)).toEqual([{ status: 'canceled', amount_received: 0 }]);
    expect(await agreedBooks(ctx, trip)).toBe(before);
    const page = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/charges/${chargeId}`, headers: trip.renter.headers })
    ).json();
    expect(page).toMatchObject({ status: 'owed', owedCents: 30_000, toCardCents: 0 });
    expect((await messagesOf(ctx, trip.id, 'charge_posted'))[0]!.body).toContain('declined');
  });

  it('a renter’s own payment of what they owe is never confirmed by the job', async () => {
    const { trip } = await cutOffCharge('charge-after-payment-row', { declines: true });
    later();
    await finishCardCharges(job());
    // The renter opens the pay page for the owed charge: a charge for them to confirm in the browser.
    const pay = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: trip.renter.headers,
      payload: { platform_id: trip.platformId },
    });
    expect(pay.statusCode, pay.body).toBeLessThan(300);
    later();
    expect(await finishCardCharges(job())).toBe(0);
    const open = await db()
      .selectFrom('payments')
      .select(['status', 'off_session'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .where('status', 'in', ['requires_payment_method', 'creating'])
      .execute();
    expect(open).toEqual([{ status: 'requires_payment_method', off_session: false }]);
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

  it('tolls and tickets from a CSV: matched by plate or VIN and time, unmatched rows listed, posted all or nothing, once', async () => {
    const trip = await returnedTrip(ctx);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const row = await db()
      .selectFrom('reservations')
      .select(['vehicle_id', 'on_rent_at', 'returned_at'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    // The car form's API takes a plate in any spacing and case, and keeps it normalised.
    const plate = `T${String(row.vehicle_id).padStart(6, '0')}`.slice(0, 8);
    const edited = await ops(ctx, manager.cookie, 'PATCH', `/cars/${row.vehicle_id}`, {
      licensePlate: `${plate.slice(0, 3).toLowerCase()} ${plate.slice(3)}`,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().licensePlate).toBe(plate);
    const during = new Date(new Date(row.on_rent_at!).getTime() + HOUR).toISOString();
    const after = new Date(new Date(row.returned_at!).getTime() + 5 * HOUR).toISOString();
    const header = 'type,plate,vin,at,amount,reference,description';
    const good = [
      `toll,${plate},,${during},4.75,T-${trip.id.slice(0, 8)},Bay Bridge`,
      `ticket,,${trip.vin},${during},$65.00,P-${trip.id.slice(0, 8)},"Parking, 2nd St"`,
    ];
    const bad = `toll,${plate},,${after},3.00,T2-${trip.id.slice(0, 8)},After the return`;
    const csv = (lines: string[]) => `${[header, ...lines].join('\n')}\n`;
    const send = (text: string, dryRun: boolean) =>
      ops(ctx, manager.cookie, 'POST', `/tolls/import?dryRun=${dryRun}`, text, { 'content-type': 'text/csv' });
    const before = await agreedBooks(ctx, trip);

    const check = await send(csv([...good, bad]), true);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().matched.map((m: { row: number; tripId: string }) => [m.row, m.tripId])).toEqual([
      [2, trip.id],
      [3, trip.id],
    ]);
    // A matched row carries its trip's lot's zone (the console shows the time on that clock); an
    // unmatched one, its time exactly as the statement wrote it.
    const { timezone } = await db()
      .selectFrom('locations')
      .select('timezone')
      .where('id', '=', Number(trip.locationId))
      .executeTakeFirstOrThrow();
    expect(check.json().matched.map((m: { timezone: string }) => m.timezone)).toEqual([timezone, timezone]);
    expect(check.json().unmatched).toEqual([
      { row: 4, line: bad, statedAt: after, reason: 'The car was not out on a trip at that time.' },
    ]);
    expect(check.json().totalCents).toBe(475 + 6_500 + 1_500);
    const refused = await send(csv([...good, bad]), false);
    expect(refused.json()).toMatchObject({ posted: false, chargeIds: [] });
    expect(await db().selectFrom('charges').select('id').where('reservation_id', '=', trip.id).execute()).toEqual([]);

    const posted = await send(csv(good), false);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ posted: true });
    expect(posted.json().chargeIds).toHaveLength(3);
    const money = (await ops(ctx, manager.cookie, 'GET', `/trips/${trip.id}/charges`)).json();
    type Posted = { type: string; amount: number; administrationOf: string | null; id: string; evidence: unknown[] };
    const byType = new Map((money.charges as Posted[]).map((c) => [c.type, c]));
    expect([...byType.entries()].map(([t, c]) => [t, c.amount]).sort()).toEqual([
      ['ticket', 6_500],
      ['ticketAdministration', 1_500],
      ['toll', 475],
    ]);
    expect(byType.get('ticketAdministration')!.administrationOf).toBe(byType.get('ticket')!.id);
    // One order, every read: the toll and the ticket (violations) before the ticket's fee (incidental).
    const listed = (money.charges as Posted[]).map((c) => c.type);
    expect(listed.at(-1)).toBe('ticketAdministration');
    expect((money.charges as (Posted & { postedAt: string })[]).map((c) => c.id)).toEqual(
      byChargeOrder(money.charges as (Posted & { postedAt: string; type: 'toll' })[], (c) => c).map((c) => c.id),
    );
    const renterList = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/reservations/${trip.platformId}/charges`,
      headers: trip.renter.headers,
    });
    expect(renterList.json().charges.map((c: { id: string }) => c.id)).toEqual(
      (money.charges as Posted[]).map((c) => c.id),
    );
    expect(byType.get('toll')!.evidence[0]).toMatchObject({ kind: 'document', label: 'Statement row 2' });
    const h = await hold(trip);
    expect((await ops(ctx, manager.cookie, 'POST', `/deposits/${h.id}/release`, {})).statusCode).toBe(200);
    expect(await agreedBooks(ctx, trip)).toBe(before + 475 + 6_500 + 1_500);
    const again = await send(csv(good), true);
    expect(again.json().unmatched.map((u: { reason: string }) => u.reason)).toEqual([
      'Already imported: this row was posted before.',
      'Already imported: this row was posted before.',
    ]);
  });
  it('an inspection photo of the trip backs a charge, and staff and renter see that photo; another trip’s is refused', async () => {
    const trip = await returnedTrip(ctx);
    const other = await returnedTrip(ctx);
    const agent = await staffAt(ctx, 'agent', [trip.locationId, other.locationId]);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#7a5' } })
      .jpeg()
      .toBuffer();
    const upload = async (t: ReturnedTrip) => {
      const res = await ops(ctx, agent.cookie, 'POST', `/trips/${t.id}/inspections/check_in/photos/INTERIOR`, jpeg, {
        'content-type': 'image/jpeg',
      });
      expect(res.statusCode, res.body).toBe(201);
      const record = await db()
        .selectFrom('inspection_photos as p')
        .innerJoin('inspections as i', 'i.id', 'p.inspection_id')
        .select(['p.id', 'p.inspection_id'])
        .where('i.reservation_id', '=', t.id)
        .where('p.view', '=', 'INTERIOR')
        .executeTakeFirstOrThrow();
      return record;
    };
    const mine = await upload(trip);
    const theirs = await upload(other);
    const path = `/media/inspections/${mine.inspection_id}/${mine.id}-960.webp`;

    const wrong = await ops(ctx, agent.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'cleaning',
      reason: 'Mud on the seats.',
      inspectionPhotoIds: [theirs.id],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toContain('not one of this trip');
    expect(await db().selectFrom('charges').select('id').where('reservation_id', '=', trip.id).execute()).toEqual([]);

    const posted = await ops(ctx, agent.cookie, 'POST', `/trips/${trip.id}/charges`, {
      type: 'cleaning',
      reason: 'Mud on the seats.',
      inspectionPhotoIds: [mine.id],
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const [charge] = posted.json().charges;
    expect(charge.evidence).toEqual([
      expect.objectContaining({ kind: 'photo', inspectionPhotoId: mine.id, url: path }),
    ]);
    const seen = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/charges/${charge.id}`,
      headers: trip.renter.headers,
    });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(JSON.stringify(seen.json())).toContain(path);
    const file = await ctx.app.inject({ method: 'GET', url: path });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('image/webp');
  });
});
