import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/features/payments/gateway.ts';
import { SandboxGateway } from '../src/features/payments/sandbox-gateway.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

// The test clock is 22 November 2026; these expiries are in the future.
const GOOD = { exp_month: 12, exp_year: 2030, cvc: '123' };

describe.each(engines())('saved cards with the sandbox gateway on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
  });
  afterAll(() => ctx?.close());

  const setupIntent = (who: SignedIn | null) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/payments/setup-intent', headers: who?.headers ?? {} });
  const confirm = (clientSecret: string, card: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/setup_intents/confirm',
      payload: { client_secret: clientSecret, card: { ...GOOD, ...card } },
    });
  const secretFor = async (who: SignedIn) => {
    const res = await setupIntent(who);
    expect(res.statusCode).toBe(200);
    return res.json().stripe.client_secret as string;
  };
  /** Saves a card the way the browser would: a setup intent from our API, confirmed with the gateway. */
  const saveCard = async (who: SignedIn, card: Record<string, unknown>) => confirm(await secretFor(who), card);
  const listCards = async (who: SignedIn) => {
    const res = await ctx.app.inject({ url: '/api/v1/users/credit-cards', headers: who.headers });
    expect(res.statusCode).toBe(200);
    return res.json().cards as Array<{
      id: string;
      card_brand: string;
      last4: string;
      exp_month: number;
      exp_year: number;
    }>;
  };
  const deleteCard = (who: SignedIn, id: string) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/v1/users/credit-cards/${id}`, headers: who.headers });
  const intentRow = (clientSecret: string) =>
    ctx.handle.db
      .selectFrom('sandbox_setup_intents')
      .select(['status', 'payment_method_id', 'last_error'])
      .where('client_secret', '=', clientSecret)
      .executeTakeFirstOrThrow();

  it('a setup intent carries the sandbox client secret and no publishable key', async () => {
    const renter = await signInAs(ctx);
    const res = await setupIntent(renter);
    expect(res.statusCode).toBe(200);
    const { stripe } = res.json();
    expect(stripe.provider).toBe('sandbox');
    expect(stripe.publishable_key).toBeNull();
    expect(stripe.client_secret).toMatch(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
  });

  it('4242 4242 4242 4242 is saved and listed as a visa ending in 4242; neither number nor CVC is stored', async () => {
    const renter = await signInAs(ctx);
    const res = await saveCard(renter, { number: '4242 4242 4242 4242', cvc: '987', exp_month: 7, exp_year: 2031 });
    expect(res.statusCode).toBe(200);
    const intent = res.json();
    expect(intent).toMatchObject({ status: 'succeeded', last_setup_error: null });
    expect(intent.payment_method).toMatch(/^pm_/);
    expect(await listCards(renter)).toEqual([
      { id: intent.payment_method, card_brand: 'visa', last4: '4242', exp_month: 7, exp_year: 2031 },
    ]);

    const db = ctx.handle.db;
    const stored = [
      ...(await db.selectFrom('sandbox_payment_methods').selectAll().execute()),
      ...(await db.selectFrom('sandbox_setup_intents').selectAll().execute()),
      ...(await db.selectFrom('sandbox_customers').selectAll().execute()),
    ];
    const values = stored.flatMap((row) =>
      Object.values(row).map((v) =>
        typeof v === 'object' && v !== null && !(v instanceof Date) ? JSON.stringify(v) : String(v),
      ),
    );
    expect(values.some((v) => v.replace(/\D/g, '').includes('4242424242424242'))).toBe(false);
    expect(values).not.toContain('987');
    // Our own table keeps only the customer id.
    const user = await db
      .selectFrom('users')
      .select(['gateway_customer_id'])
      .where('id', '=', renter.userId)
      .executeTakeFirstOrThrow();
    expect(user.gateway_customer_id).toMatch(/^cus_/);
  });

  it('4000 0000 0000 0002 is declined (402, Stripe’s card error) and nothing is saved', async () => {
    const renter = await signInAs(ctx);
    const res = await saveCard(renter, { number: '4000000000000002' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      statusCode: 402,
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect(await listCards(renter)).toEqual([]);
  });

  it('4000 0000 0000 9995 is declined for insufficient funds', async () => {
    const renter = await signInAs(ctx);
    const res = await saveCard(renter, { number: '4000 0000 0000 9995' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(await listCards(renter)).toEqual([]);
  });

  it('a number failing the Luhn check is refused as invalid', async () => {
    const renter = await signInAs(ctx);
    const res = await saveCard(renter, { number: '4242 4242 4242 4241' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'incorrect_number',
      param: 'number',
      message: 'Your card number is invalid.',
    });
  });

  it('an expiry in the past is refused, by year and by month', async () => {
    const renter = await signInAs(ctx);
    const lastYear = await saveCard(renter, { number: '4242424242424242', exp_month: 12, exp_year: 2025 });
    expect(lastYear.statusCode).toBe(402);
    expect(lastYear.json()).toMatchObject({
      code: 'invalid_expiry_year',
      message: "Your card's expiration date is in the past.",
    });
    const lastMonth = await saveCard(renter, { number: '4242424242424242', exp_month: 10, exp_year: 2026 });
    expect(lastMonth.json()).toMatchObject({
      code: 'invalid_expiry_month',
      message: "Your card's expiration date is in the past.",
    });
    // A card is good through the end of its month.
    expect((await saveCard(renter, { number: '4242424242424242', exp_month: 11, exp_year: 2026 })).statusCode).toBe(
      200,
    );
  });

  it('an American Express card needs a 4-digit CVC and is listed as american express', async () => {
    const renter = await signInAs(ctx);
    const threeDigits = await saveCard(renter, { number: '3782 822463 10005', cvc: '123' });
    expect(threeDigits.statusCode).toBe(402);
    expect(threeDigits.json()).toMatchObject({ code: 'invalid_cvc', message: "Your card's security code is invalid." });
    const fourDigits = await saveCard(renter, { number: '3782 822463 10005', cvc: '1234' });
    expect(fourDigits.statusCode).toBe(200);
    expect(await listCards(renter)).toMatchObject([{ card_brand: 'american express', last4: '0005' }]);
  });

  it('a succeeded setup intent cannot be confirmed again', async () => {
    const renter = await signInAs(ctx);
    const secret = await secretFor(renter);
    expect((await confirm(secret, { number: '4242424242424242' })).statusCode).toBe(200);
    const again = await confirm(secret, { number: '5555555555554444' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'setup_intent_unexpected_state',
      message: 'This SetupIntent has already succeeded.',
    });
    expect(await listCards(renter)).toHaveLength(1);
  });

  it('after a decline the same intent waits for another card, and a good card then succeeds', async () => {
    const renter = await signInAs(ctx);
    const secret = await secretFor(renter);
    expect((await confirm(secret, { number: '4000000000009995' })).statusCode).toBe(402);
    expect(await intentRow(secret)).toMatchObject({
      status: 'requires_payment_method',
      payment_method_id: null,
      last_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    const retry = await confirm(secret, { number: '5555 5555 5555 4444' });
    expect(retry.statusCode).toBe(200);
    expect(await intentRow(secret)).toMatchObject({
      status: 'succeeded',
      payment_method_id: retry.json().payment_method,
      last_error: null,
    });
    expect(await listCards(renter)).toMatchObject([{ card_brand: 'mastercard', last4: '4444' }]);
  });

  it('4000 0000 0000 0341 is saved, marked to fail when charged', async () => {
    const renter = await signInAs(ctx);
    const res = await saveCard(renter, { number: '4000000000000341' });
    expect(res.statusCode).toBe(200);
    const pm = await ctx.handle.db
      .selectFrom('sandbox_payment_methods')
      .select(['behaviour'])
      .where('id', '=', res.json().payment_method)
      .executeTakeFirstOrThrow();
    expect(pm.behaviour).toBe('charge_fails');
  });

  it('two setup-intent calls at once make one gateway customer', async () => {
    const renter = await signInAs(ctx);
    const [a, b, c] = await Promise.all([setupIntent(renter), setupIntent(renter), setupIntent(renter)]);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
    const db = ctx.handle.db;
    const user = await db
      .selectFrom('users')
      .select(['gateway_customer_id'])
      .where('id', '=', renter.userId)
      .executeTakeFirstOrThrow();
    const customers = await db
      .selectFrom('sandbox_customers')
      .select(['id'])
      .where(sql<string>`metadata->>'user_id'`, '=', renter.userId)
      .execute();
    expect(customers.map((x) => x.id)).toEqual([user.gateway_customer_id]);
    const intents = await db
      .selectFrom('sandbox_setup_intents')
      .select(['customer_id'])
      .where('customer_id', '=', user.gateway_customer_id!)
      .execute();
    expect(intents).toHaveLength(3);
  });

  it('lists cards newest first', async () => {
    const renter = await signInAs(ctx);
    await saveCard(renter, { number: '4242424242424242' });
    await saveCard(renter, { number: '6011 1111 1111 1117' });
    expect((await listCards(renter)).map((c) => `${c.card_brand} ${c.last4}`)).toEqual(['discover 1117', 'visa 4242']);
  });

  it('a renter deletes their own card and it is gone', async () => {
    const renter = await signInAs(ctx);
    const kept = (await saveCard(renter, { number: '4242424242424242' })).json().payment_method;
    const removed = (await saveCard(renter, { number: '5555555555554444' })).json().payment_method;
    const res = await deleteCard(renter, removed);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await listCards(renter)).map((c) => c.id)).toEqual([kept]);
    expect((await deleteCard(renter, removed)).statusCode).toBe(404);
  });

  it('another renter’s card cannot be deleted (404, as if it did not exist) nor seen', async () => {
    const owner = await signInAs(ctx);
    const other = await signInAs(ctx);
    const card = (await saveCard(owner, { number: '4242424242424242' })).json().payment_method;
    await saveCard(other, { number: '5555555555554444' });
    const res = await deleteCard(other, card);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'No saved card with that id.' });
    expect(await deleteCard(other, 'pm_doesnotexist')).toMatchObject({ statusCode: 404 });
    expect((await deleteCard(other, 'pm_doesnotexist')).json().message).toBe(res.json().message);
    expect((await listCards(owner)).map((c) => c.id)).toEqual([card]);
    expect((await listCards(other)).map((c) => c.last4)).toEqual(['4444']);
  });

  it('a renter with no customer yet has no cards, and deleting is 404', async () => {
    const renter = await signInAs(ctx);
    expect(await listCards(renter)).toEqual([]);
    expect((await deleteCard(renter, 'pm_anything')).statusCode).toBe(404);
  });

  it('without a session all three calls are 401', async () => {
    expect((await setupIntent(null)).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/v1/users/credit-cards' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/credit-cards/pm_x' })).statusCode).toBe(401);
    const expired = await ctx.app.inject({
      url: '/api/v1/users/credit-cards',
      headers: { stytch_auth: 'not-a-session' },
    });
    expect(expired.statusCode).toBe(401);
  });

  it('the sandbox confirm call with an unknown client secret is 404', async () => {
    const res = await confirm('seti_unknown_secret_nothing', { number: '4242424242424242' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such setupintent: 'seti_unknown'",
    });
  });

  it('the sandbox reports setup_intent.succeeded where Stripe would send the webhook, and nothing for a refusal', async () => {
    const events: GatewayEvent[] = [];
    const gateway = new SandboxGateway(
      ctx.handle.db,
      () => ctx.clock.now,
      (e) => void events.push(e),
    );
    const renter = await signInAs(ctx);
    const customerId = await gateway.createCustomer(
      { id: renter.userId, phone: '+16155550100', email: null },
      `events-${renter.userId}`,
    );
    const { id, clientSecret } = await gateway.createSetupIntent(customerId);
    await expect(
      gateway.confirmSetupIntent(clientSecret, { number: '4000000000000002', ...GOOD }),
    ).rejects.toMatchObject({ statusCode: 402 });
    expect(events).toEqual([]);
    const confirmed = await gateway.confirmSetupIntent(clientSecret, { number: '4242424242424242', ...GOOD });
    expect(events).toEqual([
      { type: 'setup_intent.succeeded', setupIntentId: id, customerId, paymentMethodId: confirmed.payment_method },
    ]);
  });

  it('a malformed confirm body is a 400 naming the field', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/setup_intents/confirm',
      payload: {
        client_secret: 'x',
        card: { number: '4242424242424242', exp_month: 'soon', exp_year: 2030, cvc: '123' },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'card.exp_month' });
  });
});
