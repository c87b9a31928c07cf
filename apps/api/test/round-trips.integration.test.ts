import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { addDays, toLocal } from '@ampere/domain/time';
import { engineOf } from '../src/db/connect.ts';
import { isSentWithCommit } from '../src/db/sent-with-commit.ts';
import { unbookedCar } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

/**
 * What each step of the booking path costs the database, counted (never timed): `statements` are
 * the queries a step sends, `roundTrips` adds the transaction control (begin, commit, savepoints),
 * each one a wait on the database. Under 20 renters at once every round trip is CPU on the API and
 * on PostgreSQL, so these counts are what the booking benchmark's p99 grows with (decision 064).
 *
 * A change that adds a query to a step makes this test fail: raise the figures here on purpose, in
 * the same commit, and say why in its message; lower them when a change saves some. They are the
 * most a step may send, not an exact count: the sandbox's card confirm brings the payment up to
 * date after its answer, so whether that or the renter's confirm gets there first moves a check
 * or two between steps (extend 58 to 60 round trips, messages included).
 *
 * The server pool sends a transaction's `begin` with its first statement (decision 104): one round
 * trip less for each transaction, which these figures count. The embedded database runs in this
 * process and is handed `begin` on its own; there it is a call, not a wait on a server, and it is
 * not counted as a round trip.
 */
