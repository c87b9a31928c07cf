import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { WebhookSignatureError } from './gateway.ts';
import { type StripeClient, StripeGateway, type StripeIntent } from './stripe-gateway.ts';

type Call = [string, ...unknown[]];

/** A stand-in for the Stripe SDK: records calls, answers from `cards`, fails when told to. */
function fakeStripe(
  opts: {
    cards?: Record<string, { customer: string | null; brand: string; last4: string }>;
    fail?: Error;
    intent?: Partial<StripeIntent>;
  } = {},
) {
  const calls: Call[] = [];
  const cards = opts.cards ?? {};
  const pm = (id: string) => {
    const c = cards[id]!;
    return { id, customer: c.customer, card: { brand: c.brand, last4: c.last4, exp_month: 4, exp_year: 2031 } };
  };
  const answer = <T>(name: string, args: unknown[], value: () => T): Promise<T> => {
    calls.push([name, ...args]);
    return opts.fail ? Promise.reject(opts.fail) : Promise.resolve(value());
  };
  const client: StripeClient = {
    customers: {
      create: (params, options) => answer('customers.create', [params, options], () => ({ id: 'cus_123' })),
      listPaymentMethods: (customer, params) =>
        answer('customers.listPaymentMethods', [customer, params], () => ({
          data: [
            ...Object.keys(cards)
              .filter((id) => cards[id]!.customer === customer)
              .map(pm),
            { id: 'pm_bank', customer, card: null },
          ],
        })),
    },
    setupIntents: {
      create: (params) =>
        answer('setupIntents.create', [params], () => ({ id: 'seti_1', client_secret: 'seti_1_secret_abc' })),
    },
    paymentMethods: {
      retrieve: (id) => {
        calls.push(['paymentMethods.retrieve', id]);
        if (opts.fail) return Promise.reject(opts.fail);
        if (!cards[id])
          return Promise.reject(
            new Stripe.errors.StripeInvalidRequestError({
              message: `No such PaymentMethod: '${id}'`,
              code: 'resource_missing',
              statusCode: 404,
            }),
          );
        return Promise.resolve(pm(id));
      },
      detach: (id) => answer('paymentMethods.detach', [id], () => ({ id })),
    },
    paymentIntents: {
      create: (params, options) =>
        answer('paymentIntents.create', [params, options], () => ({ ...intent(), client_secret: 'pi_1_secret_xyz' })),
      retrieve: (id, params) => answer('paymentIntents.retrieve', [id, params], () => intent(opts.intent)),
      capture: (id, params) =>
        answer('paymentIntents.capture', [id, params], () =>
          intent({ status: 'succeeded', amount_capturable: 0, amount_received: 5000 }),
        ),
      confirm: (id, params, options) =>
        answer('paymentIntents.confirm', options ? [id, params, options] : [id, params], () =>
          intent({ status: 'requires_capture', amount_capturable: 20000 }),
        ),
      cancel: (id, params) => answer('paymentIntents.cancel', [id, params], () => intent({ status: 'canceled' })),
    },
    refunds: { create: (params, options) => answer('refunds.create', [params, options], () => ({ id: 're_1' })) },
    // The SDK's own signature check: it is pure, no network.
    webhooks: new Stripe('sk_test_fake').webhooks,
  };
  return { client, calls };
}

/** A PaymentIntent as Stripe returns it with latest_charge and payment_method expanded. */
function intent(over: Partial<StripeIntent> = {}): StripeIntent {
  return {
    id: 'pi_1',
    status: 'requires_payment_method',
    amount: 20000,
    amount_capturable: 0,
    amount_received: 0,
    client_secret: null,
    payment_method: null,
    latest_charge: null,
    last_payment_error: null,
    metadata: { reservation_id: 'r1', payment_id: 'p1', kind: 'DEPOSIT_HOLD' },
    ...over,
  };
}

