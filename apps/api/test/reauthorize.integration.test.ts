import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_DAYS } from '../src/features/payments/sandbox-intents.ts';
import { REAUTHORIZE_AFTER_DAYS, reauthorizeDepositHolds } from '../src/features/trips/reauthorize.ts';
import { syncPaymentIntent } from '../src/features/trips/sync.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip } from './factories.ts';
import { type SandboxContext, createSandboxContext, payTrip } from './sandbox-context.ts';
import { signInAs } from './sessions.ts';

const DAY = 86_400_000;

describe.each(engines())('re-authorising deposit holds on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  const deps = () => ({ db: db(), gateway: ctx.gateway, clock: () => ctx.clock.now });
  /**
   * The job's run as it concerns this test's trip (the database holds other tests' trips too):
   * renewed or failed, and how many times its renter was told to reload (REFRESH).
   */
  const runFor = async (t: StartedTrip & { userId: string }) => {
    const told: string[] = [];
    const { renewed, failed } = await reauthorizeDepositHolds(deps(), async (u) => void told.push(u));
    return {
      renewed: renewed.includes(t.id),
      failed: failed.includes(t.id),
      refreshed: told.filter((u) => u === t.userId).length,
    };
  };
  const holds = (t: StartedTrip) =>
    db()
      .selectFrom('payments')
      .select(['id', 'status', 'provider_intent_id', 'amount', 'created_at'])
      .where('reservation_id', '=', t.id)
      .where('kind', '=', 'DEPOSIT_HOLD')
      .orderBy('created_at')
      .execute();
  const deposit = (t: StartedTrip) =>
    db()
      .selectFrom('transactions')
      .select(['status', 'payment_id'])
      .where('reservation_id', '=', t.id)
      .where('category', '=', 'Deposit')
      .executeTakeFirstOrThrow();

  async function paidTrip(leadDays: number): Promise<StartedTrip & { userId: string }> {
    ctx.clock.now = TEST_NOW;
    const who = await signInAs(ctx);
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { leadDays });
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    return { ...trip, userId: who.userId };
  }

  it(`left alone, the sandbox lets an uncaptured hold lapse after ${AUTHORIZATION_DAYS} days, as Stripe does: the deposit is no longer held`, async () => {
    const trip = await paidTrip(20);
    ctx.clock.now = new Date(TEST_NOW.getTime() + AUTHORIZATION_DAYS * DAY + 60_000);
    const [hold] = await holds(trip);
    await syncPaymentIntent(deps(), hold!.provider_intent_id!);
    expect((await holds(trip))[0]!.status).toBe('canceled');
    expect((await deposit(trip)).status).toBe('Canceled');
  });

  it(`renewed after ${REAUTHORIZE_AFTER_DAYS} days on the same card: a new hold authorised, the deposit row moved to it, the old one released; once`, async () => {
    const trip = await paidTrip(20);
    ctx.clock.now = new Date(TEST_NOW.getTime() + (REAUTHORIZE_AFTER_DAYS - 1) * DAY);
    expect(await runFor(trip)).toEqual({ renewed: false, failed: false, refreshed: 0 });
    ctx.clock.now = new Date(TEST_NOW.getTime() + REAUTHORIZE_AFTER_DAYS * DAY + 60_000);
    // The renter's open pages reload once: the deposit's authorisation is the new hold's.
    expect(await runFor(trip)).toEqual({ renewed: true, failed: false, refreshed: 1 });
    expect(await runFor(trip)).toEqual({ renewed: false, failed: false, refreshed: 0 });
    const [old, renewed] = await holds(trip);
    expect(old!.status).toBe('canceled');
    expect(renewed!.status).toBe('requires_capture');
    expect(renewed!.amount).toBe(20_000);
    const row = await deposit(trip);
    expect(row.status).toBe('Pending');
    expect(row.payment_id).toBe(renewed!.id);
    const intent = await ctx.gateway.retrievePaymentIntent(renewed!.provider_intent_id!);
    expect(intent.amount_capturable).toBe(20_000);
    // Past the first hold's lifetime, the deposit is still held, by the new one.
    ctx.clock.now = new Date(TEST_NOW.getTime() + (AUTHORIZATION_DAYS + 1) * DAY);
    await syncPaymentIntent(deps(), renewed!.provider_intent_id!);
    expect((await holds(trip))[1]!.status).toBe('requires_capture');
    expect((await deposit(trip)).status).toBe('Pending');
  });

  it('a card that refuses the new authorisation leaves the old hold in place and no open intent behind', async () => {
    const trip = await paidTrip(20);
    const [hold] = await holds(trip);
    const pm = (
      await db().selectFrom('payments').select('payment_method_id').where('id', '=', hold!.id).executeTakeFirstOrThrow()
    ).payment_method_id!;
    // The card starts declining (as 4000 0000 0000 0341 does once saved).
    await db().updateTable('sandbox_payment_methods').set({ behaviour: 'charge_fails' }).where('id', '=', pm).execute();
    ctx.clock.now = new Date(TEST_NOW.getTime() + REAUTHORIZE_AFTER_DAYS * DAY + 60_000);
    expect(await runFor(trip)).toEqual({ renewed: false, failed: true, refreshed: 0 });
    const [old, attempt] = await holds(trip);
    expect(old!.status).toBe('requires_capture');
    expect(attempt!.status).toBe('canceled');
    expect((await deposit(trip)).payment_id).toBe(old!.id);
  });
});
