import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPUTE_WINDOW_HOURS } from '@ampere/domain/charges';
import { REFUND_LIMIT_CENTS } from '@ampere/domain/staff';
import { AppError } from '../src/http/errors.ts';
import { REFUND_ANSWER_WAIT_MS, finishStaffRefunds } from '../src/features/money/service.ts';
import { engines } from './harness.ts';
import {
  type ReturnedTrip,
  TINY_PDF,
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

describe.each(engines())('disputes and refunds on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const holdId = async (trip: ReturnedTrip) =>
    (
      await db()
        .selectFrom('payments')
        .select('id')
        .where('reservation_id', '=', trip.id)
        .where('kind', '=', 'DEPOSIT_HOLD')
        .executeTakeFirstOrThrow()
    ).id;
  const renterCall = (trip: ReturnedTrip, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url, headers: trip.renter.headers, ...(payload ? { payload } : {}) });

  /** A charge posted on the trip by a manager: its id. */
  async function post(trip: ReturnedTrip, body: Record<string, unknown>) {
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const evidence = await photoEvidence(ctx, manager.cookie, trip.id);
    const res = await ops(ctx, manager.cookie, 'POST', `/trips/${trip.id}/charges`, {
      reason: 'Found at the return inspection.',
      evidenceIds: [evidence],
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().charges[0].id as string;
  }

  it('the renter sees their charge with its evidence; another renter gets a 404; the evidence address works for them only', async () => {
    const trip = await returnedTrip(ctx);
    const chargeId = await post(trip, { type: 'cleaning' });
    const mine = await renterCall(trip, 'GET', `/api/v1/charges/${chargeId}`);
    expect(mine.statusCode, mine.body).toBe(200);
    const charge = mine.json();
    expect(charge).toMatchObject({ label: 'Cleaning Fee', amount: 7_500, canDispute: true, dispute: null });
    const file = await ctx.app.inject({ method: 'GET', url: charge.evidence[0].url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const tampered = await ctx.app.inject({
      method: 'GET',
      // Change the signature's first character to one it is not, so the address always differs.
      url: charge.evidence[0].url.replace(
        /signature=(.)/,
        (_: string, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`,
      ),
    });
    expect(tampered.statusCode).toBe(404);
    const list = await renterCall(trip, 'GET', `/api/v1/reservations/${trip.platformId}/charges`);
    expect(list.json().charges.map((c: { id: string }) => c.id)).toEqual([chargeId]);
    const other = await returnedTrip(ctx);
    expect((await renterCall(other, 'GET', `/api/v1/charges/${chargeId}`)).statusCode).toBe(404);
    expect(
      (await renterCall(other, 'POST', `/api/v1/charges/${chargeId}/dispute`, { reason: 'Not my mess at all.' }))
        .statusCode,
    ).toBe(404);
  });

  it('a dispute within 72 hours holds a charge not yet taken; the hold settles without it; rejected with a reason, it is charged to the card', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const chargeId = await post(trip, { type: 'cleaning' });
    const tooShort = await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, { reason: 'no' });
    expect(tooShort.statusCode).toBe(400);
    const disputed = await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, {
      reason: 'Nobody smoked in the car; the smell was there at pickup.',
    });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json()).toMatchObject({ status: 'disputed', canDispute: false });
    const again = await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, {
      reason: 'Once more, please.',
    });
    expect(again.statusCode).toBe(409);

    // The manager settles the hold: the disputed charge is not taken.
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const settled = await ops(ctx, manager.cookie, 'POST', `/deposits/${await holdId(trip)}/release`, {});
    expect(settled.json().deposit).toMatchObject({ status: 'released', capturedCents: 0 });
    expect(await agreedBooks(ctx, trip)).toBe(before);

    const queue = (await ops(ctx, manager.cookie, 'GET', `/disputes?locationId=${trip.locationId}`)).json();
    const item = queue.items.find((i: { charge: { id: string } }) => i.charge.id === chargeId);
    expect(item.dispute.text).toContain('Nobody smoked');
    const agent = await staffAt(ctx, 'agent', [trip.locationId]);
    expect(
      (
        await ops(ctx, agent.cookie, 'POST', `/disputes/${item.dispute.id}/reject`, {
          reason: 'Ash in the cup holder, see photo.',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await ops(ctx, manager.cookie, 'POST', `/disputes/${item.dispute.id}/reject`, { reason: 'short' })).statusCode,
    ).toBe(400);
    const rejected = await ops(ctx, manager.cookie, 'POST', `/disputes/${item.dispute.id}/reject`, {
      reason: 'Ash in the cup holder and burn marks, see the photo.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().charge).toMatchObject({ status: 'upheld', toCardCents: 7_500, owedCents: 0 });
    expect(await agreedBooks(ctx, trip)).toBe(before + 7_500);
    const seen = (await renterCall(trip, 'GET', `/api/v1/charges/${chargeId}`)).json();
    expect(seen.dispute).toMatchObject({
      outcome: 'rejected',
      staffReason: 'Ash in the cup holder and burn marks, see the photo.',
    });
    expect((await messagesOf(ctx, trip.id, 'dispute_decided'))[0]!.body).toContain('the charge stands');
    const audit = await auditOf(ctx, trip.id);
    expect(audit.filter((a) => a.outcome === 'success').map((a) => a.action)).toContain('disputes.decide');
  });

  it('a dispute of a charge already taken: accepted, it is refunded to the cent and the renter sees the outcome', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const chargeId = await post(trip, { type: 'missingAdapter' });
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    await ops(ctx, manager.cookie, 'POST', `/deposits/${await holdId(trip)}/release`, {});
    expect(await agreedBooks(ctx, trip)).toBe(before + 25_000);
    await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, {
      reason: 'The adapter is in the frunk, look again.',
    });
    // Taken, it stays taken until decided.
    expect(await agreedBooks(ctx, trip)).toBe(before + 25_000);
    const [dispute] = await db().selectFrom('charge_disputes').select('id').where('charge_id', '=', chargeId).execute();
    const accepted = await ops(ctx, manager.cookie, 'POST', `/disputes/${dispute!.id}/accept`, {
      reason: 'Found in the frunk.',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().charge).toMatchObject({ status: 'refunded', refundedCents: 25_000 });
    // Taken partly from the hold ($200) and partly from the card: both are refunded.
    expect(accepted.json().refund).not.toBeNull();
    const refunds = await db().selectFrom('refunds').select('amount').where('reservation_id', '=', trip.id).execute();
    expect(refunds.map((r) => r.amount).sort((a, b) => a - b)).toEqual([5_000, 20_000]);
    expect(await agreedBooks(ctx, trip)).toBe(before);
    const seen = (await renterCall(trip, 'GET', `/api/v1/charges/${chargeId}`)).json();
    expect(seen).toMatchObject({ status: 'refunded', dispute: { outcome: 'accepted' } });
    const receipt = (await renterCall(trip, 'GET', `/api/v1/reservations/${trip.platformId}/receipt`)).json();
    expect(receipt.total).toBe(before);
    expect(
      (await ops(ctx, manager.cookie, 'POST', `/disputes/${dispute!.id}/reject`, { reason: 'Changed my mind here.' }))
        .statusCode,
    ).toBe(409);
  });

  it('after the window a dispute is refused with a message saying so', async () => {
    const trip = await returnedTrip(ctx);
    const chargeId = await post(trip, { type: 'cleaning' });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + (DISPUTE_WINDOW_HOURS + 1) * HOUR);
    const late = await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, {
      reason: 'It was clean when I left.',
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toContain('72 hours');
  });

  it('refunds: an agent cannot, a manager up to the limit, the owner beyond; partial and full; books agree after each', async () => {
    const trip = await returnedTrip(ctx);
    await post(trip, { type: 'damage', cents: 90_000 });
    const before = await agreedBooks(ctx, trip);
    const card = await db()
      .selectFrom('payments')
      .select(['id', 'amount_captured'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .where('status', '=', 'succeeded')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(card.amount_captured).toBe(90_000 - 20_000);
    const agent = await staffAt(ctx, 'agent', [trip.locationId]);
    expect(
      (await ops(ctx, agent.cookie, 'POST', `/payments/${card.id}/refunds`, { cents: 1_000, reason: 'Goodwill' }))
        .statusCode,
    ).toBe(403);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const over = await ops(ctx, manager.cookie, 'POST', `/payments/${card.id}/refunds`, {
      cents: REFUND_LIMIT_CENTS.manager! + 1,
      reason: 'Estimate was too high',
    });
    expect(over.statusCode).toBe(403);
    expect(over.json().message).toContain('$500.00');
    const part = await ops(ctx, manager.cookie, 'POST', `/payments/${card.id}/refunds`, {
      cents: 12_345,
      reason: 'Estimate was too high',
    });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().payment).toMatchObject({ refundedCents: 12_345, refundableCents: 70_000 - 12_345 });
    expect(await agreedBooks(ctx, trip)).toBe(before - 12_345);
    const owner = await staffAt(ctx, 'owner', null);
    const rest = await ops(ctx, owner.cookie, 'POST', `/payments/${card.id}/refunds`, {
      reason: 'Repair was covered by the body shop',
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().refund.amount).toBe(70_000 - 12_345);
    expect(await agreedBooks(ctx, trip)).toBe(before - 70_000);
    const nothing = await ops(ctx, owner.cookie, 'POST', `/payments/${card.id}/refunds`, { reason: 'Once more' });
    expect(nothing.statusCode).toBe(409);
    const sandbox = await db()
      .selectFrom('sandbox_refunds')
      .select('amount')
      .where(
        'payment_intent_id',
        'in',
        db()
          .selectFrom('payments')
          .select('provider_intent_id')
          .where('id', '=', card.id)
          .$narrowType<{ provider_intent_id: string }>(),
      )
      .execute();
    expect(sandbox.map((r) => r.amount).sort((a, b) => a - b)).toEqual([12_345, 70_000 - 12_345].sort((a, b) => a - b));
    const audit = await auditOf(ctx, trip.id);
    expect(audit.filter((a) => a.action === 'refunds.issue' && a.outcome === 'success')).toHaveLength(2);
    expect((await messagesOf(ctx, trip.id, 'refund_made')).length).toBeGreaterThan(0);
  });

  it('a refund from the captured deposit gives back part of what the hold kept', async () => {
    const trip = await returnedTrip(ctx);
    await post(trip, { type: 'cleaning' });
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const id = await holdId(trip);
    await ops(ctx, manager.cookie, 'POST', `/deposits/${id}/release`, {});
    const before = await agreedBooks(ctx, trip);
    const res = await ops(ctx, manager.cookie, 'POST', `/payments/${id}/refunds`, {
      cents: 2_500,
      reason: 'Only one seat was dirty',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await agreedBooks(ctx, trip)).toBe(before - 2_500);
  });

  it('capture part of a hold with a reason and evidence: one capture, the rest released', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    const upload = await ops(
      ctx,
      manager.cookie,
      'POST',
      `/trips/${trip.id}/evidence?kind=document&label=Invoice`,
      TINY_PDF,
      {
        'content-type': 'application/pdf',
      },
    );
    expect(upload.statusCode, upload.body).toBe(201);
    const res = await ops(ctx, manager.cookie, 'POST', `/deposits/${await holdId(trip)}/capture`, {
      cents: 4_200,
      reason: 'Charging cable replaced, invoice attached.',
      evidenceIds: [upload.json().id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deposit).toMatchObject({ status: 'captured', capturedCents: 4_200 });
    expect(await agreedBooks(ctx, trip)).toBe(before + 4_200);
    const noEvidence = await returnedTrip(ctx);
    const theirs = await staffAt(ctx, 'manager', [noEvidence.locationId]);
    const refused = await ops(ctx, theirs.cookie, 'POST', `/deposits/${await holdId(noEvidence)}/capture`, {
      cents: 1_000,
      reason: 'No proof given.',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().field).toBe('evidence');
  });
  it('a refund the provider made but never answered waits, refuses a second, and is finished once by the job: books agree', async () => {
    const trip = await returnedTrip(ctx);
    await post(trip, { type: 'damage', cents: 90_000 });
    const before = await agreedBooks(ctx, trip);
    const card = await db()
      .selectFrom('payments')
      .select(['id', 'provider_intent_id'])
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .where('status', '=', 'succeeded')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const owner = await staffAt(ctx, 'owner', null);
    // The provider makes the refund, but its answer is lost on the way back.
    const real = ctx.gateway.refund.bind(ctx.gateway);
    ctx.gateway.refund = async (...args: Parameters<typeof real>) => {
      await real(...args);
      throw new AppError('UNAVAILABLE', 'Card payments are not reachable right now. Please try again in a minute.');
    };
    let lost;
    try {
      lost = await ops(ctx, owner.cookie, 'POST', `/payments/${card.id}/refunds`, {
        cents: 10_000,
        reason: 'Goodwill',
      });
    } finally {
      ctx.gateway.refund = real;
    }
    expect(lost.statusCode).toBe(503);
    const again = await ops(ctx, owner.cookie, 'POST', `/payments/${card.id}/refunds`, {
      cents: 5_000,
      reason: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('still being confirmed');

    const job = ctx.app.trips.jobDeps.payments;
    expect(await finishStaffRefunds(job)).toBe(0);
    ctx.clock.now = new Date(ctx.clock.now.getTime() + REFUND_ANSWER_WAIT_MS + 1_000);
    expect(await finishStaffRefunds(job)).toBe(1);
    expect(await finishStaffRefunds(job)).toBe(0);
    const given = await db()
      .selectFrom('sandbox_refunds')
      .select('amount')
      .where('payment_intent_id', '=', card.provider_intent_id!)
      .execute();
    expect(given.map((r) => r.amount)).toEqual([10_000]);
    expect(await agreedBooks(ctx, trip)).toBe(before - 10_000);
    const audit = await auditOf(ctx, trip.id);
    expect(audit.filter((a) => a.action === 'refunds.issue' && a.outcome === 'success')).toHaveLength(1);
    // The renter is told once, as the request would have told them.
    const told = await messagesOf(ctx, trip.id, 'refund_made');
    expect(new Set(told.map((m) => m.dedupe_key)).size).toBe(1);
    expect(told[0]!.body).toContain('$100.00');
  });

  it('a dispute refund whose answer was lost is finished by the job with no refund message; the decision then tells the whole refund once', async () => {
    const trip = await returnedTrip(ctx);
    const before = await agreedBooks(ctx, trip);
    const chargeId = await post(trip, { type: 'missingAdapter' });
    const manager = await staffAt(ctx, 'manager', [trip.locationId]);
    await ops(ctx, manager.cookie, 'POST', `/deposits/${await holdId(trip)}/release`, {});
    await renterCall(trip, 'POST', `/api/v1/charges/${chargeId}/dispute`, {
      reason: 'The adapter is in the frunk, look again.',
    });
    const [dispute] = await db().selectFrom('charge_disputes').select('id').where('charge_id', '=', chargeId).execute();
    const accept = () =>
      ops(ctx, manager.cookie, 'POST', `/disputes/${dispute!.id}/accept`, { reason: 'Found in the frunk.' });
    // The provider makes the dispute's first refund, but its answer is lost on the way back.
    const real = ctx.gateway.refund.bind(ctx.gateway);
    ctx.gateway.refund = async (...args: Parameters<typeof real>) => {
      await real(...args);
      throw new AppError('UNAVAILABLE', 'Card payments are not reachable right now. Please try again in a minute.');
    };
    let lost;
    try {
      lost = await accept();
    } finally {
      ctx.gateway.refund = real;
    }
    expect(lost.statusCode).toBe(503);
    const waiting = await db()
      .selectFrom('refunds')
      .select(['amount', 'provider_refund_id'])
      .where('dispute_id', '=', dispute!.id)
      .execute();
    expect(waiting).toEqual([{ amount: expect.any(Number), provider_refund_id: null }]);
    expect((await accept()).statusCode).toBe(409);

    const job = ctx.app.trips.jobDeps.payments;
    ctx.clock.now = new Date(ctx.clock.now.getTime() + REFUND_ANSWER_WAIT_MS + 1_000);
    expect(await finishStaffRefunds(job)).toBe(1);
    expect(await finishStaffRefunds(job)).toBe(0);
    // Finished: the provider's refunds, the ledger and the receipt agree; the renter is not told yet.
    expect(await agreedBooks(ctx, trip)).toBe(before + 25_000 - waiting[0]!.amount);
    expect(await messagesOf(ctx, trip.id, 'refund_made')).toEqual([]);
    expect(await messagesOf(ctx, trip.id, 'dispute_decided')).toEqual([]);
    expect((await auditOf(ctx, trip.id)).filter((a) => a.action === 'refunds.issue')).toEqual([]);

    // Accepted again: the rest is refunded, and the outcome names all that came back, once.
    const accepted = await accept();
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().charge).toMatchObject({ status: 'refunded', refundedCents: 25_000 });
    expect(await agreedBooks(ctx, trip)).toBe(before);
    const receipt = (await renterCall(trip, 'GET', `/api/v1/reservations/${trip.platformId}/receipt`)).json();
    expect(receipt.total).toBe(before);
    expect(await messagesOf(ctx, trip.id, 'refund_made')).toEqual([]);
    const decided = await messagesOf(ctx, trip.id, 'dispute_decided');
    expect(decided.length).toBeGreaterThan(0);
    for (const m of decided) expect(m.body).toContain('$250.00 is refunded');
    expect(await finishStaffRefunds(job)).toBe(0);
    expect(await agreedBooks(ctx, trip)).toBe(before);
  });
});
