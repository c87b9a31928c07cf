import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrashPoint } from '../src/crash.ts';
import { SandboxWebhookDeliverer } from '../src/features/payments/sandbox-deliverer.ts';
import { DEFAULT_SANDBOX_WEBHOOK_SECRET } from '../src/features/payments/sandbox-gateway.ts';
import { TEST_NOW, type TestContext, createTestContext } from './harness.ts';
import { unbookedCar } from './factories.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { OPS_API } from '@ampere/domain/contract/ops';
import { CARD_CHARGE_WAIT_MS, finishCardCharges } from '../src/features/money/service.ts';
import { agreedBooks, photoEvidence, returnedTrip, ops, staffAt } from './money-helpers.ts';
import type { SandboxContext } from './sandbox-context.ts';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GOOD_CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };

/** The fields of the answers this test reads (reservation, payment secrets, a sandbox intent). */
interface Answer {
  status: number;
  json: {
    reservation: { platform_id: string; status: string };
    stripe: { client_secret: string; deposit_client_secret: string };
    status: string;
    payment_method: string;
  };
}

interface ApiProcess {
  origin: string;
  /** The signal that ended the process (null for a clean exit). */
  ended: Promise<NodeJS.Signals | null>;
  stop(): Promise<void>;
}

/**
 * The real server (`main.ts`) as its own operating-system process on the test's database, its clock
 * starting at the test instant. The sandbox's webhooks are not delivered by the server: the test
 * plays the provider and delivers (and retries) them itself. No background jobs, so nothing but the
 * test's calls and the provider's retries touches the trip.
 */
async function startApi(databaseUrl: string, crashAt?: CrashPoint, clockStart = TEST_NOW): Promise<ApiProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      SANDBOX_WEBHOOKS: 'off',
      JOBS: 'off',
      CLOCK_START: clockStart.toISOString(),
      DATABASE_POOL_SIZE: '4',
      ...(crashAt ? { CRASH_AT: crashAt } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The API process did not start in time:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void ended.then((signal) => {
      clearTimeout(timer);
      reject(new Error(`The API process ended (${signal ?? child.exitCode}) before it started:\n${output}`));
    });
  });
  return {
    origin,
    ended,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await ended;
    },
  };
}

