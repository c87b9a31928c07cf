import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import {
  EndpointClosedError,
  SandboxWebhookDeliverer,
  injectSender,
} from '../src/features/payments/sandbox-deliverer.ts';
import { signatureHeader } from '../src/features/payments/webhook-signature.ts';
import { TEST_NOW, engines } from './harness.ts';
import { startedTrip } from './factories.ts';
import { type SandboxContext, createSandboxContext } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const GOOD = { exp_month: 12, exp_year: 2030, cvc: '123' };
const SECRET = 'whsec_webhooks_integration_test';

describe.each(engines())('payment provider webhooks on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off', webhookSecret: SECRET });
  });
  afterAll(() => ctx?.close());

  const now = () => Math.floor(ctx.clock.now.getTime() / 1000);
  const post = (body: string, signature: string | undefined, provider = 'sandbox') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${provider}`,
      headers: { 'content-type': 'application/json', ...(signature ? { 'sandbox-signature': signature } : {}) },
      payload: body,
    });
  /** Sends an event as the provider would: the body signed now (or at `at`). */
  const deliver = (payload: unknown, at = now()) => {
    const body = JSON.stringify(payload);
    return post(body, signatureHeader(SECRET, body, at));
  };
  const pay = async (who: SignedIn, platformId: string) =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/payments',
        headers: who.headers,
        payload: { platform_id: platformId },
      })
    ).json().stripe;
  const confirmCard = (clientSecret: string, number: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, card: { number, ...GOOD } },
    });
  const confirmSaved = (clientSecret: string, pm: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: clientSecret, payment_method: pm },
    });
  /** The provider's undelivered events about these intents, oldest first. */
  const pendingEvents = async (intentIds: string[]) => {
    const rows = await ctx.handle.db
      .selectFrom('sandbox_events')
      .select(['id', 'type', 'payload'])
      .where('delivered_at', 'is', null)
      .orderBy('seq')
      .execute();
    return rows
      .filter((r) => intentIds.includes(objectOf(r.payload)))
      .map((r) => ({ id: r.id, type: r.type, payload: r.payload }));
  };
  const objectOf = (payload: unknown) => {
    const o = (payload as { data: { object: { id: string; object: string; payment_intent?: string } } }).data.object;
    return o.object === 'charge' ? o.payment_intent! : o.id;
  };
  /** Everything a webhook may change, to compare before and after. */
  const snapshot = async (trip: { id: string }) => ({
    reservation: await ctx.handle.db
      .selectFrom('reservations')
      .select(['status', 'confirmed_at'])
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow(),
    payments: await ctx.handle.db
      .selectFrom('payments')
      .select(['kind', 'status', 'amount_captured', 'amount_refunded', 'card_last_4', 'last_error', 'updated_at'])
      .where('reservation_id', '=', trip.id)
      .orderBy('kind')
      .execute(),
    transactions: await ctx.handle.db
      .selectFrom('transactions')
      .select(['category', 'status', 'captured_amount', 'card_last_4', 'released_at'])
      .where('reservation_id', '=', trip.id)
      .orderBy('category')
      .execute(),
  });
  const eventRows = (ids: string[]) =>
    ctx.handle.db
      .selectFrom('webhook_events')
      .select(['event_id', 'type', 'processed_at'])
      .where('provider', '=', 'sandbox')
      .where('event_id', 'in', ids)
      .execute();

  /** A trip whose charge failed once (0002) and then succeeded (4242), and whose deposit is authorised: four events waiting. */
  async function paidWithoutWebhooks() {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW, { days: 2, leadDays: 10 });
    const secrets = await pay(renter, trip.platformId);
    expect((await confirmCard(secrets.client_secret, '4000000000000002')).statusCode).toBe(402);
    const charged = await confirmCard(secrets.client_secret, '4242424242424242');
    expect(charged.statusCode).toBe(200);
    expect((await confirmSaved(secrets.deposit_client_secret, charged.json().payment_method)).statusCode).toBe(200);
    const intents = (
      await ctx.handle.db
        .selectFrom('payments')
        .select(['kind', 'provider_intent_id'])
        .where('reservation_id', '=', trip.id)
        .execute()
    ).map((p) => p.provider_intent_id!);
    const events = await pendingEvents(intents);
    expect(events.map((e) => e.type)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.succeeded',
      'payment_intent.amount_capturable_updated',
    ]);
    return { renter, trip, events, intents };
  }

  it('a bad or missing signature is refused (400) and changes nothing', async () => {
    const { trip, events } = await paidWithoutWebhooks();
    const before = await snapshot(trip);
    const body = JSON.stringify(events[1]!.payload);
    const forged = await post(body, signatureHeader('whsec_not_our_secret_at_all', body, now()));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ statusCode: 400, message: 'Invalid webhook signature.' });
    const tampered = await post(body.replace('"succeeded"', '"canceled"'), signatureHeader(SECRET, body, now()));
    expect(tampered.statusCode).toBe(400);
    expect((await post(body, undefined)).statusCode).toBe(400);
    expect((await post(body, 'garbage')).statusCode).toBe(400);
    expect(await snapshot(trip)).toEqual(before);
    expect(before.reservation.status).toBe('Started');
    expect(await eventRows(events.map((e) => e.id))).toEqual([]);
  });

  it('a signature more than five minutes old is refused', async () => {
    const { trip, events } = await paidWithoutWebhooks();
    const before = await snapshot(trip);
    const stale = await deliver(events[1]!.payload, now() - 301);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toMatch(/tolerance/);
    expect(await snapshot(trip)).toEqual(before);
    // Four minutes late is still accepted.
    expect((await deliver(events[1]!.payload, now() - 240)).statusCode).toBe(200);
  });

  it('a signature timestamped more than five minutes in the future is refused', async () => {
    const { trip, events } = await paidWithoutWebhooks();
    const before = await snapshot(trip);
    const early = await deliver(events[1]!.payload, now() + 301);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ statusCode: 400, message: 'Webhook timestamp is outside the tolerance.' });
    expect(await snapshot(trip)).toEqual(before);
    expect(await eventRows([events[1]!.id])).toEqual([]);
    // Four minutes ahead (a provider's clock running fast) is still accepted.
    expect((await deliver(events[1]!.payload, now() + 240)).statusCode).toBe(200);
  });

  it('the inactive provider’s endpoint does not exist', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/webhooks/paypal', payload: '{}' })).statusCode).toBe(
      404,
    );
  });

  it('the same event five times applies once: one event row, the trip confirmed once, one realtime message', async () => {
    const { trip, events } = await paidWithoutWebhooks();
    const results = [];
    // The charge, then the hold: the second confirms the trip.
    for (const e of [events[1]!, events[2]!]) {
      for (let i = 0; i < 5; i++) results.push((await deliver(e.payload)).json());
    }
    expect(results.filter((r) => r.duplicate !== true)).toHaveLength(2);
    expect(results.filter((r) => r.duplicate === true)).toHaveLength(8);
    expect(results.every((r) => r.received === true)).toBe(true);
    const after = await snapshot(trip);
    expect(after.reservation.status).toBe('Pending');
    expect(after.transactions.map((t) => [t.category, t.status, t.card_last_4])).toEqual([
      ['Deposit', 'Pending', '4242'],
      ['Rack', 'Successful', '4242'],
      ['Tax', 'Successful', '4242'],
    ]);
    expect(after.payments.map((p) => [p.kind, p.status])).toEqual([
      ['CHARGE', 'succeeded'],
      ['DEPOSIT_HOLD', 'requires_capture'],
    ]);
    expect(await eventRows([events[1]!.id, events[2]!.id])).toHaveLength(2);
    expect(ctx.published.filter((p) => p.data.platform_id === trip.platformId).map((p) => p.event)).toEqual([
      'payment-intent-succeeded',
      'payment-intent-succeeded',
    ]);
    // Five more of each, at once this time: still nothing new.
    const concurrent = await Promise.all(
      [...Array(5)].flatMap(() => [deliver(events[1]!.payload), deliver(events[2]!.payload)]),
    );
    expect(concurrent.every((r) => r.statusCode === 200 && r.json().duplicate === true)).toBe(true);
    expect(await snapshot(trip)).toEqual(after);
  });

  it('events about payments the renter’s confirm already applied are recorded once and change nothing', async () => {
    const { renter, trip, events } = await paidWithoutWebhooks();
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations/confirm',
      headers: renter.headers,
      payload: { platform_id: trip.platformId },
    });
    expect(confirmed.statusCode).toBe(200);
    const before = await snapshot(trip);
    expect(before.reservation.status).toBe('Pending');
    const published = ctx.published.length;
    // The failed try is older than the charge's success: the payment already says more than it does.
    for (const e of events) expect((await deliver(e.payload)).json()).toEqual({ received: true });
    for (const e of events) expect((await deliver(e.payload)).json()).toEqual({ received: true, duplicate: true });
    expect(await eventRows(events.map((e) => e.id))).toHaveLength(events.length);
    expect(await snapshot(trip)).toEqual(before);
    expect(ctx.published.length).toBe(published);
  });

  it('events out of order and interleaved with duplicates end in the provider’s current state, each recorded once', async () => {
    const { trip, events, intents } = await paidWithoutWebhooks();
    const [failed, succeeded, authorised] = events as [(typeof events)[0], (typeof events)[0], (typeof events)[0]];
    // The hold's event first, then success, a duplicate, the older failure last of all.
    for (const e of [authorised, succeeded, authorised, failed, succeeded, failed])
      expect((await deliver(e.payload)).statusCode).toBe(200);
    let state = await snapshot(trip);
    expect(state.reservation.status).toBe('Pending');
    // The late failure did not undo the payment: the intent was re-read, and it has succeeded.
    expect(state.payments.map((p) => [p.kind, p.status, p.last_error])).toEqual([
      ['CHARGE', 'succeeded', null],
      ['DEPOSIT_HOLD', 'requires_capture', null],
    ]);
    expect(await eventRows(events.map((e) => e.id))).toHaveLength(3);

    // The operator captures part of the deposit; its event arrives, then the old authorisation again.
    await ctx.gateway.capture(
      intents.find((id) => id !== objectOf(succeeded.payload))!,
      7_500,
    );
    const captured = (await pendingEvents(intents)).find((e) => !events.some((old) => old.id === e.id))!;
    expect(captured.type).toBe('payment_intent.succeeded');
    expect((await deliver(captured.payload)).statusCode).toBe(200);
    expect((await deliver(authorised.payload)).json()).toEqual({ received: true, duplicate: true });
    state = await snapshot(trip);
    expect(state.transactions.find((t) => t.category === 'Deposit')).toMatchObject({
      status: 'Captured',
      captured_amount: 7_500,
    });
    expect(state.payments.find((p) => p.kind === 'DEPOSIT_HOLD')).toMatchObject({
      status: 'succeeded',
      amount_captured: 7_500,
    });
    // A new event for an old state changes nothing either: its body is not trusted, the intent is re-read.
    const replayed = { ...(authorised.payload as object), id: `evt_replayed_${randomBytes(4).toString('hex')}` };
    expect((await deliver(replayed)).json()).toEqual({ received: true });
    expect(await snapshot(trip)).toEqual(state);
  });

  it('a refund’s charge.refunded event marks the paid items Refunded', async () => {
    const { trip, events, intents } = await paidWithoutWebhooks();
    for (const e of events) await deliver(e.payload);
    const chargeIntent = objectOf(events[1]!.payload);
    await ctx.gateway.refund(chargeIntent);
    const refunded = (await pendingEvents(intents)).find((e) => e.type === 'charge.refunded')!;
    expect(objectOf(refunded.payload)).toBe(chargeIntent);
    expect((await deliver(refunded.payload)).statusCode).toBe(200);
    expect((await snapshot(trip)).transactions.filter((t) => t.category !== 'Deposit').map((t) => t.status)).toEqual([
      'Refunded',
      'Refunded',
    ]);
  });

  it('other event types, and intents that are not ours, are recorded and acknowledged', async () => {
    const id = `evt_${randomBytes(6).toString('hex')}`;
    const res = await deliver({
      id,
      object: 'event',
      type: 'customer.created',
      created: now(),
      data: { object: { id: 'cus_x', object: 'customer' } },
    });
    expect(res.json()).toEqual({ received: true });
    const foreign = `evt_${randomBytes(6).toString('hex')}`;
    expect(
      (
        await deliver({
          id: foreign,
          object: 'event',
          type: 'payment_intent.succeeded',
          created: now(),
          data: { object: { id: 'pi_not_ours', object: 'payment_intent' } },
        })
      ).json(),
    ).toEqual({ received: true });
    const rows = await eventRows([id, foreign]);
    expect(rows.map((r) => r.type).sort()).toEqual(['customer.created', 'payment_intent.succeeded']);
    expect(rows.every((r) => r.processed_at !== null)).toBe(true);
    // A signed body that is not an event is a 400.
    expect((await post('not json', signatureHeader(SECRET, 'not json', now()))).statusCode).toBe(400);
  });

  it('gateway.deliverPendingEvents() sends the outbox through the endpoint, signed, and marks each delivered', async () => {
    const { trip, intents } = await paidWithoutWebhooks();
    expect(await ctx.gateway.deliverPendingEvents()).toBeGreaterThanOrEqual(3);
    expect(await pendingEvents(intents)).toEqual([]);
    expect((await snapshot(trip)).reservation.status).toBe('Pending');
  });

  it('a delivery that is not accepted is retried later, with backoff, until it is', async () => {
    await ctx.gateway.deliverPendingEvents(); // what earlier tests left
    const renter = await signInAs(ctx);
    const setup = (
      await ctx.app.inject({ method: 'POST', url: '/api/v1/payments/setup-intent', headers: renter.headers })
    ).json().stripe.client_secret;
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/sandbox/v1/setup_intents/confirm',
          payload: { client_secret: setup, card: { number: '5555555555554444', ...GOOD } },
        })
      ).statusCode,
    ).toBe(200);
    const answers = [500, 200];
    const sent: string[] = [];
    const flaky = new SandboxWebhookDeliverer(
      ctx.handle.db,
      async (body) => (sent.push(JSON.parse(body).type), answers.shift() ?? 200),
      SECRET,
      () => ctx.clock.now,
    );
    expect(await flaky.deliverPendingEvents()).toBe(0);
    const row = await ctx.handle.db
      .selectFrom('sandbox_events')
      .select(['attempts', 'last_error', 'next_attempt_at', 'delivered_at'])
      .where('type', '=', 'setup_intent.succeeded')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 1, last_error: 'HTTP 500', delivered_at: null });
    expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(await flaky.deliverPendingEvents()).toBe(1);
    expect(sent).toEqual(['setup_intent.succeeded', 'setup_intent.succeeded']);
  });

  /** `count` events of type `test.<kind>` in the outbox, due a second ago; their ids, in order. */
  async function dueEvents(kind: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => `evt_${kind}_${engine}_${i}`);
    await ctx.handle.db
      .insertInto('sandbox_events')
      .values(
        ids.map((id) => ({
          id,
          type: `test.${kind}`,
          payload: JSON.stringify({ id, object: 'event', type: `test.${kind}`, data: { object: {} } }),
          created_at: ctx.clock.now,
          delivered_at: null,
          next_attempt_at: new Date(Date.now() - 1000),
          last_error: null,
        })),
      )
      .execute();
    return ids;
  }

  it('events a shutting-down app no longer takes are given back, due at once with no attempt counted, not failed', async () => {
    await ctx.gateway.deliverPendingEvents(); // what earlier tests left
    const ids = await dueEvents('closing', 4);
    // The app's own endpoint as it closes: the first event goes through, then inject is refused.
    const app = Fastify();
    let taken = 0;
    app.post('/hook', async () => (taken++, { received: true }));
    await app.ready();
    const send = injectSender(app, '/hook', 'sandbox-signature');
    const closing = new SandboxWebhookDeliverer(
      ctx.handle.db,
      async (body, signature) => {
        const status = await send(body, signature);
        await app.close();
        return status;
      },
      SECRET,
      () => ctx.clock.now,
    );
    expect(await closing.deliverPendingEvents()).toBe(1);
    expect(taken).toBe(1);
    await expect(send('{}', 'sig')).rejects.toBeInstanceOf(EndpointClosedError);
    const rows = await ctx.handle.db
      .selectFrom('sandbox_events')
      .select(['id', 'attempts', 'last_error', 'delivered_at', 'next_attempt_at'])
      .where('id', 'in', ids)
      .orderBy('seq')
      .execute();
    expect(rows[0]).toMatchObject({ id: ids[0], attempts: 1, last_error: null });
    expect(rows[0]!.delivered_at).not.toBeNull();
    for (const row of rows.slice(1)) {
      expect(row).toMatchObject({ attempts: 0, last_error: null, delivered_at: null });
      expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    }
    // The next process delivers them.
    const next = new SandboxWebhookDeliverer(
      ctx.handle.db,
      async () => 200,
      SECRET,
      () => ctx.clock.now,
    );
    expect(await next.deliverPendingEvents()).toBe(3);
  });

  it('a delivery pass does not wait for one answer before sending the next: a slow endpoint does not hold the outbox back', async () => {
    await ctx.gateway.deliverPendingEvents(); // what earlier tests left
    const ids = await dueEvents('slow', 9);
    let inFlight = 0;
    let most = 0;
    const answered: string[] = [];
    const slow = new SandboxWebhookDeliverer(
      ctx.handle.db,
      async (body) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 30));
        inFlight--;
        answered.push(JSON.parse(body).id);
        return 200;
      },
      SECRET,
      () => ctx.clock.now,
    );
    expect(await slow.deliverDuePass()).toBe(ids.length);
    expect(answered.sort()).toEqual([...ids].sort());
    // Several in flight at once, as a provider sends, but not the whole outbox at once.
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
    const left = await ctx.handle.db
      .selectFrom('sandbox_events')
      .select('id')
      .where('id', 'in', ids)
      .where('delivered_at', 'is', null)
      .execute();
    expect(left).toEqual([]);
  });
});

describe.each(engines())('sandbox webhooks delivered on their own on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'on', webhookSecret: SECRET });
  });
  afterAll(() => ctx?.close());

  it('a confirmed payment reaches the webhook on its own (a short random delay later), and the trip is confirmed without the browser’s confirm call', async () => {
    const renter = await signInAs(ctx);
    const trip = await startedTrip(ctx.handle.db, renter.userId, TEST_NOW, { days: 2, leadDays: 10 });
    const secrets = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/payments',
        headers: renter.headers,
        payload: { platform_id: trip.platformId },
      })
    ).json().stripe;
    const charged = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: secrets.client_secret, card: { number: '4242424242424242', ...GOOD } },
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      payload: { client_secret: secrets.deposit_client_secret, payment_method: charged.json().payment_method },
    });
    const status = () =>
      ctx.handle.db.selectFrom('reservations').select('status').where('id', '=', trip.id).executeTakeFirstOrThrow();
    await vi.waitFor(async () => expect((await status()).status).toBe('Pending'), { timeout: 10_000, interval: 20 });
    await vi.waitFor(
      async () =>
        expect(
          await ctx.handle.db.selectFrom('sandbox_events').select('id').where('delivered_at', 'is', null).execute(),
        ).toEqual([]),
      { timeout: 10_000, interval: 20 },
    );
    expect(ctx.published.filter((p) => p.data.platform_id === trip.platformId).map((p) => p.event)).toEqual([
      'payment-intent-succeeded',
      'payment-intent-succeeded',
    ]);
  });
});
