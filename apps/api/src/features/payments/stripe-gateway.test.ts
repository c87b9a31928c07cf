import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { type StripeClient, StripeGateway } from './stripe-gateway.ts';

type Call = [string, ...unknown[]];

/** A stand-in for the Stripe SDK: records calls, answers from `cards`, fails when told to. */
function fakeStripe(opts: { cards?: Record<string, { customer: string | null; brand: string; last4: string }>; fail?: Error } = {}) {
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
          data: [...Object.keys(cards).filter((id) => cards[id]!.customer === customer).map(pm), { id: 'pm_bank', customer, card: null }],
        })),
    },
    setupIntents: { create: (params) => answer('setupIntents.create', [params], () => ({ id: 'seti_1', client_secret: 'seti_1_secret_abc' })) },
    paymentMethods: {
      retrieve: (id) => {
        calls.push(['paymentMethods.retrieve', id]);
        if (opts.fail) return Promise.reject(opts.fail);
        if (!cards[id]) return Promise.reject(new Stripe.errors.StripeInvalidRequestError({ message: `No such PaymentMethod: '${id}'`, code: 'resource_missing', statusCode: 404 }));
        return Promise.resolve(pm(id));
      },
      detach: (id) => answer('paymentMethods.detach', [id], () => ({ id })),
    },
  };
  return { client, calls };
}

describe('Stripe gateway adapter', () => {
  it('creates the customer with the user id in metadata and an idempotency key', async () => {
    const { client, calls } = fakeStripe();
    const gateway = new StripeGateway(client, 'pk_test_x');
    expect(await gateway.createCustomer({ id: 'u1', phone: '+16155550123', email: null }, 'customer-for-user-u1')).toBe('cus_123');
    expect(calls).toEqual([['customers.create', { phone: '+16155550123', metadata: { user_id: 'u1' } }, { idempotencyKey: 'customer-for-user-u1' }]]);
    expect(gateway.kind).toBe('stripe');
    expect(gateway.publishableKey).toBe('pk_test_x');
  });

  it('makes an off-session card setup intent and returns its client secret', async () => {
    const { client, calls } = fakeStripe();
    expect(await new StripeGateway(client, 'pk_test_x').createSetupIntent('cus_123')).toEqual({ id: 'seti_1', clientSecret: 'seti_1_secret_abc' });
    expect(calls).toEqual([['setupIntents.create', { customer: 'cus_123', usage: 'off_session', allowed_payment_method_types: ['card'] }]]);
  });

  it('lists card payment methods with the spec’s brand names (amex is american express), skipping non-cards', async () => {
    const { client, calls } = fakeStripe({
      cards: { pm_a: { customer: 'cus_123', brand: 'amex', last4: '0005' }, pm_v: { customer: 'cus_123', brand: 'visa', last4: '4242' }, pm_o: { customer: 'cus_other', brand: 'visa', last4: '1111' } },
    });
    expect(await new StripeGateway(client, 'pk').listCards('cus_123')).toEqual([
      { id: 'pm_a', card_brand: 'american express', last4: '0005', exp_month: 4, exp_year: 2031 },
      { id: 'pm_v', card_brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 },
    ]);
    expect(calls).toEqual([['customers.listPaymentMethods', 'cus_123', { type: 'card', limit: 100 }]]);
  });

  it('detaches a card only after checking it belongs to the customer', async () => {
    const { client, calls } = fakeStripe({ cards: { pm_mine: { customer: 'cus_123', brand: 'visa', last4: '4242' }, pm_theirs: { customer: 'cus_9', brand: 'visa', last4: '1111' } } });
    const gateway = new StripeGateway(client, 'pk');
    expect(await gateway.detachCard('cus_123', 'pm_theirs')).toBe(false);
    expect(await gateway.detachCard('cus_123', 'pm_unknown')).toBe(false);
    expect(calls.some(([name]) => name === 'paymentMethods.detach')).toBe(false);
    expect(await gateway.detachCard('cus_123', 'pm_mine')).toBe(true);
    expect(calls.at(-1)).toEqual(['paymentMethods.detach', 'pm_mine']);
  });

  it('a card error keeps Stripe’s message as UNPROCESSABLE', async () => {
    const fail = new Stripe.errors.StripeCardError({ message: 'Your card was declined.', code: 'card_declined', decline_code: 'generic_decline', type: 'card_error' });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk').createSetupIntent('cus_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'UNPROCESSABLE', statusCode: 422, message: 'Your card was declined.' });
  });

  it('Stripe unreachable is UNAVAILABLE (503)', async () => {
    const fail = new Stripe.errors.StripeConnectionError({ message: 'An error occurred with our connection to Stripe.' });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk').listCards('cus_1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
    const rateLimited = new Stripe.errors.StripeRateLimitError({ message: 'Too many requests' });
    expect(await new StripeGateway(fakeStripe({ fail: rateLimited }).client, 'pk').detachCard('cus_1', 'pm_1').catch((e: unknown) => e)).toMatchObject({ statusCode: 503 });
  });

  it('a bad key is our fault: a plain error (a logged 500), not a message for the renter', async () => {
    const fail = new Stripe.errors.StripeAuthenticationError({ message: 'Invalid API Key provided: sk_test_***' });
    const err = await new StripeGateway(fakeStripe({ fail }).client, 'pk').createCustomer({ id: 'u', phone: '+1', email: 'a@b.co' }, 'k').catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect(String(err)).toContain('StripeAuthenticationError');
  });
});