const EXPECTED: Record<Step, { statements: number; roundTrips: number }> = {
  // A signed-in renter's limited request finds its session and counts its request window in one
  // statement (decision 038, addendum): one round trip less for every such request in every step.
  // A right code is used up, the renter found (or created at their first sign-in) and their session
  // opened in one statement: four fewer than one each, with the renter read again after creating them.
  // The profile's update answers the birthday it replaced: no read of the renter before it. A code
  // check is counted against its address's limit in the statement that locks the code, and a send's
  // limits are read by the statement that stores its code: one fewer each. A change that retired no
  // unpaid charge does not look for charges to cancel after its commit: one statement less on the
  // profile, the booking and the add-ons.
  'sign in': { statements: 15, roundTrips: 18 },
  // One more for the do-not-rent check before anything is written (decision 095). Every answer that
  // shows a trip reads its row and the trip's parts in one statement: one round trip less on create,
  // add-ons, payment, confirm and cancel, three on extend (decision 101).
  // The car's lot's pickup buffer is read with the car.
  create: { statements: 11, roundTrips: 14 },
  // Offering the add-ons reads the car and its add-ons in one statement; changing them reads the
  // car's model and tax rate once, and skips comparing the unpaid items when an add-on surely changes them.
  // The retired charge's coupon claim is given back in the statement that retires it: one less.
  'add-ons': { statements: 13, roundTrips: 14 },
  // Each signing reads the trip, its agreement of that type and its line items in one statement, sets
  // the rental type in the statement that inserts the agreement, and answers with the row it inserted.
  // Each signing's insert carries the transaction's commit (decision 110): one less each.
  agreements: { statements: 8, roundTrips: 8 },
  // Recording a payment's intent answers with the row it updated (no read after), a new payment
  // links its line items in the statement that inserts it, and a renter's first gateway customer is
  // recorded in one conditional update instead of a locked read and a write. The credit check reads
  // the trip with the renter's name and stores its answer in one conditional update, without a
  // transaction: three round trips less. Paying reads the trip's id with its payments and the refund
  // outbox only when they say a refund is due, and the deposit's intent is recorded by a statement
  // that also reads the charge's status: three less. The renter's gateway customer is read with the
  // trip: one less. A new reservation's charge and deposit hold are inserted, and their items
  // linked, in one statement: one less. The underage fee's check reads the renter's birthday with
  // the trip's fee rows, and the sandbox makes an intent without reading its customer first (the
  // foreign key refuses an unknown one): three less. The plan reads the trip's payments and its
  // unpaid items in one statement: one less. The new payments' insert carries the commit (decision 110): one less.
  // The underage fee's facts are read with the payments and the unpaid items: one less.
  payment: { statements: 15, roundTrips: 15 },
  // The sandbox locks the intent and reads the saved card named in one statement: one less. It
  // writes the intent's new state and the event reporting it in one statement: one less a confirm.
  // That statement carries the commit (decision 110): one less a confirm.
  'card confirm': { statements: 7, roundTrips: 7 },
  // Confirm, extend and cancel record the renter's trip messages in their transaction (decision 070):
  // the trip's names and addresses read, the messages written, two statements more. A confirm brings
  // all of the trip's payments up to date in one transaction (decision 101, addendum): the payments'
  // rows are written in one statement, and each charge's items are read with its locked row; the
  // refund outbox is read only when the payments read first say a refund is due. The trip's id is
  // read with its payments, and whether it is paid and its deposit held is one statement: two less.
  // Whether the trip may have its key now is one statement, without a transaction unless it may (the
  // trip, its live key and what the rules still ask for, read together): six round trips less; the
  // sync's two notices go in one statement, which reads the renter's channel id when the process
  // has not yet: two less.
  // The charge's items are settled and the coupon claim redeemed in one statement: one less.
  // The confirmation's message reads what it names with the trip's locked row: one less.
  confirm: { statements: 15, roundTrips: 16 },
  // A trip view is one statement (decision 101): seven round trips less on each answer that shows a trip.
  // The top of its range: two more when the card confirm's late syncs land in it, each asking whether
  // the trip's new days are paid yet before the extension's own payment applies them. The change
  // reads the trip with its car's rate, tax and pickup buffer in one statement and its items once,
  // writes the new days with their tax in one insert and answers with the row its update returns:
  // nine round trips less; its preview reads the trip, the pricing and the items in one: four less.
  // Each charge's items come with its locked row, and the refund outbox is read only when a refund
  // is due: three reads less in the extension's confirm. Its payment and its confirm read the trip's
  // id with its payments (its payment the renter's gateway customer too), and its payment reads the
  // refund outbox only when a refund is due: four less. Its key check is one statement: six less.
  // The change looks for charges to cancel after its commit only when it retired one: one less.
  // The preview reads the car's trips and staff holds in one statement; the payment and the card
  // confirm lose what they lose above; the confirm no longer asks the provider again about the
  // trip's first charge and its authorised hold, which no step of the renter's moves: six less.
  // A paid change applies its dates and moves the key's window in the statement that checks nothing
  // is left to pay: two less. The charge's items are settled and the coupon claim redeemed in one: one less.
  // The sandbox's confirm writes the intent and its event in one statement, and the payment's plan
  // reads the payments and the unpaid items in one: two less. The change gives the retired charge's
  // coupon claim back in the statement that retires it: one less. Its confirm learns whether the
  // charge pays charges posted after the trip from the statement that settles its items: one less.
  // The change writes its new items in the statement that records the dates asked for: one less.
  // The change's answer, the new payment's insert and the card confirm's update carry their
  // transactions' commits (decision 110): three less. Its confirm's message reads what it names
  // with the trip's locked row: one less. Its payment reads the underage fee's facts with its
  // payments and unpaid items: one less.
  extend: { statements: 34, roundTrips: 35 },
  // Cancelling retires the open charges and the deposit hold in one statement and works out and
  // records the refunds in one; after commit the provider's answer to the hold's release is not
  // read again, the refunds are recorded as made in one statement, and the released hold and the
  // refunded charges are brought up to date in one sync (their rows written together, their items
  // unlinked and marked Refunded together); the renter's customer is read only when an intent
  // must be made: nineteen round trips less. The sandbox records each refund in the statement that
  // takes it off the intent: two less. Its release of the hold and each refund write their event
  // in that statement too: three less. The sync after the refunds unlinks the retired charge's items
  // and marks the refunded ones in one statement: one less. The sandbox's release of the hold
  // and each of its refunds carry their transactions' commits (decision 110): three less.
  cancel: { statements: 29, roundTrips: 31 },
};

type Step =
  'sign in' | 'create' | 'add-ons' | 'agreements' | 'payment' | 'card confirm' | 'confirm' | 'extend' | 'cancel';

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release|rollback to)\b/i;

/**
 * Counts what reaches the database while a step runs, by step: every query the app's pool (or the
 * embedded database) is handed inside `during`. Work a step leaves running after its answer (an
 * effect after commit) still counts for that step.
 */
