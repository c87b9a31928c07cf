import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeObject, intentObject } from '../src/features/payments/sandbox-events.ts';
import { syncPaymentIntent } from '../src/features/trips/sync.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip } from './factories.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

// The test clock is 22 November 2026; this expiry is in the future.
const GOOD = { exp_month: 12, exp_year: 2030, cvc: '123' };

type Trip = StartedTrip;

describe.each(engines())('paying for a reservation with the sandbox gateway on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const pay = (who: SignedIn, platformId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: who.headers,
      payload: { platform_id: platformId },
    });
  const confirmReservation = (who: SignedIn, platformId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations/confirm',
      headers: who.headers,
      payload: { platform_id: platformId },
    });
  /** What the browser does with a client secret: confirms it with the provider, with a new card or a saved one. */
  const confirmWithCard = (clientSecret: string, number: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, card: { number, ...GOOD } },
    });
  const confirmWithSaved = (clientSecret: string, paymentMethod: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, payment_method: paymentMethod },
    });
  const secretsFor = async (who: SignedIn, trip: Trip) => {
    const res = await pay(who, trip.platformId);
    expect(res.statusCode).toBe(200);
    return res.json().stripe as {
      provider: string;
      publishable_key: string | null;
      client_secret: string | null;
      deposit_client_secret: string | null;
    };
  };
  const rows = (trip: Trip) =>
    ctx.handle.db
      .selectFrom('transactions')
      .select([
        'category',
        'status',
        'amount',
        'discount_amount',
        'captured_amount',
        'card_last_4',
        'payment_id',
        'released_at',
      ])
      .where('reservation_id', '=', trip.id)
      .orderBy('category')
      .execute();
  const payments = (trip: Trip) =>
    ctx.handle.db
      .selectFrom('payments')
      .select([
        'id',
        'kind',
        'status',
        'amount',
        'capture_method',
        'provider_intent_id',
        'amount_captured',
        'amount_refunded',
        'card_last_4',
        'last_error',
      ])
      .where('reservation_id', '=', trip.id)
      .orderBy('kind')
      .orderBy('status')
      .execute();
  const reservationRow = (trip: Trip) =>
    ctx.handle.db
      .selectFrom('reservations')
      .select(['status', 'confirmed_at'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
  const syncDeps = () => ({ db: ctx.handle.db, gateway: ctx.gateway, clock: () => ctx.clock.now });

  /** A trip paid the way the browser pays: the charge with a new card, the deposit with the card just saved. */
  async function paidTrip(who: SignedIn, card = '4242424242424242') {
    const trip = await startedTrip(ctx.handle.db, who.userId, TEST_NOW);
    const secrets = await secretsFor(who, trip);
    const charged = await confirmWithCard(secrets.client_secret!, card);
    expect(charged.statusCode).toBe(200);
    const held = await confirmWithSaved(secrets.deposit_client_secret!, charged.json().payment_method);
    expect(held.statusCode).toBe(200);
    const confirmed = await confirmReservation(who, trip.platformId);
    expect(confirmed.statusCode).toBe(200);
    return { trip, secrets, reservation: confirmed.json().reservation };
  }

  it('POST /payments gives the charge’s and the deposit hold’s client secrets, and links the line items to them', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW, { discount: 1_000 });
    const res = await pay(renter, trip.platformId);
    expect(res.statusCode).toBe(200);
    const { reservation, stripe } = res.json();
    expect(reservation.platform_id).toBe(trip.platformId);
    expect(reservation.status).toBe('Started');
    expect(stripe).toMatchObject({ provider: 'sandbox', publishable_key: null });
    expect(stripe.client_secret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    expect(stripe.deposit_client_secret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    expect(stripe.deposit_client_secret).not.toBe(stripe.client_secret);

    const [charge, hold] = await payments(trip);
    // The charge is rack and tax net of the discount; the hold is the $200.00 deposit, captured manually.
    expect(charge).toMatchObject({
      kind: 'CHARGE',
      amount: trip.due,
      capture_method: 'automatic',
      status: 'requires_payment_method',
    });
    expect(hold).toMatchObject({
      kind: 'DEPOSIT_HOLD',
      amount: 20_000,
      capture_method: 'manual',
      status: 'requires_payment_method',
    });
    const byCategory = Object.fromEntries((await rows(trip)).map((r) => [r.category, r]));
    expect(byCategory.Rack!.payment_id).toBe(charge!.id);
    expect(byCategory.Tax!.payment_id).toBe(charge!.id);
    expect(byCategory.Deposit!.payment_id).toBe(hold!.id);
    // The intents carry our ids, so each can be traced back to its rows.
    const intent = await ctx.gateway.retrievePaymentIntent(charge!.provider_intent_id!);
    expect(intent.metadata).toEqual({ reservation_id: trip.id, payment_id: charge!.id, kind: 'CHARGE' });
  });

  it('card 4242 for the charge and the saved card for the deposit: confirmed, items paid, deposit authorised, balance 0', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const secrets = await secretsFor(renter, trip);
    const charged = await confirmWithCard(secrets.client_secret!, '4242 4242 4242 4242');
    expect(charged.statusCode).toBe(200);
    expect(charged.json()).toMatchObject({ status: 'succeeded', amount: trip.due, last_payment_error: null });
    const pm = charged.json().payment_method as string;
    expect(pm).toMatch(/^pm_/);
    // setup_future_usage saved the new card to the renter.
    const cards = (await ctx.app.inject({ url: '/api/v1/users/credit-cards', headers: renter.headers })).json().cards;
    expect(cards).toEqual([expect.objectContaining({ id: pm, last4: '4242', card_brand: 'visa' })]);

    const held = await confirmWithSaved(secrets.deposit_client_secret!, pm);
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({ status: 'requires_capture', amount: 20_000, payment_method: pm });
    // Nothing is confirmed on the browser's word alone: until we hear from the provider, still Started.
    expect((await reservationRow(trip)).status).toBe('Started');

    const res = await confirmReservation(renter, trip.platformId);
    expect(res.statusCode).toBe(200);
    const { reservation } = res.json();
    expect(reservation.status).toBe('Pending');
    expect(reservation.payment_balance).toBe(0);
    expect((await reservationRow(trip)).confirmed_at).toEqual(TEST_NOW);
    const byCategory = Object.fromEntries((await rows(trip)).map((r) => [r.category, r]));
    expect(byCategory.Rack).toMatchObject({
      status: 'Successful',
      card_last_4: '4242',
      captured_amount: byCategory.Rack!.amount - byCategory.Rack!.discount_amount,
    });
    expect(byCategory.Tax).toMatchObject({
      status: 'Successful',
      card_last_4: '4242',
      captured_amount: byCategory.Tax!.amount,
    });
    expect(byCategory.Deposit).toMatchObject({
      status: 'Pending',
      card_last_4: '4242',
      captured_amount: 0,
      released_at: null,
    });
    const [charge, hold] = await payments(trip);
    expect(charge).toMatchObject({
      status: 'succeeded',
      amount_captured: trip.due,
      card_last_4: '4242',
      last_error: null,
    });
    expect(hold).toMatchObject({ status: 'requires_capture', amount_captured: 0, card_last_4: '4242' });
    // The transactions the page shows carry the provider's intent ids.
    const rack = reservation.transactions.find((t: { category: string }) => t.category === 'Rack');
    expect(rack.stripe_payment_intent_id).toBe(charge!.provider_intent_id);

    // The provider's events were written as the states changed (delivery is the webhook tests' concern).
    const events = await ctx.handle.db
      .selectFrom('sandbox_events')
      .select(['type', 'payload'])
      .orderBy('seq')
      .execute();
    const forTrip = events.filter((e) =>
      [charge!.provider_intent_id, hold!.provider_intent_id].includes(
        (e.payload as { data: { object: { id: string } } }).data.object.id,
      ),
    );
    expect(forTrip.map((e) => e.type)).toEqual([
      'payment_intent.succeeded',
      'payment_intent.amount_capturable_updated',
    ]);

    // Paid up: a second POST /payments has nothing to confirm; the renter's page heard of both payments.
    expect((await pay(renter, trip.platformId)).json().stripe).toBeNull();
    expect(
      ctx.published
        .filter((p) => (p.data as { platform_id?: string }).platform_id === trip.platformId)
        .map((p) => p.event),
    ).toEqual(['payment-intent-succeeded', 'payment-intent-succeeded']);
  });

  it('a declined card (0002) is a 402 with Stripe’s message; the trip stays Started and unpaid; a retry with 4242 reuses the same charge', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const secrets = await secretsFor(renter, trip);
    const declined = await confirmWithCard(secrets.client_secret!, '4000000000000002');
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({
      statusCode: 402,
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });

    const after = await confirmReservation(renter, trip.platformId);
    expect(after.json().reservation.status).toBe('Started');
    expect((await rows(trip)).every((r) => r.status === 'Pending')).toBe(true);
    const [charge] = await payments(trip);
    expect(charge).toMatchObject({ status: 'requires_payment_method', last_error: 'Your card was declined.' });
    expect(
      ctx.published
        .filter((p) => (p.data as { platform_id?: string }).platform_id === trip.platformId)
        .map((p) => p.event),
    ).toEqual(['payment-intent-failed']);

    // The pay page loads again: the same charge, not a second one.
    const again = await secretsFor(renter, trip);
    expect(again).toEqual(secrets);
    expect((await confirmWithCard(again.client_secret!, '4242424242424242')).statusCode).toBe(200);
    expect((await confirmWithCard(again.deposit_client_secret!, '4242424242424242')).statusCode).toBe(200);
    expect((await confirmReservation(renter, trip.platformId)).json().reservation.status).toBe('Pending');
    const all = await payments(trip);
    expect(all.map((p) => [p.kind, p.status])).toEqual([
      ['CHARGE', 'succeeded'],
      ['DEPOSIT_HOLD', 'requires_capture'],
    ]);
    expect(all[0]!.last_error).toBeNull();
  });

  it('9995 is refused for insufficient funds; a bad number, a past expiry and a short CVC are refused as card errors too', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const { client_secret } = await secretsFor(renter, trip);
    const funds = await confirmWithCard(client_secret!, '4000000000009995');
    expect(funds.statusCode).toBe(402);
    expect(funds.json()).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    const luhn = await confirmWithCard(client_secret!, '4242424242424241');
    expect(luhn.json()).toMatchObject({ statusCode: 402, code: 'incorrect_number', param: 'number' });
    const expired = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret, card: { number: '4242424242424242', exp_month: 1, exp_year: 2020, cvc: '123' } },
    });
    expect(expired.json()).toMatchObject({ statusCode: 402, code: 'invalid_expiry_year' });
    const cvc = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret, card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '12' } },
    });
    expect(cvc.json()).toMatchObject({ statusCode: 402, code: 'invalid_cvc' });
    // None of the refused cards was saved.
    expect((await ctx.app.inject({ url: '/api/v1/users/credit-cards', headers: renter.headers })).json().cards).toEqual(
      [],
    );
  });

  it('4000 0000 0000 0341 saves, but charging it fails with card_declined, new or saved, charge or hold', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const secrets = await secretsFor(renter, trip);
    const asNew = await confirmWithCard(secrets.client_secret!, '4000000000000341');
    expect(asNew.statusCode).toBe(402);
    expect(asNew.json()).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
    });

    // Saved on the profile (it attaches), then used for the hold: refused all the same.
    const setup = (
      await ctx.app.inject({ method: 'POST', url: '/api/v1/payments/setup-intent', headers: renter.headers })
    ).json().stripe.client_secret;
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/setup_intents/confirm',
      payload: { client_secret: setup, card: { number: '4000000000000341', ...GOOD } },
    });
    expect(saved.statusCode).toBe(200);
    const held = await confirmWithSaved(secrets.deposit_client_secret!, saved.json().payment_method);
    expect(held.statusCode).toBe(402);
    expect(held.json()).toMatchObject({ code: 'card_declined' });

    const res = await confirmReservation(renter, trip.platformId);
    expect(res.json().reservation.status).toBe('Started');
    expect((await payments(trip)).map((p) => [p.kind, p.status, p.last_error])).toEqual([
      ['CHARGE', 'requires_payment_method', 'Your card was declined.'],
      ['DEPOSIT_HOLD', 'requires_payment_method', 'Your card was declined.'],
    ]);
    expect((await rows(trip)).every((r) => r.status === 'Pending' && r.card_last_4 === null)).toBe(true);
  });

  it('two POST /payments at once make one charge and one hold', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const results = await Promise.all([
      pay(renter, trip.platformId),
      pay(renter, trip.platformId),
      pay(renter, trip.platformId),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const secrets = results.map((r) => r.json().stripe);
    expect(new Set(secrets.map((s) => s.client_secret)).size).toBe(1);
    expect(new Set(secrets.map((s) => s.deposit_client_secret)).size).toBe(1);
    expect((await payments(trip)).map((p) => p.kind)).toEqual(['CHARGE', 'DEPOSIT_HOLD']);
    const intents = await ctx.handle.db
      .selectFrom('sandbox_payment_intents')
      .select('id')
      .where(sql<string>`metadata->>'reservation_id'`, '=', trip.id)
      .execute();
    expect(intents).toHaveLength(2);
  });

  it('when the items change before paying, the old charge is canceled at the provider and a new one covers the new total', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const first = await secretsFor(renter, trip);
    await ctx.handle.db
      .insertInto('transactions')
      .values({
        reservation_id: trip.id,
        category: 'Addon',
        status: 'Pending',
        description: 'Unlimited miles',
        cost: 1_500,
        amount: 4_500,
        number_of_days: 3,
        initiated_at: TEST_NOW,
        released_at: null,
        card_last_4: null,
        payment_id: null,
        reserve_applied_payment_id: null,
        effective_date: null,
        addon_id: null,
      })
      .execute();
    const second = await secretsFor(renter, trip);
    expect(second.client_secret).not.toBe(first.client_secret);
    // The deposit hold is unchanged.
    expect(second.deposit_client_secret).toBe(first.deposit_client_secret);
    const all = await payments(trip);
    // (listed by kind, then status)
    expect(all.map((p) => [p.kind, p.status, p.amount])).toEqual([
      ['CHARGE', 'canceled', trip.due],
      ['CHARGE', 'requires_payment_method', trip.due + 4_500],
      ['DEPOSIT_HOLD', 'requires_payment_method', 20_000],
    ]);
    expect((await rows(trip)).filter((r) => r.category !== 'Deposit').every((r) => r.payment_id === all[1]!.id)).toBe(
      true,
    );
    // The old secret can no longer take money.
    const stale = await confirmWithCard(first.client_secret!, '4242424242424242');
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'payment_intent_unexpected_state' });
  });

  it('another renter’s trip is a 404 for paying and confirming; signed out is a 401', async () => {
    const owner = await signInAs(ctx);
    const other = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, owner.userId, TEST_NOW);
    for (const res of [
      await pay(other, trip.platformId),
      await confirmReservation(other, trip.platformId),
      await pay(other, 'PAY-NOPE-0'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'No trip with that id.' });
    }
    expect(await payments(trip)).toEqual([]);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/v1/payments', payload: { platform_id: trip.platformId } }))
        .statusCode,
    ).toBe(401);
  });

  it('capturing part of the deposit, refunding the charge and releasing a hold show on the line items once synced', async () => {
    const renter = await signInAs(ctx);
    const { trip } = await paidTrip(renter);
    const [charge, hold] = await payments(trip);

    // Holds are captured only from requires_capture, and never above what was authorised.
    await expect(ctx.gateway.capture(charge!.provider_intent_id!)).rejects.toMatchObject({ statusCode: 422 });
    await expect(ctx.gateway.capture(hold!.provider_intent_id!, 20_001)).rejects.toMatchObject({ statusCode: 422 });
    await ctx.gateway.capture(hold!.provider_intent_id!, 5_000);
    await syncPaymentIntent(syncDeps(), hold!.provider_intent_id!);
    let deposit = (await rows(trip)).find((r) => r.category === 'Deposit')!;
    expect(deposit).toMatchObject({ status: 'Captured', captured_amount: 5_000 });
    expect(deposit.released_at).toEqual(TEST_NOW);
    await expect(ctx.gateway.cancel(hold!.provider_intent_id!)).rejects.toMatchObject({ statusCode: 422 });

    // Refunds only what was received; a full refund marks the charge's items Refunded.
    await expect(ctx.gateway.refund(charge!.provider_intent_id!, trip.due + 1)).rejects.toMatchObject({
      statusCode: 422,
    });
    expect(await ctx.gateway.refund(charge!.provider_intent_id!)).toMatch(/^re_/);
    await syncPaymentIntent(syncDeps(), charge!.provider_intent_id!);
    expect((await rows(trip)).filter((r) => r.category !== 'Deposit').map((r) => r.status)).toEqual([
      'Refunded',
      'Refunded',
    ]);
    expect((await payments(trip))[0]).toMatchObject({ amount_refunded: trip.due });
    // Syncing again changes nothing.
    expect((await syncPaymentIntent(syncDeps(), charge!.provider_intent_id!)).changed).toBe(false);
    deposit = (await rows(trip)).find((r) => r.category === 'Deposit')!;
    expect(deposit.status).toBe('Captured');

    // A hold released instead: the deposit is Canceled (shown 'Released') with its release time.
    const second = await paidTrip(renter);
    const secondHold = (await payments(second.trip))[1]!;
    await ctx.gateway.cancel(secondHold.provider_intent_id!);
    await syncPaymentIntent(syncDeps(), secondHold.provider_intent_id!);
    expect((await rows(second.trip)).find((r) => r.category === 'Deposit')).toMatchObject({
      status: 'Canceled',
      released_at: TEST_NOW,
    });
    expect((await payments(second.trip))[1]).toMatchObject({ status: 'canceled' });
  });

  it('each sandbox event shows the intent, or its charge, as the sandbox holds it after the change', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const secrets = await secretsFor(renter, trip);
    const intentId = (secret: string) => secret.split('_secret_')[0]!;
    // The newest event about this intent, beside the intent (and its charge) as stored now.
    const latest = async (id: string) => {
      const events = await ctx.handle.db
        .selectFrom('sandbox_events')
        .select(['type', 'payload'])
        .orderBy('seq', 'desc')
        .execute();
      const event = events.find((e) => {
        const object = (e.payload as { data: { object: { id: string; payment_intent?: string } } }).data.object;
        return object.id === id || object.payment_intent === id;
      })!;
      const row = await ctx.handle.db
        .selectFrom('sandbox_payment_intents')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { type: event.type, object: (event.payload as { data: { object: unknown } }).data.object, row };
    };
    const charge = intentId(secrets.client_secret!);
    const hold = intentId(secrets.deposit_client_secret!);

    expect((await confirmWithCard(secrets.client_secret!, '4000000000000002')).statusCode).toBe(402);
    let seen = await latest(charge);
    expect(seen.type).toBe('payment_intent.payment_failed');
    expect(seen.object).toEqual(intentObject(seen.row));
    expect(seen.object).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
    });

    const charged = await confirmWithCard(secrets.client_secret!, '4242424242424242');
    seen = await latest(charge);
    expect(seen.type).toBe('payment_intent.succeeded');
    expect(seen.object).toEqual(intentObject(seen.row));
    expect(seen.object).toMatchObject({ status: 'succeeded', amount_received: trip.due, last_payment_error: null });

    await confirmWithSaved(secrets.deposit_client_secret!, charged.json().payment_method);
    seen = await latest(hold);
    expect(seen.type).toBe('payment_intent.amount_capturable_updated');
    expect(seen.object).toEqual(intentObject(seen.row));
    expect(seen.object).toMatchObject({ status: 'requires_capture', amount_capturable: seen.row.amount });

    await ctx.gateway.capture(hold, 5_000);
    seen = await latest(hold);
    expect(seen.type).toBe('payment_intent.succeeded');
    expect(seen.object).toEqual(intentObject(seen.row));
    expect(seen.object).toMatchObject({ status: 'succeeded', amount_received: 5_000, amount_capturable: 0 });

    await ctx.gateway.refund(charge, 1_000);
    seen = await latest(charge);
    expect(seen.type).toBe('charge.refunded');
    expect(seen.object).toEqual(chargeObject(seen.row));
    expect(seen.object).toMatchObject({ amount_refunded: 1_000, refunded: false });

    const second = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const open = intentId((await secretsFor(renter, second)).client_secret!);
    await ctx.gateway.cancel(open);
    seen = await latest(open);
    expect(seen.type).toBe('payment_intent.canceled');
    expect(seen.object).toEqual(intentObject(seen.row));
    expect(seen.object).toMatchObject({ status: 'canceled' });
  });

  it('the sandbox confirm call: an unknown secret is 404, a confirmed intent 400, an unknown saved card 400', async () => {
    const renter = await signInAs(ctx);
    const unknown = await confirmWithCard('pi_nothing_secret_nothing', '4242424242424242');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'resource_missing', message: "No such payment_intent: 'pi_nothing'" });
    const { secrets } = await paidTrip(renter);
    const twice = await confirmWithCard(secrets.client_secret!, '4242424242424242');
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'payment_intent_unexpected_state' });
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW);
    const fresh = await secretsFor(renter, trip);
    const notMine = await confirmWithSaved(fresh.client_secret!, 'pm_someone_else');
    expect(notMine.statusCode).toBe(400);
    expect(notMine.json()).toMatchObject({
      code: 'resource_missing',
      message: "No such PaymentMethod: 'pm_someone_else'",
    });
    const neither = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: fresh.client_secret },
    });
    expect(neither.statusCode).toBe(400);
  });

  it('the sandbox refuses an intent for a customer it does not know, as Stripe does, and makes none', async () => {
    const before = await ctx.handle.db
      .selectFrom('sandbox_payment_intents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(
      ctx.gateway.createPaymentIntent({
        customerId: 'cus_nobody',
        amount: 5_000,
        currency: 'usd',
        captureMethod: 'automatic',
        metadata: { reservation_id: 'r', payment_id: 'p', kind: 'CHARGE' },
        idempotencyKey: `nobody-${Date.now()}`,
      }),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE', message: "No such customer: 'cus_nobody'" });
    const after = await ctx.handle.db
      .selectFrom('sandbox_payment_intents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
