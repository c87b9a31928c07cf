import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import { formatInstantInZone } from '@ampere/domain/format';
import { toInstant, toLocal } from '@ampere/domain/time';
import { engineOf } from '../src/db/connect.ts';
import { sendDueMessages } from '../src/features/messages/deliver.ts';
import { recordTimedMessages } from '../src/features/trips/reminders.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { JobRunner } from '../src/jobs/queue.ts';
import { TEST_NOW, engines } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { onRentTrip } from './on-rent.ts';
import { type SandboxContext, askLaterReturn, createSandboxContext, payBalance, payTrip } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const HOUR = 3_600_000;
/** 18:00 UTC: daytime at every seeded location (10 AM on the Pacific coast), outside the quiet hours. */
const DAYTIME = new Date(TEST_NOW.getTime() + 3 * HOUR);

describe.each(engines())('trip messages on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.handle.db;
  /** One run of the send job, at the test clock's time. */
  const send = () => sendDueMessages({ db: db(), clock: () => ctx.clock.now, sms: ctx.app.sms, email: ctx.app.email });
  /** One run of the reminder scan. */
  const scan = () => recordTimedMessages({ db: db(), clock: () => ctx.clock.now, messages: ctx.app.messages });

  let mailCount = 0;
  let phoneCount = 0;
  /** A signed-in renter; with `email`, their profile has it. */
  async function renter(email?: string): Promise<SignedIn & { phone: string }> {
    // A Nashville number: the outbox takes only numbers of the countries texts go to.
    const who = await signInAs(ctx, `+1615555${2_000 + ++phoneCount}`);
    if (email)
      await db().updateTable('users').set({ email, first_name: 'Dana' }).where('id', '=', who.userId).execute();
    const { phone } = await db()
      .selectFrom('users')
      .select('phone')
      .where('id', '=', who.userId)
      .executeTakeFirstOrThrow();
    return { ...who, phone };
  }
  const uniqueEmail = (domain = 'example.com') => `renter${++mailCount}.${Date.now()}@${domain}`;

  /** What the renter's phone shows, newest first: the dev outbox. */
  const texts = async (phone: string): Promise<string[]> => {
    const r = await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(phone)}` });
    expect(r.statusCode).toBe(200);
    return r.json().messages.map((m: { body: string }) => m.body);
  };
  /** What the renter's inbox shows, newest first: the dev mailbox. */
  const emails = async (to: string): Promise<{ subject: string; body: string }[]> =>
    (await ctx.app.inject({ url: `/api/dev/mail?to=${encodeURIComponent(to)}` })).json().emails;
  const recorded = (trip: StartedTrip) =>
    db()
      .selectFrom('trip_messages')
      .select(['kind', 'channel', 'status', 'attempts', 'send_after', 'last_error', 'body'])
      .where('reservation_id', '=', trip.id)
      .orderBy('id')
      .execute();

  async function paidTrip(who: SignedIn, opts: { leadDays?: number } = {}): Promise<StartedTrip> {
    const trip = await startedTrip(db(), who.userId, ctx.clock.now, { leadDays: opts.leadDays });
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    return trip;
  }
  const tripFacts = (trip: StartedTrip) =>
    db()
      .selectFrom('reservations as r')
      .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
      .select(['r.pickup_at', 'r.created_at', 'l.timezone', 'l.name'])
      .where('r.id', '=', trip.id)
      .executeTakeFirstOrThrow();

  it('booking confirmed: one text and one email, with the pickup on the location’s clock, the place and the trip link', async () => {
    ctx.clock.now = DAYTIME;
    const email = uniqueEmail();
    const who = await renter(email);
    const trip = await paidTrip(who);
    expect((await recorded(trip)).map((m) => [m.kind, m.channel, m.status])).toEqual([
      ['booking_confirmed', 'sms', 'pending'],
      ['booking_confirmed', 'email', 'pending'],
    ]);
    await send();
    const facts = await tripFacts(trip);
    const local = toLocal(facts.pickup_at, facts.timezone);
    const [text] = await texts(who.phone);
    expect(text).toContain(`Ampere: your`);
    expect(text).toContain(`is booked. Pickup`);
    expect(text).toContain(facts.name);
    expect(text).toContain(`/trip/${trip.platformId}`);
    // 10:00 at the pickup place, with its zone, whatever the server's zone.
    expect(local.time).toBe('10:00');
    const pickup = formatInstantInZone(facts.pickup_at, facts.timezone);
    expect(pickup).toMatch(/, 10:00 AM [A-Z]{3,4}$/);
    expect(text).toContain(`Pickup ${pickup} at ${facts.name}`);
    const [mail] = await emails(email);
    expect(mail!.subject).toMatch(new RegExp(`^Booking confirmed: .+, ${pickup}$`));
    expect(mail!.body).toContain('Hi Dana,');
    expect(mail!.body).toContain(`Your trip: http://localhost:3000/trip/${trip.platformId}`);
    // The mailbox page shows the same email.
    const page = await ctx.app.inject({ url: `/dev/mailbox?to=${encodeURIComponent(email)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(mail!.subject.replace(/&/g, '&amp;'));
    expect(page.body).toContain('/api/dev/sms');
    // Sent once: later runs and a second confirm send nothing more.
    await send();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations/confirm',
      headers: who.headers,
      payload: { platform_id: trip.platformId },
    });
    await send();
    expect(await texts(who.phone)).toHaveLength(1);
    expect(await emails(email)).toHaveLength(1);
    expect((await recorded(trip)).map((m) => m.status)).toEqual(['sent', 'sent']);
  });

  it('a renter without an email address gets texts only', async () => {
    ctx.clock.now = DAYTIME;
    const who = await renter();
    const trip = await paidTrip(who);
    expect((await recorded(trip)).map((m) => m.channel)).toEqual(['sms']);
    await send();
    expect(await texts(who.phone)).toHaveLength(1);
  });

  it('quiet hours: a booking confirmed at 10 PM at the pickup place is sent at 8 AM there, not before', async () => {
    const who = await renter(uniqueEmail());
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { timezone: 'America/Chicago' });
    const { timezone } = await tripFacts(trip);
    const night = toInstant({ date: toLocal(TEST_NOW, timezone).date, time: '22:00' }, timezone);
    ctx.clock.now = night;
    await db().updateTable('reservations').set({ created_at: night }).where('id', '=', trip.id).execute();
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    const morning = toInstant(
      { date: toLocal(new Date(night.getTime() + 12 * HOUR), timezone).date, time: '08:00' },
      timezone,
    );
    expect((await recorded(trip)).map((m) => m.send_after.getTime())).toEqual([morning.getTime(), morning.getTime()]);
    ctx.clock.now = new Date(morning.getTime() - 60_000);
    await send();
    expect(await texts(who.phone)).toEqual([]);
    ctx.clock.now = morning;
    await send();
    expect(await texts(who.phone)).toHaveLength(1);
  });

  it('key ready: told once when the verified renter’s paid trip gets its key', async () => {
    ctx.clock.now = DAYTIME;
    const email = uniqueEmail();
    const who = await renter(email);
    await verifiedRenter(db(), who.userId, TEST_NOW);
    const trip = await paidTrip(who);
    expect((await recorded(trip)).map((m) => `${m.kind}/${m.channel}`)).toEqual([
      'booking_confirmed/sms',
      'booking_confirmed/email',
      'key_ready/sms',
      'key_ready/email',
    ]);
    await send();
    const [latest] = await texts(who.phone);
    expect(latest).toContain('is ready. Open it from your trip page from 30 minutes before pickup');
    expect((await emails(email)).map((m) => m.subject)).toContainEqual(expect.stringMatching(/^Your key is ready: /));
    // A new key (replaced by the renter) is not a new message.
    const replaced = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${trip.platformId}/key`,
      headers: who.headers,
      payload: { action: 'CREATE_NEW_KEY' },
    });
    expect(replaced.statusCode).toBe(200);
    await send();
    expect(await texts(who.phone)).toHaveLength(2);
  });

  it('the day before pickup: the instructions and what is still to verify, once, however often the scan runs', async () => {
    ctx.clock.now = DAYTIME;
    const email = uniqueEmail();
    const who = await renter(email);
    const trip = await paidTrip(who, { leadDays: 3 });
    const { pickup_at } = await tripFacts(trip);
    // Two days ahead: too early.
    ctx.clock.now = new Date(pickup_at.getTime() - 48 * HOUR);
    await scan();
    expect((await recorded(trip)).filter((m) => m.kind === 'pickup_tomorrow')).toEqual([]);
    ctx.clock.now = new Date(pickup_at.getTime() - 23 * HOUR);
    await Promise.all([scan(), scan()]);
    await scan();
    expect((await recorded(trip)).filter((m) => m.kind === 'pickup_tomorrow').map((m) => m.channel)).toEqual([
      'sms',
      'email',
    ]);
    await send();
    const [text] = await texts(who.phone);
    expect(text).toContain("Still to do before your key: Verify your driver's license; Verify your insurance.");
    const [mail] = await emails(email);
    expect(mail!.subject).toMatch(/^Pickup tomorrow: /);
    expect(mail!.body).toContain('Pickup instructions:');
    expect(mail!.body).toContain("- Verify your driver's license");
  });

  it('a trip cancelled while its reminder waited for the morning is not reminded', async () => {
    const who = await renter();
    ctx.clock.now = DAYTIME;
    const trip = await paidTrip(who, { leadDays: 3 });
    const { pickup_at, timezone } = await tripFacts(trip);
    // 23 hours before a 10 AM pickup is 11 AM; make it the night instead: the reminder waits for 8 AM.
    ctx.clock.now = toInstant(
      { date: toLocal(new Date(pickup_at.getTime() - 24 * HOUR), timezone).date, time: '23:30' },
      timezone,
    );
    await send();
    await scan();
    await db().updateTable('reservations').set({ status: 'Canceled' }).where('id', '=', trip.id).execute();
    ctx.clock.now = new Date(pickup_at.getTime() - HOUR);
    await send();
    expect((await recorded(trip)).filter((m) => m.kind === 'pickup_tomorrow').map((m) => m.status)).toEqual([
      'skipped',
    ]);
    expect((await texts(who.phone)).some((t) => t.includes('Still to do'))).toBe(false);
  });

  it(`a hold about to lapse: told ${UNPAID_HOLD_MINUTES - 20} minutes in, at once even at night, with the time it lapses`, async () => {
    const who = await renter(uniqueEmail());
    const trip = await startedTrip(db(), who.userId, TEST_NOW, { timezone: 'America/Chicago' });
    const { timezone } = await tripFacts(trip);
    const made = toInstant({ date: toLocal(TEST_NOW, timezone).date, time: '23:05' }, timezone);
    await db().updateTable('reservations').set({ created_at: made }).where('id', '=', trip.id).execute();
    ctx.clock.now = new Date(made.getTime() + 10 * 60_000);
    await scan();
    expect(await recorded(trip)).toEqual([]);
    ctx.clock.now = new Date(made.getTime() + 21 * 60_000);
    await scan();
    await scan();
    await send();
    const [text] = await texts(who.phone);
    expect(text).toMatch(/is held until 11:35 PM C[SD]T\. Pay by then to keep it: .*\/trip\/.*\/pay$/);
    expect((await recorded(trip)).map((m) => `${m.kind}/${m.status}`)).toEqual([
      'hold_lapsing/sent',
      'hold_lapsing/sent',
    ]);
  });

  it('a cancellation’s refund is told with its amount', async () => {
    ctx.clock.now = DAYTIME;
    const email = uniqueEmail();
    const who = await renter(email);
    const trip = await paidTrip(who);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${trip.platformId}/cancel`,
      headers: who.headers,
    });
    expect(res.statusCode).toBe(200);
    await send();
    const dollars = `$${(trip.due / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    const [text] = await texts(who.phone);
    expect(text).toContain(`a refund of ${dollars} is on its way to your card (Trip ${trip.platformId})`);
    expect((await emails(email))[0]!.subject).toMatch(new RegExp(`^A refund of \\${dollars}: `));
    // The confirmation had not gone out yet: a trip cancelled meanwhile is not announced as booked.
    expect((await recorded(trip)).map((m) => `${m.kind}/${m.status}`)).toEqual([
      'booking_confirmed/skipped',
      'booking_confirmed/skipped',
      'refund_made/sent',
      'refund_made/sent',
    ]);
    expect(await texts(who.phone)).toHaveLength(1);
  });

  it('a charge made later on a confirmed trip (a longer trip paid for) is told with its amount, once', async () => {
    ctx.clock.now = DAYTIME;
    const email = uniqueEmail();
    const who = await renter(email);
    const trip = await paidTrip(who);
    expect((await askLaterReturn(ctx, who, trip, 1)).statusCode).toBe(200);
    const paid = await payBalance(ctx, who, trip.platformId, trip.id);
    expect(paid.payment_balance).toBe(0);
    // The extension's charge: the trip's other than the booking's.
    const { amount_captured } = await db()
      .selectFrom('payments')
      .select('amount_captured')
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'CHARGE')
      .where('status', '=', 'succeeded')
      .where('amount_captured', '!=', trip.due)
      .executeTakeFirstOrThrow();
    await send();
    const dollars = `$${(amount_captured / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    const charges = (await texts(who.phone)).filter((t) => t.includes('we charged'));
    expect(charges).toEqual([
      expect.stringContaining(`we charged ${dollars} to your card for your trip's balance (Trip ${trip.platformId})`),
    ]);
  });

  it('trip ended: fees, the deposit released, and the receipt link', async () => {
    const email = uniqueEmail();
    const who = await renter(email);
    const fleet = new SimulatedFleet(db(), () => ctx.clock.now);
    const trip = await onRentTrip(ctx, fleet, who, { now: DAYTIME });
    // Returned on time with the battery and miles as they went out: no fees.
    ctx.clock.now = new Date(trip.returnAt.getTime() - HOUR);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/reservations/${trip.platformId}/end`,
      headers: who.headers,
    });
    expect(res.statusCode).toBe(200);
    await send();
    const [text] = await texts(who.phone);
    expect(text).toContain(
      'has ended. No fees were charged for the return. Your $200.00 deposit is released within 24 hours, once the car is checked.',
    );
    expect(text).toContain(`/trip/${trip.platformId}/receipt`);
    expect((await emails(email))[0]!.subject).toMatch(/^Trip ended: /);
  });

  it('a mail server that greylists is tried again later; an address it refuses is given up, not retried', async () => {
    ctx.clock.now = DAYTIME;
    const greylisted = uniqueEmail('greylist.example');
    const who = await renter(greylisted);
    const trip = await paidTrip(who);
    await send();
    let email = (await recorded(trip)).find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({ status: 'pending', attempts: 1 });
    expect(email.last_error).toContain('451');
    expect(email.send_after.getTime()).toBeGreaterThan(ctx.clock.now.getTime());
    expect(await emails(greylisted)).toEqual([]);
    // The text was not held back by the email.
    expect(await texts(who.phone)).toHaveLength(1);
    ctx.clock.now = email.send_after;
    await send();
    email = (await recorded(trip)).find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await emails(greylisted)).toHaveLength(1);

    ctx.clock.now = DAYTIME;
    const refused = uniqueEmail('nowhere.invalid');
    const other = await renter(refused);
    const second = await paidTrip(other);
    await send();
    expect((await recorded(second)).find((m) => m.channel === 'email')).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
    ctx.clock.now = new Date(DAYTIME.getTime() + 2 * HOUR);
    await send();
    expect((await recorded(second)).find((m) => m.channel === 'email')).toMatchObject({ attempts: 1 });
  });

  it('two runners sending at once send each message once', async () => {
    ctx.clock.now = DAYTIME;
    const people = await Promise.all([1, 2, 3, 4].map(() => renter(uniqueEmail())));
    for (const who of people) await paidTrip(who);
    await Promise.all([send(), send(), send()]);
    for (const who of people) expect(await texts(who.phone)).toHaveLength(1);
  });

  // Two operating-system processes, each running the send job on the same PostgreSQL database (the embedded database serves one process).
  if (engine === 'postgres')
    it('two processes sending at once: each message is sent once', async () => {
      ctx.clock.now = DAYTIME;
      const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => renter(uniqueEmail())));
      const trips: StartedTrip[] = [];
      for (const who of people) trips.push(await paidTrip(who));
      const url = engineOf(db())!;
      if (url.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const fixture = fileURLToPath(new URL('./fixtures/message-process.ts', import.meta.url));
      const children = [0, 1].map(() =>
        spawn(process.execPath, ['--import', 'tsx', fixture], {
          env: { ...process.env, DATABASE_URL: url.connectionString },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      try {
        await Promise.all(
          children.map(
            (c) =>
              new Promise<void>((resolve, reject) => {
                let err = '';
                c.stderr.on('data', (d: Buffer) => (err += d.toString()));
                c.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
                c.on('exit', (code) => reject(new Error(`a message process exited with ${code}: ${err}`)));
              }),
          ),
        );
        const sender = new JobRunner(db(), [], { error: () => {} });
        await sender.start();
        try {
          for (let i = 0; i < 10; i++) await sender.runSoon('send-probe');
        } finally {
          await sender.stop();
        }
        const pending = async () =>
          (
            await db()
              .selectFrom('trip_messages')
              .select('id')
              .where(
                'reservation_id',
                'in',
                trips.map((t) => t.id),
              )
              .where('status', '!=', 'sent')
              .execute()
          ).length;
        await expect.poll(pending, { timeout: 60_000, interval: 250 }).toBe(0);
        for (const who of people) expect(await texts(who.phone)).toHaveLength(1);
        const mails = await db()
          .selectFrom('email_outbox')
          .select(['to_address'])
          .where(
            'to_address',
            'in',
            (
              await db()
                .selectFrom('users')
                .select('email')
                .where(
                  'id',
                  'in',
                  people.map((p) => p.userId),
                )
                .execute()
            ).map((u) => u.email!),
          )
          .execute();
        expect(mails).toHaveLength(people.length);
      } finally {
        await Promise.all(
          children.map(
            (c) =>
              new Promise<void>((resolve) => {
                if (c.exitCode !== null) return resolve();
                c.on('exit', () => resolve());
                c.kill('SIGTERM');
              }),
          ),
        );
      }
    }, 90_000);
});

describe.each(engines())('trip messages sent by the job queue on %s', (engine) => {
  let ctx: SandboxContext;
  beforeAll(async () => {
    // Deliveries on their own: the job queue runs in this process.
    ctx = await createSandboxContext(engine, { deliver: 'on' });
  });
  afterAll(() => ctx?.close());

  it('a booking’s confirmation reaches the outbox and the mailbox without anyone asking', async () => {
    ctx.clock.now = DAYTIME;
    const phone = '+16155552901';
    const email = `queue.${Date.now()}@example.com`;
    const who = await signInAs(ctx, phone);
    await ctx.handle.db.updateTable('users').set({ email }).where('id', '=', who.userId).execute();
    const trip = await startedTrip(ctx.handle.db, who.userId, ctx.clock.now);
    expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
    const texts = async () =>
      (await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(phone)}` })).json().messages as {
        body: string;
      }[];
    await expect.poll(async () => (await texts()).length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect((await texts())[0]!.body).toContain(`/trip/${trip.platformId}`);
    await expect
      .poll(
        async () =>
          (await ctx.app.inject({ url: `/api/dev/mail?to=${encodeURIComponent(email)}` })).json().emails.length,
        { timeout: 30_000, interval: 250 },
      )
      .toBe(1);
  }, 60_000);
});