class RoundTripCounter {
  private readonly step = new AsyncLocalStorage<Step>();
  readonly sent = new Map<Step, string[]>();
  private restore: () => void = () => {};
  /** The embedded database: its `begin` is a call in this process, not a round trip. */
  private readonly embedded: boolean;

  constructor(ctx: TestContext) {
    const engine = engineOf(ctx.handle.db);
    this.embedded = engine?.kind === 'pglite';
    const record = (sql: unknown) => {
      const step = this.step.getStore();
      if (step === undefined) return;
      const query = sql as string | { text?: string } | null;
      const text = typeof query === 'string' ? query : (query?.text ?? '');
      this.sent.set(step, [...(this.sent.get(step) ?? []), text]);
    };
    if (engine?.kind === 'pglite') {
      // The embedded database is one session: every query of the app goes through its query().
      const pglite = engine.pglite;
      const query = pglite.query.bind(pglite);
      pglite.query = ((sql: string, ...rest: unknown[]) => {
        record(sql);
        return (query as (...args: unknown[]) => unknown)(sql, ...rest);
      }) as typeof pglite.query;
      this.restore = () => void (pglite.query = query);
    } else {
      // The pool's clients are pg.Client: each query() is one round trip to the server.
      const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
      const query = proto.query;
      proto.query = function (this: unknown, ...args: unknown[]) {
        record(args[0]);
        return query.apply(this, args);
      };
      this.restore = () => void (proto.query = query);
    }
  }

  during<T>(step: Step, work: () => Promise<T>): Promise<T> {
    return this.step.run(step, work);
  }

  counts(step: Step): { statements: number; roundTrips: number } {
    const sent = this.sent.get(step) ?? [];
    // On the server a transaction's last statement carries its commit (decision 110); the embedded
    // database runs that commit as a call of its own, not a round trip either.
    const calls = this.embedded
      ? sent.filter(
          (q, i) => !/^\s*begin\s*$/i.test(q) && !(/^\s*commit\s*$/i.test(q) && isSentWithCommit(sent[i - 1] ?? '')),
        )
      : sent;
    return { statements: sent.filter((q) => !TRANSACTION_CONTROL.test(q)).length, roundTrips: calls.length };
  }

  close(): void {
    this.restore();
  }
}