/** Skipped without TEST_DATABASE_URL: the embedded database lives inside the process that is killed. */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'killing the API with SIGKILL in the middle of booking, paying and a webhook, then restarting it',
  () => {
    let ctx: TestContext;
    let databaseUrl: string;
    const used = new Set<string>();
    const running = new Set<ApiProcess>();

    beforeAll(async () => {
      // The in-process app delivers no webhooks either: the test plays the provider.
      ctx = await createTestContext('postgres', { env: { SANDBOX_WEBHOOKS: 'off' } });
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(ctx.handle.db);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${rows[0]!.name}`;
      databaseUrl = url.toString();
    });
    afterAll(async () => {
      await Promise.all([...running].map((p) => p.stop()));
      await ctx?.close();
    });

    async function start(crashAt?: CrashPoint, clockStart?: Date): Promise<ApiProcess> {
      const api = await startApi(databaseUrl, crashAt, clockStart);
      running.add(api);
      void api.ended.then(() => running.delete(api));
      return api;
    }

    async function freeCar(): Promise<string> {
      return (await unbookedCar(ctx.handle.db, used, { timezone: 'America/Chicago' })).vin;
    }

    const trip = (vin: string) => ({
      vehicleVin: vin,
      pickupDate: '2026-12-10',
      pickupTime: '10:00',
      returnDate: '2026-12-13',
      returnTime: '10:00',
      addonIds: [],
      vehicleTimezone: 'America/Chicago',
    });

    async function call(api: ApiProcess, path: string, body: unknown, who?: SignedIn): Promise<Answer> {
      const res = await fetch(`${api.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...who?.headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Answer['json'] };
    }

    /** A call the process dies in the middle of: the caller gets no answer, and the process ends by SIGKILL. */
    async function callThatKills(api: ApiProcess, path: string, body: unknown, who?: SignedIn): Promise<void> {
      await expect(call(api, path, body, who)).rejects.toThrow();
      expect(await api.ended).toBe('SIGKILL');
    }

    /** The provider retrying its undelivered events against a process, as Stripe would after no answer. */
    function providerRetries(api: ApiProcess): Promise<number> {
      const send = async (body: string, signature: string) => {
        const res = await fetch(`${api.origin}/api/v1/webhooks/sandbox`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
          body,
        });
        return res.status;
      };
      const deliverer = new SandboxWebhookDeliverer(
        ctx.handle.db,
        send,
        DEFAULT_SANDBOX_WEBHOOK_SECRET,
        () => TEST_NOW,
        { maxAttempts: 1_000, log: { warn: () => {} } },
      );
      return deliverer.deliverPendingEvents();
    }

    async function reservationsOf(userId: string) {
      return ctx.handle.db
        .selectFrom('reservations as r')
        .leftJoin('transactions as t', 't.reservation_id', 'r.id')
        .select(['r.id', 'r.platform_id', 'r.status', (eb) => eb.fn.count<string>('t.id').as('items')])
        .where('r.user_id', '=', userId)
        .groupBy(['r.id', 'r.platform_id', 'r.status'])
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, items: Number(r.items) })));
    }

    /** What the provider holds for a trip: its payment intents, by the ids our metadata gives them. */
    async function providerIntents(reservationId: string) {
      const { rows } = await sql<{
        id: string;
        kind: string;
        status: string;
        amount_received: number;
        amount_capturable: number;
      }>`
      select id, metadata::jsonb->>'kind' as kind, status, amount_received, amount_capturable from sandbox_payment_intents
      where metadata::jsonb->>'reservation_id' = ${reservationId} order by created_at`.execute(ctx.handle.db);
      return rows.map((r) => ({
        ...r,
        amount_received: Number(r.amount_received),
        amount_capturable: Number(r.amount_capturable),
      }));
    }

    /** Money as each side tells it: what the provider took for the trip's charges, and what our ledger says was paid. */
    async function books(reservationId: string) {
      const intents = await providerIntents(reservationId);
      const providerTook = intents.filter((i) => i.kind === 'CHARGE').reduce((sum, i) => sum + i.amount_received, 0);
      const payments = await ctx.handle.db
        .selectFrom('payments')
        .select(['kind', 'status', 'amount_captured', 'provider_intent_id'])
        .where('reservation_id', '=', reservationId)
        .execute();
      const recordedCaptured = payments
        .filter((p) => p.kind === 'CHARGE')
        .reduce((sum, p) => sum + Number(p.amount_captured), 0);
      const items = await ctx.handle.db
        .selectFrom('transactions')
        .select(['category', 'status', 'captured_amount'])
        .where('reservation_id', '=', reservationId)
        .execute();
      const itemsPaid = items
        .filter((t) => t.category !== 'Deposit' && t.status === 'Successful')
        .reduce((sum, t) => sum + Number(t.captured_amount), 0);
      return { providerTook, recordedCaptured, itemsPaid, intents, payments, items };
    }

    /** A call to the test's own in-process app on the same database, for the steps no crash is aimed at. */
    async function inProcess(path: string, body: unknown, who?: SignedIn): Promise<Answer> {
      const res = await ctx.app.inject({
        method: 'POST',
        url: path,
        headers: who?.headers ?? {},
        payload: body as object,
      });
      return { status: res.statusCode, json: res.json<Answer['json']>() };
    }

    /** A Started trip of a new renter. */
    async function bookedTrip(): Promise<{ who: SignedIn; id: string; platformId: string }> {
      const who = await signInAs(ctx);
      const booked = await inProcess('/api/v1/reservations', trip(await freeCar()), who);
      expect(booked.status).toBe(201);
      const [row] = await reservationsOf(who.userId);
      return { who, id: row!.id, platformId: booked.json.reservation.platform_id };
    }

    /** What the browser does: asks to pay, then confirms both intents with the provider (new card for the charge, the saved card for the deposit). */
    async function payAtProvider(who: SignedIn, platformId: string): Promise<void> {
      const paid = await inProcess('/api/v1/payments', { platform_id: platformId }, who);
      expect(paid.status).toBe(200);
      const charge = await inProcess('/api/sandbox/v1/payment_intents/confirm', {
        client_secret: paid.json.stripe.client_secret,
        card: GOOD_CARD,
      });
      expect(charge.json.status).toBe('succeeded');
      const hold = await inProcess('/api/sandbox/v1/payment_intents/confirm', {
        client_secret: paid.json.stripe.deposit_client_secret,
        payment_method: charge.json.payment_method,
      });
      expect(hold.json.status).toBe('requires_capture');
    }

    it('booking: killed between the reservation row and its line items, nothing of the booking is left, and the car can be booked again', async () => {
      const who = await signInAs(ctx);
      const vin = await freeCar();
      await callThatKills(await start('booking-before-line-items'), '/api/v1/reservations', trip(vin), who);
      expect(await reservationsOf(who.userId)).toEqual([]);

      const api = await start();
      try {
        const again = await call(api, '/api/v1/reservations', trip(vin), who);
        expect(again.status).toBe(201);
        // One reservation, with its line items: three rental days, the tax and the deposit.
        const rows = await reservationsOf(who.userId);
        expect(rows).toEqual([
          expect.objectContaining({ platform_id: again.json.reservation.platform_id, status: 'Started', items: 5 }),
        ]);
      } finally {
        await api.stop();
      }
    }, 180_000);

    it('paying: killed after the provider made the intent, and again after it took the money but before the ledger committed; the retry and the webhook leave provider and ledger equal', async () => {
      const { who, id, platformId } = await bookedTrip();

      // 1. The provider made the charge's intent; our payment row never learned its id.
      await callThatKills(
        await start('payment-after-intent-created'),
        '/api/v1/payments',
        { platform_id: platformId },
        who,
      );
      expect((await providerIntents(id)).map((i) => i.kind)).toEqual(['CHARGE']);
      expect((await books(id)).payments.every((p) => p.provider_intent_id === null)).toBe(true);

      // Paying again (through another instance on the same database) gets that same intent back: one
      // charge at the provider, not two. The renter pays at the provider.
      await payAtProvider(who, platformId);
      let money = await books(id);
      expect(money.intents.map((i) => i.kind).sort()).toEqual(['CHARGE', 'DEPOSIT_HOLD']);
      expect(money.payments.map((p) => p.provider_intent_id).sort()).toEqual(money.intents.map((i) => i.id).sort());

      // 2. The renter's "I have paid": the provider took the money; the process dies before our ledger commits.
      await callThatKills(
        await start('payment-sync-before-commit'),
        '/api/v1/reservations/confirm',
        { platform_id: platformId },
        who,
      );
      money = await books(id);
      expect(money.providerTook).toBeGreaterThan(0);
      expect(money.recordedCaptured).toBe(0);
      expect(money.itemsPaid).toBe(0);

      // On restart, the provider's webhooks (never answered) bring the ledger level with the provider.
      const api = await start();
      try {
        expect(await providerRetries(api)).toBeGreaterThan(0);
        money = await books(id);
        expect(money.recordedCaptured).toBe(money.providerTook);
        expect(money.itemsPaid).toBe(money.providerTook);
        expect(money.items.filter((t) => t.category !== 'Deposit').every((t) => t.status === 'Successful')).toBe(true);
        expect(money.payments.find((p) => p.kind === 'DEPOSIT_HOLD')?.status).toBe('requires_capture');
        // And the renter's page shows the trip booked.
        const confirmed = await call(api, '/api/v1/reservations/confirm', { platform_id: platformId }, who);
        expect(confirmed.json.reservation.status).toBe('Pending');
        expect(await books(id)).toEqual(money);
      } finally {
        await api.stop();
      }
    }, 240_000);

    it('a webhook: killed before it commits and again after it commits, the provider’s retries apply every event exactly once', async () => {
      const { who, id, platformId } = await bookedTrip();
      await payAtProvider(who, platformId);
      const intentIds = (await providerIntents(id)).map((i) => i.id);
      const events = async () => {
        const { rows } = await sql<{ id: string; delivered: boolean }>`
        select id, delivered_at is not null as delivered from sandbox_events
        where payload::jsonb->'data'->'object'->>'id' in (${sql.join(intentIds)}) order by seq`.execute(ctx.handle.db);
        return rows;
      };
      const received = async () =>
        (
          await ctx.handle.db
            .selectFrom('webhook_events')
            .select('event_id')
            .where('provider', '=', 'sandbox')
            .where('object_id', 'in', intentIds)
            .execute()
        ).map((r) => r.event_id);
      const sent = await events();
      expect(sent.length).toBeGreaterThanOrEqual(2);

      // Killed inside the webhook's transaction: nothing of it was recorded or applied.
      let api = await start('webhook-before-commit');
      expect(await providerRetries(api)).toBe(0);
      expect(await api.ended).toBe('SIGKILL');
      expect(await received()).toEqual([]);
      expect((await books(id)).recordedCaptured).toBe(0);

      // Killed after the first event committed, before the provider heard back: it will send that event again.
      api = await start('webhook-after-commit');
      expect(await providerRetries(api)).toBe(0);
      expect(await api.ended).toBe('SIGKILL');
      expect(await received()).toHaveLength(1);
      expect((await events()).every((e) => !e.delivered)).toBe(true);

      // Restarted: every retry is answered; the one already applied is acknowledged, not applied again.
      api = await start();
      try {
        expect(await providerRetries(api)).toBe(sent.length);
        const ids = await received();
        expect(ids.sort()).toEqual(sent.map((e) => e.id).sort());
        const money = await books(id);
        expect(money.providerTook).toBeGreaterThan(0);
        expect(money.recordedCaptured).toBe(money.providerTook);
        expect(money.itemsPaid).toBe(money.providerTook);
        const status = await ctx.handle.db
          .selectFrom('reservations')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(status.status).toBe('Pending');

        // The provider sends them all once more (an answer lost on the way back): nothing changes.
        await sql`update sandbox_events set delivered_at = null where id in (${sql.join(sent.map((e) => e.id))})`.execute(
          ctx.handle.db,
        );
        expect(await providerRetries(api)).toBe(sent.length);
        expect((await received()).sort()).toEqual(ids);
        expect(await books(id)).toEqual(money);
      } finally {
        await api.stop();
      }
    }, 240_000);

    it.each(['charge-after-intent-created', 'charge-before-confirm'] as const)(
      'a card charge after the trip: killed at %s, the job takes it once; provider, ledger and charge page agree',
      async (point) => {
        // The returned trip is made in this process; its clock moves with it, and is put back after.
        const money = ctx as SandboxContext;
        try {
          const trip = await returnedTrip(money);
          const manager = await staffAt(money, 'manager', [trip.locationId]);
          const hold = await ctx.handle.db
            .selectFrom('payments')
            .select('id')
            .where('reservation_id', '=', trip.id)
            .where('kind', '=', 'DEPOSIT_HOLD')
            .executeTakeFirstOrThrow();
          expect((await ops(money, manager.cookie, 'POST', `/deposits/${hold.id}/release`, {})).statusCode).toBe(200);
          const before = await agreedBooks(money, trip);
          const evidence = await photoEvidence(money, manager.cookie, trip.id);

          const api = await start(point, ctx.clock.now);
          await expect(
            fetch(`${api.origin}${OPS_API}/trips/${trip.id}/charges`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie: manager.cookie },
              body: JSON.stringify({
                type: 'damage',
                cents: 30_000,
                reason: 'Wing mirror cracked; body shop estimate attached.',
                evidenceIds: [evidence],
              }),
            }),
          ).rejects.toThrow();
          expect(await api.ended).toBe('SIGKILL');
          const [cut] = await ctx.handle.db
            .selectFrom('payments')
            .select(['status', 'provider_intent_id'])
            .where('reservation_id', '=', trip.id)
            .where('off_session', '=', true)
            .execute();
          expect(cut!.status).not.toBe('succeeded');

          const job = ctx.app.trips.jobDeps.payments;
          ctx.clock.now = new Date(ctx.clock.now.getTime() + CARD_CHARGE_WAIT_MS + 60_000);
          expect(await finishCardCharges(job)).toBe(1);
          expect(await finishCardCharges(job)).toBe(0);
          const charges = (await providerIntents(trip.id)).filter((i) => i.kind === 'CHARGE');
          // The booking's charge and this one: one intent each, never a second for the cut-off charge.
          expect(charges.map((i) => i.status)).toEqual(['succeeded', 'succeeded']);
          expect(await agreedBooks(money, trip)).toBe(before + 30_000);
          const [charge] = await ctx.handle.db
            .selectFrom('charges')
            .select('id')
            .where('reservation_id', '=', trip.id)
            .execute();
          const page = await ctx.app.inject({
            method: 'GET',
            url: `/api/v1/charges/${charge!.id}`,
            headers: trip.renter.headers,
          });
          expect(page.json()).toMatchObject({ status: 'charged', toCardCents: 30_000, owedCents: 0 });
        } finally {
          ctx.clock.now = TEST_NOW;
        }
      },
      240_000,
    );
  },
);
