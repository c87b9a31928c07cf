import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { licenseOverrideOf } from '../renter-review/gates-repository.ts';
import { USER_COLUMNS, type UserRow } from '../users/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

// ---- rate counters: one row per counted action, counted over a sliding window ----

/**
 * Serialises check-then-count for these keys across every API process until the transaction
 * ends, so two simultaneous requests cannot both see "4 of 5" and both send. Keys are locked in
 * the order given; callers always pass them in the same order, so two callers cannot deadlock.
 */
export async function lockKeys(trx: Transaction<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  // One round trip: a select list is evaluated left to right, so the locks are taken in order.
  const locks = keys.map((key) => sql`pg_advisory_xact_lock(hashtext(${key}))`);
  await sql`select ${sql.join(locks)}`.execute(trx);
}

/**
 * For each (bucket, key), the times of its newest `limit` events since an instant, newest first:
 * recentRateEvents for several keys in one round trip.
 */
export async function recentRateEventsOf(
  db: Db,
  since: Date,
  keys: { bucket: string; key: string; limit: number }[],
): Promise<Date[][]> {
  if (keys.length === 0) return [];
  const parts = keys.map(
    (k, i) =>
      sql`(select ${i}::int as part, at from rate_events where bucket = ${k.bucket} and key = ${k.key} and at > ${since} order by at desc limit ${k.limit})`,
  );
  const { rows } = await sql<{ part: number; at: Date | string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  const out = keys.map(() => [] as Date[]);
  for (const r of rows) out[r.part]!.push(new Date(r.at));
  for (const times of out) times.sort((a, b) => b.getTime() - a.getTime());
  return out;
}

/**
 * The start of a statement that checks and counts in one: `recent`, the newest `limit` events of
 * (bucket, key) since the instant, and `counted`, this event written unless there are already `limit`.
 */
function recentAndCounted(event: { bucket: string; key: string; at: Date }, since: Date, limit: number) {
  return sql`with recent as (
      select at from rate_events
      where bucket = ${event.bucket} and key = ${event.key} and at > ${since}
      order by at desc limit ${limit}
    ), counted as (
      insert into rate_events (bucket, key, at)
      select ${event.bucket}, ${event.key}, ${event.at} where (select count(*) from recent) < ${limit}
    )`;
}

/**
 * Counts one event for (bucket, key) unless it already has `limit` since the instant; either way
 * the newest `limit` events before this one, newest first. One statement (check and count), not
 * serialised with other callers: for loose limits only.
 */
export async function countUnlessOver(
  db: Db,
  event: { bucket: string; key: string; at: Date },
  since: Date,
  limit: number,
): Promise<Date[]> {
  const { rows } = await sql<{ at: Date | string }>`
    ${recentAndCounted(event, since, limit)}
    select at from recent order by at desc`.execute(db);
  return rows.map((r) => new Date(r.at));
}

/** Drops counters and sign-in codes that can no longer matter. */
export async function pruneBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_events').where('at', '<', before).execute();
  await db.deleteFrom('login_codes').where('expires_at', '<', before).execute();
}

// ---- login codes ----

/**
 * Counts the send's rate events, replaces any unused code of the phone and stores the new one: one
 * statement. The new code's id, and for each window (bucket, key) the times of its newest `limit`
 * events since an instant, newest first, as they were before this send was counted.
 */
export async function replaceLoginCode(
  db: Db,
  events: { bucket: string; key: string; at: Date }[],
  code: { phone: string; code_hash: string; created_at: Date; expires_at: Date },
  windows: { since: Date; keys: { bucket: string; key: string; limit: number }[] },
): Promise<{ id: string; recent: Date[][] }> {
  const counted = events.map((e) => sql`(${e.bucket}, ${e.key}, ${e.at})`);
  const recent = windows.keys.map(
    (k, i) =>
      sql`array(select at from rate_events where bucket = ${k.bucket} and key = ${k.key} and at > ${windows.since} order by at desc limit ${k.limit}) as ${sql.ref(`recent_${i}`)}`,
  );
  // Every part of one statement sees the same snapshot: the update cannot see the new code, and
  // the windows do not hold the events counted here.
  const { rows } = await sql<Record<string, unknown> & { id: string }>`
    with counted as (
      insert into rate_events (bucket, key, at) values ${sql.join(counted)}
    ), replaced as (
      update login_codes set invalidated_at = ${code.created_at}
      where phone = ${code.phone} and consumed_at is null and invalidated_at is null
    ), inserted as (
      insert into login_codes (phone, code_hash, created_at, expires_at)
      values (${code.phone}, ${code.code_hash}, ${code.created_at}, ${code.expires_at})
      returning id
    )
    select inserted.id, ${sql.join(recent)} from inserted`.execute(db);
  const row = rows[0]!;
  return {
    id: row.id,
    recent: windows.keys.map((_, i) =>
      (row[`recent_${i}`] as (Date | string)[]).map((at) => new Date(at)).sort((x, y) => y.getTime() - x.getTime()),
    ),
  };
}

