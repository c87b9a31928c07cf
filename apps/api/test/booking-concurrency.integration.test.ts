import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, connectPostgres } from '../src/db/connect.ts';
import { VEHICLE_UNAVAILABLE } from '../src/features/trips/book.ts';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { hashToken } from '../src/http/session.ts';
import { RAISED_RATE_LIMITS, type TestContext, createTestContext } from './harness.ts';
import { unbookedCar } from './factories.ts';
import { type SignedIn, signInAs, uniquePhone } from './sessions.ts';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The real server (`main.ts`) as its own operating-system process on the given database, its clock starting at `now`. */
async function startApiProcess(
  databaseUrl: string,
  now: Date,
  env: Record<string, string> = {},
): Promise<{ origin: string; stop(): Promise<void> }> {
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
      CLOCK_START: now.toISOString(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The API process exited with ${code}:\n${output}`));
    });
  });
  return {
    origin,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Races that only a real server can stage: PGlite is one connection, so its requests never
 * overlap. Skipped without TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('booking under concurrency on postgres', () => {
  let ctx: TestContext;
  /** A second API instance: its own pool, its own search index, the same database. */
  let second: { app: FastifyInstance; handle: DatabaseHandle };
  const used = new Set<string>();

  beforeAll(async () => {
    ctx = await createTestContext('postgres');
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(ctx.handle.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0]!.name}`;
    const handle = await connectPostgres(url.toString(), 10);
    const app = await buildApp({
      config: loadConfig({
        SEED_DEMO: 'false',
        WEB_DIST: '/nonexistent',
        SEARCH_MAX_STALENESS_MS: '0',
        ...RAISED_RATE_LIMITS,
      }),
      db: handle.db,
      clock: () => ctx.clock.now,
    });
    await app.ready();
    second = { app, handle };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.handle.close();
    await ctx?.close();
  });

  async function freeCar(): Promise<string> {
    return (await unbookedCar(ctx.handle.db, used, { timezone: 'America/Chicago' })).vin;
  }

  const trip = (vin: string, i = 0) => ({
    vehicleVin: vin,
    // Every period shares 13–14 January; starts and lengths differ.
    pickupDate: `2027-01-${String(10 + (i % 4)).padStart(2, '0')}`,
    pickupTime: ['09:00', '10:15', '13:30', '18:45'][i % 4],
    returnDate: `2027-01-${String(15 + (i % 3)).padStart(2, '0')}`,
    returnTime: '10:00',
    addonIds: [],
    vehicleTimezone: 'America/Chicago',
  });

  const renters = (n: number) => Promise.all(Array.from({ length: n }, () => signInAs(ctx)));
  const post = (app: FastifyInstance, who: SignedIn, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: { ...who.headers, ...headers },
      payload: payload as object,
    });

  async function activeReservations(vin: string) {
    return ctx.handle.db
      .selectFrom('reservations as r')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select(['r.platform_id', 'r.user_id'])
      .where('v.vin', '=', vin)
      .where('r.status', 'in', [...ACTIVE_RESERVATION_STATUSES])
      .execute();
  }

  function expectOneWinner(
    responses: { statusCode: number; json(): { message?: string; reservation?: { platform_id: string } } }[],
  ) {
    const created = responses.filter((r) => r.statusCode === 201);
    const refused = responses.filter((r) => r.statusCode === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(responses.length - 1);
    for (const r of refused) expect(r.json().message).toBe(VEHICLE_UNAVAILABLE);
    return created[0]!.json().reservation!.platform_id;
  }

  it('50 renters booking one car for overlapping dates at once: exactly one reservation, 49 get the 409', async () => {
    const vin = await freeCar();
    const who = await renters(50);
    const responses = await Promise.all(who.map((w, i) => post(ctx.app, w, trip(vin, i))));
    const winner = expectOneWinner(responses);
    const rows = await activeReservations(vin);
    expect(rows.map((r) => r.platform_id)).toEqual([winner]);
    // The losers left nothing behind: no reservation and no line items.
    const orphans = await ctx.handle.db
      .selectFrom('transactions as t')
      .innerJoin('reservations as r', 'r.id', 't.reservation_id')
      .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
      .select(({ fn }) => fn.count<number>('t.id').as('n'))
      .where('v.vin', '=', vin)
      .where('r.platform_id', '!=', winner)
      .executeTakeFirstOrThrow();
    expect(Number(orphans.n)).toBe(0);
  });

  it('the same race split across two API instances on one database: still one reservation', async () => {
    const vin = await freeCar();
    const who = await renters(50);
    const responses = await Promise.all(who.map((w, i) => post(i % 2 === 0 ? ctx.app : second.app, w, trip(vin, i))));
    const winner = expectOneWinner(responses);
    expect((await activeReservations(vin)).map((r) => r.platform_id)).toEqual([winner]);
    // And the other instance's search stops offering the car for those dates.
    const option = await ctx.handle.db
      .selectFrom('search_options as o')
      .innerJoin('locations as l', 'l.region_id', 'o.region_id')
      .innerJoin('vehicles as v', 'v.location_id', 'l.id')
      .select('o.id')
      .where('v.vin', '=', vin)
      .where('o.type', '=', 'CITY')
      .executeTakeFirstOrThrow();
    for (const app of [ctx.app, second.app]) {
      const res = await app.inject({
        url: `/api/v1/vehicles/search/${option.id}?pickupDate=2027-01-13&returnDate=2027-01-14&limit=100`,
      });
      expect(res.json().items.map((i: { vin: string }) => i.vin)).not.toContain(vin);
    }
  });

  it('the same race split across two operating-system processes: still one reservation', async () => {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(ctx.handle.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0]!.name}`;
    const other = await startApiProcess(url.toString(), ctx.clock.now);
    try {
      const vin = await freeCar();
      // The other process's clock starts at this test's instant (CLOCK_START): dates and sessions by that clock, not the machine's calendar.
      const now = ctx.clock.now;
      const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);
      const who = await Promise.all(
        Array.from({ length: 40 }, async () => {
          const user = await ctx.handle.db
            .insertInto('users')
            .values({ stytch_user_id: `user-test-${randomBytes(12).toString('hex')}`, phone: uniquePhone() })
            .returning('id')
            .executeTakeFirstOrThrow();
          const token = randomBytes(32).toString('base64url');
          await ctx.handle.db
            .insertInto('sessions')
            .values({
              token_hash: hashToken(token),
              user_id: user.id,
              created_at: now,
              expires_at: new Date(now.getTime() + 86_400_000),
              revoked_at: null,
              user_agent: null,
              ip: null,
            })
            .execute();
          return { [SESSION_HEADER]: token };
        }),
      );
      const body = (i: number) => ({ ...trip(vin, i), pickupDate: day(200 + (i % 3)), returnDate: day(205 + (i % 2)) });
      const responses = await Promise.all(
        who.map(async (headers, i) => {
          if (i % 2 === 0)
            return ctx.app.inject({ method: 'POST', url: '/api/v1/reservations', headers, payload: body(i) });
          const res = await fetch(`${other.origin}/api/v1/reservations`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(body(i)),
          });
          const text = await res.text();
          return { statusCode: res.status, json: () => JSON.parse(text) };
        }),
      );
      const winner = expectOneWinner(responses);
      expect((await activeReservations(vin)).map((r) => r.platform_id)).toEqual([winner]);
    } finally {
      await other.stop();
    }
  }, 120_000);

  /** Renters with sessions valid at `now`, written in bulk. */
  async function bulkRenters(n: number, now: Date): Promise<Record<string, string>[]> {
    const users = await ctx.handle.db
      .insertInto('users')
      .values(
        Array.from({ length: n }, () => ({
          stytch_user_id: `user-test-${randomBytes(12).toString('hex')}`,
          phone: uniquePhone(),
        })),
      )
      .returning('id')
      .execute();
    const tokens = users.map(() => randomBytes(32).toString('base64url'));
    await ctx.handle.db
      .insertInto('sessions')
      .values(
        users.map((u, i) => ({
          token_hash: hashToken(tokens[i]!),
          user_id: u.id,
          created_at: now,
          expires_at: new Date(now.getTime() + 86_400_000),
          revoked_at: null,
          user_agent: null,
          ip: null,
        })),
      )
      .execute();
    return tokens.map((token) => ({ [SESSION_HEADER]: token }));
  }

  it('1,000 overlapping bookings of four cars by 250 renters at once across two API processes: 201 for the winner, 409 for every other renter, no 5xx', async () => {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(ctx.handle.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0]!.name}`;
    // Ten connections each: the database server is shared with the rest of the suite.
    const processes = await Promise.all(
      [0, 1].map(() => startApiProcess(url.toString(), ctx.clock.now, { DATABASE_POOL_SIZE: '10' })),
    );
    try {
      const cars = await Promise.all(Array.from({ length: 4 }, () => freeCar()));
      const attempts = 1000;
      // 250 renters, four attempts each (as a renter clicking Book again would): a renter's new
      // booking replaces their own unpaid one, which is what made bookings deadlock.
      const people = await bulkRenters(250, ctx.clock.now);
      const who = Array.from({ length: attempts }, (_, i) => people[i % people.length]!);
      const day = (n: number) => new Date(ctx.clock.now.getTime() + n * 86_400_000).toISOString().slice(0, 10);
      // Every period holds days 204–205; starts, lengths and times differ.
      const body = (i: number) => ({
        ...trip(cars[i % cars.length]!, i),
        pickupDate: day(200 + (i % 5)),
        returnDate: day(205 + (i % 3)),
      });
      const responses = await Promise.all(
        who.map(async (headers, i) => {
          const res = await fetch(`${processes[Math.floor(i / 2) % 2]!.origin}/api/v1/reservations`, {
            method: 'POST',
            // Half carry an Idempotency-Key, as the web app sends: that path claims the key first, then the car.
            headers: {
              ...headers,
              'content-type': 'application/json',
              ...(i % 2 === 1 ? { 'idempotency-key': `race-${i}` } : {}),
            },
            body: JSON.stringify(body(i)),
          });
          return {
            car: cars[i % cars.length]!,
            renter: i % people.length,
            statusCode: res.status,
            body: (await res.json()) as { message?: string; reservation?: { platform_id: string } },
          };
        }),
      );
      const count = (f: (s: number) => boolean) => responses.filter((r) => f(r.statusCode)).length;
      console.log(
        `booking race: ${attempts} attempts on ${cars.length} cars over two API processes: ${count((s) => s === 201)} × 201, ${count((s) => s === 409)} × 409, ` +
          `${count((s) => s >= 500)} × 5xx, ${count((s) => s !== 201 && s !== 409 && s < 500)} × other`,
      );
      expect(responses.filter((r) => r.statusCode >= 500).map((r) => `${r.statusCode} ${r.body.message}`)).toEqual([]);
      for (const vin of cars) {
        const mine = responses.filter((r) => r.car === vin);
        const created = mine.filter((r) => r.statusCode === 201);
        // The winner is the renter whose booking came first; their later attempts replace their
        // own booking (201 again). Everyone else is told the car is taken.
        const winners = new Set(created.map((r) => r.renter));
        expect(winners.size).toBe(1);
        const [winner] = winners;
        expect(mine.filter((r) => r.renter === winner).map((r) => r.statusCode)).toEqual(
          mine.filter((r) => r.renter === winner).map(() => 201),
        );
        const losers = mine.filter((r) => r.renter !== winner);
        expect(losers.filter((r) => r.statusCode === 409 && r.body.message === VEHICLE_UNAVAILABLE)).toHaveLength(
          losers.length,
        );
        // No overlap: one active reservation, one the winner was given.
        const active = await activeReservations(vin);
        expect(active).toHaveLength(1);
        expect(created.map((r) => r.body.reservation!.platform_id)).toContain(active[0]!.platform_id);
      }
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
    }
  }, 180_000);

  it('10 concurrent retries with one Idempotency-Key, on both instances: one reservation, ten identical answers', async () => {
    const vin = await freeCar();
    const [who] = await renters(1);
    const headers = { 'idempotency-key': 'checkout-7d1c5e' };
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(i % 2 === 0 ? ctx.app : second.app, who!, trip(vin), headers)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    const rows = await activeReservations(vin);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(who!.userId);
    expect(responses[0]!.json().reservation.platform_id).toBe(rows[0]!.platform_id);
    const all = await ctx.handle.db
      .selectFrom('reservations')
      .select('id')
      .where('user_id', '=', who!.userId)
      .execute();
    expect(all).toHaveLength(1);
    // One set of charges: one row per rental day (10 Jan 09:00 to 15 Jan 10:00 is 6 days, rounded
    // up), one tax row, one deposit.
    const lines = await ctx.handle.db
      .selectFrom('transactions')
      .select(['category'])
      .where('reservation_id', '=', all[0]!.id)
      .execute();
    const count = (c: string) => lines.filter((l) => l.category === c).length;
    expect([count('Rack'), count('Tax'), count('Deposit')]).toEqual([6, 1, 1]);
  });

  it('a refused attempt under one key stays refused for every concurrent retry', async () => {
    const vin = await freeCar();
    const [holder, who] = await renters(2);
    expect((await post(ctx.app, holder!, trip(vin))).statusCode).toBe(201);
    const headers = { 'idempotency-key': 'checkout-refused' };
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(i % 2 === 0 ? ctx.app : second.app, who!, trip(vin, 1), headers)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(409));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect((await activeReservations(vin)).map((r) => r.user_id)).toEqual([holder!.userId]);
  });
});
