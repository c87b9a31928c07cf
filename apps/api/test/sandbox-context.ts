import { addDays, toLocal } from '@ampere/domain/time';
import { settleReturnedDeposit } from '../src/features/trips/settle-deposit.ts';
import { SandboxGateway } from '../src/features/payments/sandbox-gateway.ts';
import { Realtime } from '../src/features/realtime/service.ts';
import { type Engine, type TestContext, createTestContext } from './harness.ts';

export interface SandboxContext extends TestContext {
  /** The sandbox gateway in hand, to capture, cancel and refund as an operator would. */
  gateway: SandboxGateway;
  /** What the app published to renters' realtime channels. */
  published: Array<{ channel: string; event: string; data: { platform_id?: string } & Record<string, unknown> }>;
}

/**
 * A test database and app on the sandbox gateway, whose webhooks are delivered on their own
 * ('on') or only when a test says so ('off'), signed with `webhookSecret` when given.
 */
export async function createSandboxContext(
  engine: Engine,
  opts: { deliver: 'on' | 'off'; webhookSecret?: string },
): Promise<SandboxContext> {
  let gateway: SandboxGateway | undefined;
  const published: SandboxContext['published'] = [];
  const ctx = await createTestContext(engine, {
    // Deliveries on their own run on the job queue (decision 025), so that context runs it.
    env: {
      SANDBOX_WEBHOOKS: opts.deliver,
      ...(opts.deliver === 'on' ? { JOBS: 'in-process' } : {}),
      ...(opts.webhookSecret ? { SANDBOX_WEBHOOK_SECRET: opts.webhookSecret } : {}),
    },
    providers: (db, clock) => {
      gateway = new SandboxGateway(
        db,
        clock,
        undefined,
        opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : undefined,
      );
      const realtime = new Realtime(db, {
        kind: 'builtin',
        key: 'test',
        secret: 's'.repeat(32),
        send: async (channel, event, data) => void published.push({ channel, event, data: JSON.parse(data) }),
      });
      return { gateway, realtime };
    },
  });
  return { ...ctx, gateway: gateway!, published };
}

const GOOD_CARD = { exp_month: 12, exp_year: 2030, cvc: '123' };

/** Confirms an intent in the sandbox as the browser does: with a new card's number, or a saved payment method. */
export function confirmIntent(ctx: SandboxContext, clientSecret: string, pay: { card?: string; pm?: string }) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/sandbox/v1/payment_intents/confirm',
    payload: {
      client_secret: clientSecret,
      ...(pay.pm ? { payment_method: pay.pm } : { card: { number: pay.card, ...GOOD_CARD } }),
    },
  });
}

/**
 * Pays a trip as the browser pays it: the charge with a new 4242 card, the deposit held on the
 * card it saved, then the confirm call. Returns the reservation the confirm answered.
 */
export async function payTrip(ctx: SandboxContext, who: { headers: Record<string, string> }, platformId: string) {
  const secrets = (
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: who.headers,
      payload: { platform_id: platformId },
    })
  ).json().stripe;
  const charged = await confirmIntent(ctx, secrets.client_secret, { card: '4242424242424242' });
  if (secrets.deposit_client_secret)
    await confirmIntent(ctx, secrets.deposit_client_secret, { pm: charged.json().payment_method });
  return confirm(ctx, who, platformId);
}

/**
 * Pays what a paid trip owes now (a change of dates, fees) as the browser pays it: the charge with
 * the card the trip was first paid with, then the confirm call. Returns the reservation it answered.
 */
export async function payBalance(
  ctx: SandboxContext,
  who: { headers: Record<string, string> },
  platformId: string,
  reservationId: string,
) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/payments',
    headers: who.headers,
    payload: { platform_id: platformId },
  });
  if (res.statusCode !== 200) throw new Error(`payments answered ${res.statusCode}: ${res.body}`);
  const card = await ctx.handle.db
    .selectFrom('payments')
    .select('payment_method_id')
    .where('reservation_id', '=', reservationId)
    .where('kind', '=', 'CHARGE')
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  const paid = await confirmIntent(ctx, res.json().stripe.client_secret, { pm: card.payment_method_id! });
  if (paid.statusCode !== 200) throw new Error(`the card was refused: ${paid.body}`);
  return confirm(ctx, who, platformId);
}

/** The confirm call the pay page makes once the card has gone through; returns the reservation it answered. */
async function confirm(ctx: SandboxContext, who: { headers: Record<string, string> }, platformId: string) {
  const confirmed = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/reservations/confirm',
    headers: who.headers,
    payload: { platform_id: platformId },
  });
  return confirmed.json().reservation;
}

/** Asks to move a trip's return `days` later, at the same time of day (its pickup unchanged), as the extension page does. */
export async function askLaterReturn(
  ctx: SandboxContext,
  who: { headers: Record<string, string> },
  trip: { id: string; platformId: string },
  days: number,
) {
  const row = await ctx.handle.db
    .selectFrom('reservations')
    .select(['pickup_at', 'return_at', 'timezone'])
    .where('id', '=', trip.id)
    .executeTakeFirstOrThrow();
  const pickup = toLocal(row.pickup_at, row.timezone);
  const ret = toLocal(row.return_at, row.timezone);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/reservations/${trip.platformId}/change`,
    headers: who.headers,
    payload: {
      pickupDate: pickup.date,
      pickupTime: pickup.time,
      returnDate: addDays(ret.date, days),
      returnTime: ret.time,
    },
  });
}

/**
 * The deposit review after a return ends (decision 092) as when staff settle it at once: the hold
 * of the returned trip (by its reference or id) is captured for what is linked to it and the rest
 * released, as End Trip did itself before the review window.
 */
export async function reviewEnds(ctx: SandboxContext, trip: string): Promise<void> {
  const row = await ctx.handle.db
    .selectFrom('reservations')
    .select('id')
    .where((eb) => (/^[0-9a-f-]{36}$/.test(trip) ? eb('id', '=', trip) : eb('platform_id', '=', trip)))
    .executeTakeFirstOrThrow();
  await settleReturnedDeposit({ db: ctx.handle.db, gateway: ctx.gateway, clock: () => ctx.clock.now }, row.id);
}