export async function invalidateCode(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('login_codes')
    .set({ invalidated_at: now })
    .where('id', '=', id)
    .where('invalidated_at', 'is', null)
    .execute();
}

/**
 * A renter's code check, in one statement: counts the try from this address unless it already has
 * `limit` since the instant (loose, like countUnlessOver), and unless it has, finds the phone's live
 * code (neither used nor replaced) and locks it until the transaction ends: a second check of the
 * same code waits here, then finds it used. The address's newest `limit` tries before this one,
 * newest first, and the code: absent when there is none, or when the address is over its limit.
 */
export async function countTryAndLockLiveCode(
  trx: Transaction<Database>,
  opts: { event: { bucket: string; key: string; at: Date }; since: Date; limit: number; phone: string },
) {
  const { event, since, limit, phone } = opts;
  const { rows } = await sql<{
    recent: (Date | string)[];
    id: string | null;
    code_hash: string | null;
    expires_at: Date | string | null;
    failed_attempts: number | null;
  }>`
    ${recentAndCounted(event, since, limit)}
    select array(select at from recent order by at desc) as recent, code.*
    from (select 1) as one
    left join lateral (
      select id, code_hash, expires_at, failed_attempts from login_codes
      where phone = ${phone} and consumed_at is null and invalidated_at is null
        and (select count(*) from recent) < ${limit}
      order by created_at desc limit 1
      for update
    ) as code on true`.execute(trx);
  const { recent, id, code_hash, expires_at, failed_attempts } = rows[0]!;
  return {
    recent: recent.map((at) => new Date(at)),
    code:
      id !== null && code_hash !== null && expires_at !== null && failed_attempts !== null
        ? { id, code_hash, expires_at, failed_attempts }
        : undefined,
  };
}

/** Counts one wrong try and returns how many there have been. */
export async function recordFailedAttempt(db: Db, id: string): Promise<number> {
  const row = await db
    .updateTable('login_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .returning('failed_attempts')
    .executeTakeFirstOrThrow();
  return row.failed_attempts;
}

// ---- sessions ----

export interface NewSession {
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  user_agent: string | null;
  ip: string | null;
}

export async function insertSession(db: Db, values: NewSession & { user_id: string }): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
}

/**
 * Signs in the phone whose code `codeId` was just found right, in one statement: uses the code up,
 * finds the renter or creates them (their first sign-in) and opens their session. The renter, and
 * whether this sign-in created them. Every part of the statement sees the snapshot it began with,
 * so a renter another transaction creates while it runs is neither seen nor created (the insert
 * waits for that transaction, then does nothing): then nothing comes back and no session is
 * opened, though the code is used up all the same, and the caller reads the renter and opens the
 * session itself.
 */
export async function signInByPhone(
  trx: Transaction<Database>,
  opts: { codeId: string; phone: string; stytchUserId: string; now: Date; session: NewSession },
): Promise<(UserRow & { created: boolean }) | undefined> {
  const { codeId, phone, stytchUserId, now, session } = opts;
  const columns = sql.join(USER_COLUMNS.map((c) => sql.ref(c)));
  const { rows } = await sql<UserRow & { created: boolean }>`
    with consumed as (
      update login_codes set consumed_at = ${now} where id = ${codeId}
    ), inserted as (
      insert into users (stytch_user_id, phone, created_at, updated_at)
      values (${stytchUserId}, ${phone}, ${now}, ${now})
      on conflict (phone) do nothing
      returning ${columns}
    ), renter as (
      select ${columns}, true as created from inserted
      union all
      select ${columns}, false as created from users
      where phone = ${phone} and not exists (select 1 from inserted)
    ), opened as (
      insert into sessions (token_hash, user_id, created_at, expires_at, user_agent, ip)
      select ${session.token_hash}::text, renter.id, ${session.created_at}::timestamptz,
        ${session.expires_at}::timestamptz, ${session.user_agent}::text, ${session.ip}::text
      from renter
    )
    select renter.*, ${licenseOverrideOf('renter.id')} as license_override from renter`.execute(trx);
  return rows[0];
}

export async function revokeSession(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

// ---- the console sender's outbox ----

export async function insertOutboxMessage(
  db: Db,
  values: { to_phone: string; body: string; sent_at: Date },
): Promise<void> {
  await db.insertInto('sms_outbox').values(values).execute();
}

export async function listOutbox(db: Db, phone: string, limit: number) {
  return db
    .selectFrom('sms_outbox')
    .select(['to_phone', 'body', 'sent_at'])
    .where('to_phone', '=', phone)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