describe.each(engines())('round trips per booking step (%s)', (engine) => {
  let ctx: TestContext;
  let counter: RoundTripCounter;
  let token: string | null = null;

  const call = async <T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: object) => {
    const res = await ctx.app.inject({
      method,
      url,
      ...(body ? { payload: body } : {}),
      headers: token ? { [SESSION_HEADER]: token } : {},
    });
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    return res.json<T>();
  };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    counter = new RoundTripCounter(ctx);
    const car = await unbookedCar(ctx.handle.db, new Set());
    // This file's own database: no other test texts this number.
    const phone = '+16155553101';
    const today = toLocal(ctx.clock.now, car.timezone).date;
    const pickupDate = addDays(today, 30);
    const returnDate = addDays(pickupDate, 4);

    // The bench's journey (bench/src/booking.ts), one renter, each step as the web app calls it.
    await counter.during('sign in', async () => {
      await call('POST', '/api/v1/auth/sms/send', { phone });
      const outbox = await call<{ messages: { body: string }[] }>(
        'GET',
        `/api/dev/sms?phone=${encodeURIComponent(phone)}`,
      );
      const code = /\d{6}/.exec(outbox.messages[0]!.body)![0];
      token = (await call<{ session_token: string }>('POST', '/api/v1/auth/sms/verify', { phone, code })).session_token;
      await call('PATCH', '/api/v1/users/profile', {
        first_name: 'Round',
        last_name: 'Trips',
        email: 'round.trips@example.com',
        birthday: '1990-04-12',
      });
    });
    const created = await counter.during('create', () =>
      call<{ reservation: { platform_id: string } }>('POST', '/api/v1/reservations', {
        vehicleVin: car.vin,
        pickupDate,
        pickupTime: '10:00',
        returnDate,
        returnTime: '10:00',
        addonIds: [],
        vehicleTimezone: car.timezone,
      }),
    );
    const platformId = created.reservation.platform_id;
    await counter.during('add-ons', async () => {
      const related = await call<{ addons: { id: string; type: string }[] }>('POST', '/api/v1/addons/related', {
        vehicleVin: car.vin,
        pickupAt: ctx.clock.now.toISOString(),
        returnAt: new Date(ctx.clock.now.getTime() + 4 * 86_400_000).toISOString(),
      });
      const waiver = related.addons.find((a) => a.type === 'DAMAGE_WAIVER')!;
      await call('PATCH', '/api/v1/reservations/addons', { platform_id: platformId, addon_ids: [waiver.id] });
    });
    await counter.during('agreements', async () => {
      await Promise.all(
        ['RENTAL_AGREEMENT', 'DAMAGE_WAIVER'].map((type) =>
          call('POST', '/api/v1/agreements', {
            type,
            platform_id: platformId,
            signature: 'Round Trips',
            date: today,
            rental_type: 'LEISURE',
          }),
        ),
      );
    });
    const payment = await counter.during('payment', async () => {
      await call('POST', '/api/v1/reservations/eligibility-check', { platform_id: platformId });
      return call<{ stripe: { client_secret: string; deposit_client_secret: string | null } }>(
        'POST',
        '/api/v1/payments',
        { platform_id: platformId },
      );
    });
    let paymentMethod = '';
    await counter.during('card confirm', async () => {
      const charge = await call<{ payment_method: string }>('POST', '/api/sandbox/v1/payment_intents/confirm', {
        client_secret: payment.stripe.client_secret,
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123', postal_code: '37203' },
      });
      paymentMethod = charge.payment_method;
      await call('POST', '/api/sandbox/v1/payment_intents/confirm', {
        client_secret: payment.stripe.deposit_client_secret,
        payment_method: paymentMethod,
      });
    });
    const confirmed = await counter.during('confirm', () =>
      call<{ reservation: { status: string } }>('POST', '/api/v1/reservations/confirm', { platform_id: platformId }),
    );
    expect(confirmed.reservation.status).toBe('Pending');
    await counter.during('extend', async () => {
      const dates = { pickupDate, pickupTime: '10:00', returnDate: addDays(returnDate, 1), returnTime: '10:00' };
      await call('POST', `/api/v1/reservations/${platformId}/change/preview`, dates);
      await call('POST', `/api/v1/reservations/${platformId}/change`, dates);
      const pay = await call<{ stripe: { client_secret: string } }>('POST', '/api/v1/payments', {
        platform_id: platformId,
      });
      await call('POST', '/api/sandbox/v1/payment_intents/confirm', {
        client_secret: pay.stripe.client_secret,
        payment_method: paymentMethod,
      });
      const extended = await call<{ reservation: { payment_balance: number } }>(
        'POST',
        '/api/v1/reservations/confirm',
        { platform_id: platformId },
      );
      expect(extended.reservation.payment_balance).toBe(0);
    });
    const canceled = await counter.during('cancel', () =>
      call<{ reservation: { status: string } }>('POST', `/api/v1/reservations/${platformId}/cancel`),
    );
    expect(canceled.reservation.status).toBe('Canceled');
  });

  afterAll(async () => {
    counter?.close();
    await ctx?.close();
  });

  it.each(Object.keys(EXPECTED) as Step[])('%s sends no more queries than the table allows', (step) => {
    const actual = counter.counts(step);
    // ROUND_TRIPS_LIST=<file>: each step's queries, one JSON line per step, to see what changed.
    const list = process.env.ROUND_TRIPS_LIST;
    if (list) fs.appendFileSync(list, `${JSON.stringify({ engine, step, sent: counter.sent.get(step) ?? [] })}\n`);
    expect(
      {
        statements: actual.statements <= EXPECTED[step].statements,
        roundTrips: actual.roundTrips <= EXPECTED[step].roundTrips,
      },
      `${step} sent ${actual.statements} statements in ${actual.roundTrips} round trips, more than EXPECTED allows (${EXPECTED[step].statements} in ${EXPECTED[step].roundTrips}): raise it in this file if the change is meant (ROUND_TRIPS_LIST=<file> lists each query)`,
    ).toEqual({ statements: true, roundTrips: true });
  });
});