describe('Stripe gateway adapter', () => {
  it('creates the customer with the user id in metadata and an idempotency key', async () => {
    const { client, calls } = fakeStripe();
    const gateway = new StripeGateway(client, 'pk_test_x');
    expect(await gateway.createCustomer({ id: 'u1', phone: '+16155550123', email: null }, 'customer-for-user-u1')).toBe(
      'cus_123',
    );
    expect(calls).toEqual([
      [
        'customers.create',
        { phone: '+16155550123', metadata: { user_id: 'u1' } },
        { idempotencyKey: 'customer-for-user-u1' },
      ],
    ]);
    expect(gateway.kind).toBe('stripe');
    expect(gateway.publishableKey).toBe('pk_test_x');
  });

  it('makes an off-session card setup intent and returns its client secret', async () => {
    const { client, calls } = fakeStripe();
    expect(await new StripeGateway(client, 'pk_test_x').createSetupIntent('cus_123')).toEqual({
      id: 'seti_1',
      clientSecret: 'seti_1_secret_abc',
    });
    expect(calls).toEqual([
      ['setupIntents.create', { customer: 'cus_123', usage: 'off_session', allowed_payment_method_types: ['card'] }],
    ]);
  });

  it('lists card payment methods with the spec’s brand names (amex is american express), skipping non-cards', async () => {
    const { client, calls } = fakeStripe({
      cards: {
        pm_a: { customer: 'cus_123', brand: 'amex', last4: '0005' },
        pm_v: { customer: 'cus_123', brand: 'visa', last4: '4242' },
        pm_o: { customer: 'cus_other', brand: 'visa', last4: '1111' },
      },
    });
    expect(await new StripeGateway(client, 'pk').listCards('cus_123')).toEqual([
      { id: 'pm_a', card_brand: 'american express', last4: '0005', exp_month: 4, exp_year: 2031 },
      { id: 'pm_v', card_brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 },
    ]);
    expect(calls).toEqual([['customers.listPaymentMethods', 'cus_123', { type: 'card', limit: 100 }]]);
  });

  it('detaches a card only after checking it belongs to the customer', async () => {
    const { client, calls } = fakeStripe({
      cards: {
        pm_mine: { customer: 'cus_123', brand: 'visa', last4: '4242' },
        pm_theirs: { customer: 'cus_9', brand: 'visa', last4: '1111' },
      },
    });
    const gateway = new StripeGateway(client, 'pk');
    expect(await gateway.detachCard('cus_123', 'pm_theirs')).toBe(false);
    expect(await gateway.detachCard('cus_123', 'pm_unknown')).toBe(false);
    expect(calls.some(([name]) => name === 'paymentMethods.detach')).toBe(false);
    expect(await gateway.detachCard('cus_123', 'pm_mine')).toBe(true);
    expect(calls.at(-1)).toEqual(['paymentMethods.detach', 'pm_mine']);
  });

  it('a card error keeps Stripe’s message as UNPROCESSABLE', async () => {
    const fail = new Stripe.errors.StripeCardError({
      message: 'Your card was declined.',
      code: 'card_declined',
      decline_code: 'generic_decline',
      type: 'card_error',
    });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk')
      .createSetupIntent('cus_1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'UNPROCESSABLE', statusCode: 422, message: 'Your card was declined.' });
  });

  it('Stripe unreachable is UNAVAILABLE (503)', async () => {
    const fail = new Stripe.errors.StripeConnectionError({
      message: 'An error occurred with our connection to Stripe.',
    });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk').listCards('cus_1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
    const rateLimited = new Stripe.errors.StripeRateLimitError({ message: 'Too many requests' });
    expect(
      await new StripeGateway(fakeStripe({ fail: rateLimited }).client, 'pk')
        .detachCard('cus_1', 'pm_1')
        .catch((e: unknown) => e),
    ).toMatchObject({ statusCode: 503 });
  });

  it('a bad key is our fault: a plain error (a logged 500), not a message for the renter', async () => {
    const fail = new Stripe.errors.StripeAuthenticationError({ message: 'Invalid API Key provided: sk_test_***' });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk')
      .createCustomer({ id: 'u', phone: '+1', email: 'a@b.co' }, 'k')
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect(String(err)).toContain('StripeAuthenticationError');
  });

  it('creates a card PaymentIntent with our metadata, the capture method and an idempotency key', async () => {
    const { client, calls } = fakeStripe();
    const ref = await new StripeGateway(client, 'pk').createPaymentIntent({
      customerId: 'cus_1',
      amount: 20000,
      currency: 'usd',
      captureMethod: 'manual',
      setupFutureUsage: 'off_session',
      metadata: { reservation_id: 'r1', payment_id: 'p1', kind: 'DEPOSIT_HOLD' },
      idempotencyKey: 'payment-p1',
    });
    expect(ref).toEqual({ id: 'pi_1', clientSecret: 'pi_1_secret_xyz', status: 'requires_payment_method' });
    expect(calls).toEqual([
      [
        'paymentIntents.create',
        {
          amount: 20000,
          currency: 'usd',
          customer: 'cus_1',
          capture_method: 'manual',
          allowed_payment_method_types: ['card'],
          setup_future_usage: 'off_session',
          metadata: { reservation_id: 'r1', payment_id: 'p1', kind: 'DEPOSIT_HOLD' },
        },
        { idempotencyKey: 'payment-p1' },
      ],
    ]);
  });

  it('reads an intent with its charge and card expanded: refunded amount, last 4, the last error', async () => {
    const { client, calls } = fakeStripe({
      intent: {
        status: 'succeeded',
        amount_received: 20000,
        payment_method: { id: 'pm_v', card: { brand: 'visa', last4: '4242' } },
        latest_charge: { amount_refunded: 5000, payment_method_details: { card: { brand: 'visa', last4: '4242' } } },
      },
    });
    const pi = await new StripeGateway(client, 'pk').retrievePaymentIntent('pi_1');
    expect(pi).toMatchObject({
      status: 'succeeded',
      amount_received: 20000,
      amount_refunded: 5000,
      payment_method: 'pm_v',
      card: { brand: 'visa', last4: '4242' },
      last_error: null,
    });
    expect(calls).toEqual([['paymentIntents.retrieve', 'pi_1', { expand: ['latest_charge', 'payment_method'] }]]);

    const failed = fakeStripe({
      intent: {
        last_payment_error: {
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      },
    });
    expect((await new StripeGateway(failed.client, 'pk').retrievePaymentIntent('pi_1')).last_error).toEqual({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });

  it('re-authorises off-session: confirms with the saved card, the renter not present', async () => {
    const { client, calls } = fakeStripe();
    const held = await new StripeGateway(client, 'pk').confirmOffSession('pi_3', 'pm_saved');
    expect(held).toMatchObject({ status: 'requires_capture', amount_capturable: 20000 });
    expect(calls).toEqual([
      [
        'paymentIntents.confirm',
        'pi_3',
        { payment_method: 'pm_saved', off_session: true, expand: ['latest_charge', 'payment_method'] },
      ],
    ]);
    // A charge after the trip confirms with a key from its payment row: a repeat gets the first answer.
    const again = fakeStripe();
    await new StripeGateway(again.client, 'pk').confirmOffSession('pi_4', 'pm_saved', 'payment-p4-confirm');
    expect(again.calls).toEqual([
      [
        'paymentIntents.confirm',
        'pi_4',
        { payment_method: 'pm_saved', off_session: true, expand: ['latest_charge', 'payment_method'] },
        { idempotencyKey: 'payment-p4-confirm' },
      ],
    ]);
  });

  it('captures part of a hold, cancels, and refunds with the amounts Stripe expects', async () => {
    const { client, calls } = fakeStripe();
    const gateway = new StripeGateway(client, 'pk');
    expect((await gateway.capture('pi_1', 5000)).status).toBe('succeeded');
    expect((await gateway.cancel('pi_2')).status).toBe('canceled');
    expect(await gateway.refund('pi_1', 1000, 'refund-p1')).toBe('re_1');
    expect(calls).toEqual([
      ['paymentIntents.capture', 'pi_1', { amount_to_capture: 5000, expand: ['latest_charge', 'payment_method'] }],
      ['paymentIntents.cancel', 'pi_2', { expand: ['latest_charge', 'payment_method'] }],
      ['refunds.create', { payment_intent: 'pi_1', amount: 1000 }, { idempotencyKey: 'refund-p1' }],
    ]);
  });

  it('verifies Stripe-Signature with the SDK: a good one gives the event and its intent, a bad or old one is refused', () => {
    const secret = 'whsec_test_secret';
    const now = new Date('2026-11-22T15:00:00Z');
    const gateway = new StripeGateway(fakeStripe().client, 'pk', secret, () => now);
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'charge.refunded',
      created: 1,
      data: { object: { id: 'ch_1', object: 'charge', payment_intent: 'pi_9' } },
    });
    const sdk = new Stripe('sk_test_fake').webhooks;
    const t = Math.floor(now.getTime() / 1000);
    const header = sdk.generateTestHeaderString({ payload, secret, timestamp: t });
    expect(gateway.constructEvent(Buffer.from(payload), header)).toMatchObject({
      id: 'evt_1',
      type: 'charge.refunded',
      objectId: 'pi_9',
    });
    expect(() => gateway.constructEvent(Buffer.from(payload.replace('pi_9', 'pi_8')), header)).toThrow(
      WebhookSignatureError,
    );
    expect(() => gateway.constructEvent(Buffer.from(payload), undefined)).toThrow('Invalid webhook signature.');
    const old = sdk.generateTestHeaderString({ payload, secret, timestamp: t - 301 });
    expect(() => gateway.constructEvent(Buffer.from(payload), old)).toThrow(
      expect.objectContaining({ reason: 'stale' }),
    );
    // The SDK would take any future timestamp; more than five minutes ahead is refused.
    const early = sdk.generateTestHeaderString({ payload, secret, timestamp: t + 301 });
    expect(() => gateway.constructEvent(Buffer.from(payload), early)).toThrow(
      expect.objectContaining({ reason: 'stale' }),
    );
    expect(
      gateway.constructEvent(
        Buffer.from(payload),
        sdk.generateTestHeaderString({ payload, secret, timestamp: t + 300 }),
      ),
    ).toMatchObject({ id: 'evt_1' });
  });

  it('without STRIPE_WEBHOOK_SECRET webhooks are refused as not configured', () => {
    expect(() => new StripeGateway(fakeStripe().client, 'pk').constructEvent(Buffer.from('{}'), 't=1,v1=00')).toThrow(
      expect.objectContaining({ code: 'UNAVAILABLE' }),
    );
  });
});
