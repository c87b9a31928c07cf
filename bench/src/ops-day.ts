import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { OPS_API } from '@ampere/domain/contract/ops';
import { buildApp } from '@ampere/api/src/app.ts';
import { loadConfig } from '@ampere/api/src/config.ts';
import type { DatabaseHandle } from '@ampere/api/src/db/connect.ts';
import { startStaffSession } from '@ampere/api/src/features/staff/sessions.ts';
import { OPS_SESSION_COOKIE } from '@ampere/domain/contract/ops';
import type { OPS_DAY_CALLS } from './targets.ts';
import { type LoadResult, runLoad } from './load.ts';
import { seededRandom } from './requests.ts';

export type OpsDayCall = (typeof OPS_DAY_CALLS)[number];

const FIRST = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Mo', 'Nia'];
const LAST_A = ['Al', 'Bren', 'Cor', 'Dal', 'Ever', 'Fair', 'Gar', 'Hol', 'Ing', 'Jar', 'Kel', 'Lin', 'Mor', 'Nor'];
const LAST_B = ['ton', 'wood', 'field', 'stone', 'brook', 'ley', 'ford', 'well', 'more', 'by', 'gate', 'ridge'];

/**
 * Gives the scale fleet's trips renters (`renters` of them, each with a name, a phone and an
 * email, shared out over every trip) and every car a battery reading, as a busy company's
 * database has them, then refreshes the planner's statistics.
 */
export async function addRentersAndBatteries(handle: DatabaseHandle, renters: number): Promise<void> {
  const db = handle.db;
  const list = (words: string[]) => sql.raw(`array[${words.map((w) => `'${w}'`).join(',')}]`);
  await sql`
    insert into users (stytch_user_id, phone, first_name, last_name, email)
    select 'user-bench-' || g, '+1615' || (2000000 + g),
      (${list(FIRST)})[1 + g % ${FIRST.length}],
      (${list(LAST_A)})[1 + (g / ${FIRST.length}) % ${LAST_A.length}] || (${list(LAST_B)})[1 + (g / ${FIRST.length * LAST_A.length}) % ${LAST_B.length}],
      'renter' || g || '@example.com'
    from generate_series(1, ${renters}) g`.execute(db);
  await sql`
    with trips as (select id, row_number() over (order by id) as n from reservations where user_id is null),
      people as (select id, row_number() over (order by stytch_user_id) as n from users where stytch_user_id like 'user-bench-%')
    update reservations r set user_id = people.id
    from trips join people on people.n = 1 + trips.n % ${renters}
    where r.id = trips.id`.execute(db);
  await sql`
    insert into simulated_cars (vehicle_id, locked, odometer_miles, battery_level, updated_at)
    select id, true, odometer, round(random()::numeric, 3), now() from vehicles
    on conflict (vehicle_id) do nothing`.execute(db);
  await sql`analyze`.execute(db);
}

/** What the load asks for: each call's paths, drawn from the seeded database. */
export async function opsDayPaths(handle: DatabaseHandle, count: number): Promise<Record<OpsDayCall, string[]>> {
  const db = handle.db;
  const random = seededRandom(20261127);
  const pick = <T>(rows: T[]) => Array.from({ length: count }, () => rows[Math.floor(random() * rows.length)]!);
  const { rows: locations } = await sql<{ id: number }>`
    select id from locations where name like 'Metro %' order by id`.execute(db);
  const { rows: trips } = await sql<{
    platform_id: string;
    vin: string;
    phone: string;
    first_name: string;
    last_name: string;
    email: string;
  }>`
    select r.platform_id, v.vin, u.phone, u.first_name, u.last_name, u.email
    from reservations r join vehicles v on v.id = r.vehicle_id join users u on u.id = r.user_id
    where u.stytch_user_id like 'user-bench-%'
    order by r.id limit 20000`.execute(db);
  const lookup = (q: string) => `${OPS_API}/lookup?q=${encodeURIComponent(q)}`;
  const usPhone = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;
  return {
    'today board': pick(locations).map((l) => `${OPS_API}/today?locationId=${l.id}`),
    'lookup by phone': pick(trips).map((t) => lookup(usPhone(t.phone))),
    'lookup by name': pick(trips).map((t) => lookup(`${t.first_name} ${t.last_name}`)),
    'lookup by email': pick(trips).map((t) => lookup(t.email)),
    'lookup by VIN end': pick(trips).map((t) => lookup(t.vin.slice(-6))),
    'lookup by reference': pick(trips).map((t) => lookup(t.platform_id)),
    'trip timeline': pick(trips).map((t) => `${OPS_API}/trips/${encodeURIComponent(t.platform_id)}/timeline`),
  };
}

export interface OpsDayMeasurement {
  call: OpsDayCall;
  load: LoadResult;
}

/**
 * The real API on a free port over the seeded database, an owner signed in (every location in
 * scope, the widest lookups), each console call loaded in turn after a warm-up.
 */
export async function measureOpsDay(
  handle: DatabaseHandle,
  paths: Record<OpsDayCall, string[]>,
  settings: { connections: number; seconds: number; warmupSeconds: number; databaseUrl: string },
  report: (m: OpsDayMeasurement) => void,
): Promise<OpsDayMeasurement[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-ops-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: scratch,
    WEB_DIST: path.join(scratch, 'no-web'),
    DATABASE_URL: settings.databaseUrl,
  });
  const app = await buildApp({ config, db: handle.db, clock: () => new Date() });
  try {
    const owner = await handle.db
      .insertInto('staff')
      .values({
        phone: '+16155550100',
        name: 'Bench Owner',
        role: 'owner',
        location_ids: null,
        created_at: new Date(),
        invited_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const session = await startStaffSession(handle.db, { staffId: owner.id, now: new Date(), passkeyVerified: true });
    const headers = { cookie: `${OPS_SESSION_COOKIE}=${session.token}` };
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('The server has no TCP address.');
    const origin = `http://127.0.0.1:${address.port}`;
    const results: OpsDayMeasurement[] = [];
    for (const [call, list] of Object.entries(paths) as [OpsDayCall, string[]][]) {
      const sample = await app.inject({ method: 'GET', url: list[0]!, headers });
      if (sample.statusCode !== 200) throw new Error(`${call}: ${sample.statusCode} ${sample.body.slice(0, 300)}`);
      const job = { origin, paths: list, connections: settings.connections, headers };
      if (settings.warmupSeconds > 0) await runLoad({ ...job, seconds: settings.warmupSeconds });
      const m = { call, load: await runLoad({ ...job, seconds: settings.seconds }) };
      report(m);
      results.push(m);
    }
    return results;
  } finally {
    await app.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export const secondsSince = (started: number) => (performance.now() - started) / 1000;
