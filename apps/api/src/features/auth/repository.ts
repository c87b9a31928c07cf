import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

// ---- rate counters: one row per counted action, counted over a sliding window ----

/**
 * Serialises check-then-count for these keys across every API process until the transaction
 * ends, so two simultaneous requests cannot both see "4 of 5" and both send. Keys are locked in
 * the order given; callers always pass them in the same order, so two callers cannot deadlock.
 */
export async function lockKeys(trx: Transaction<Database>, keys: string[]): Promise<void> {
  for (const key of keys) await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/** The times of the newest `limit` events for a key since an instant, newest first. */
export async function recentRateEvents(
  db: Db,
  bucket: string,
  key: string,
  since: Date,
  limit: number,
): Promise<Date[]> {
  const rows = await db
    .selectFrom('rate_events')
    .select('at')
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => new Date(r.at));
}

export async function insertRateEvents(db: Db, events: { bucket: string; key: string; at: Date }[]): Promise<void> {
  await db.insertInto('rate_events').values(events).execute();
}

/** Drops counters and sign-in codes that can no longer matter. */
export async function pruneBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_events').where('at', '<', before).execute();
  await db.deleteFrom('login_codes').where('expires_at', '<', before).execute();
}

// ---- login codes ----

/** A newer code replaces any earlier one still unused. */
export async function invalidateActiveCodes(db: Db, phone: string, now: Date): Promise<void> {
  await db
    .updateTable('login_codes')
    .set({ invalidated_at: now })
    .where('phone', '=', phone)
    .where('consumed_at', 'is', null)
    .where('invalidated_at', 'is', null)
    .execute();
}

export async function insertLoginCode(
  db: Db,
  values: { phone: string; code_hash: string; created_at: Date; expires_at: Date },
): Promise<string> {
  const row = await db.insertInto('login_codes').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
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
 * The phone's live code (neither used nor replaced), locked until the transaction ends: a second
 * verification of the same code waits here, then finds it used.
 */
export async function lockLiveCode(trx: Transaction<Database>, phone: string) {
  return trx
    .selectFrom('login_codes')
    .select(['id', 'code_hash', 'expires_at', 'failed_attempts'])
    .where('phone', '=', phone)
    .where('consumed_at', 'is', null)
    .where('invalidated_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
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

export async function consumeCode(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('login_codes').set({ consumed_at: now }).where('id', '=', id).execute();
}

// ---- sessions ----

export async function insertSession(
  db: Db,
  values: {
    token_hash: string;
    user_id: string;
    created_at: Date;
    expires_at: Date;
    user_agent: string | null;
    ip: string | null;
  },
): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
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
