import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Staff sign-in's rows (decision 081): codes apart from renters', passkeys, and a session's challenge. */

export function activeStaffByPhone(db: Db, phone: string) {
  return db
    .selectFrom('staff')
    .select(['id', 'name', 'role'])
    .where('phone', '=', phone)
    .where('active', '=', true)
    .executeTakeFirst();
}

/** Counts rate events (the per-address and per-number limits on texts). */
export async function countRateEvents(db: Db, events: { bucket: string; key: string; at: Date }[]): Promise<void> {
  await db.insertInto('rate_events').values(events).execute();
}

/** Replaces any unused code of the staff member with a new one; the new code's id. */
export async function replaceStaffCode(
  db: Db,
  code: { staffId: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<string> {
  await db
    .updateTable('staff_sign_in_codes')
    .set({ invalidated_at: code.now })
    .where('staff_id', '=', code.staffId)
    .where('consumed_at', 'is', null)
    .where('invalidated_at', 'is', null)
    .execute();
  const row = await db
    .insertInto('staff_sign_in_codes')
    .values({ staff_id: code.staffId, code_hash: code.codeHash, created_at: code.now, expires_at: code.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function invalidateStaffCode(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('staff_sign_in_codes')
    .set({ invalidated_at: now })
    .where('id', '=', id)
    .where('invalidated_at', 'is', null)
    .execute();
}

/** The staff member's live code, locked until the transaction ends (a second try waits, then finds it used). */
export function lockLiveStaffCode(trx: Transaction<Database>, staffId: string) {
  return trx
    .selectFrom('staff_sign_in_codes')
    .select(['id', 'code_hash', 'expires_at', 'failed_attempts'])
    .where('staff_id', '=', staffId)
    .where('consumed_at', 'is', null)
    .where('invalidated_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function recordFailedStaffAttempt(db: Db, id: string): Promise<number> {
  const row = await db
    .updateTable('staff_sign_in_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .returning('failed_attempts')
    .executeTakeFirstOrThrow();
  return row.failed_attempts;
}

export async function consumeStaffCode(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('staff_sign_in_codes').set({ consumed_at: now }).where('id', '=', id).execute();
}

export async function markSignedIn(db: Db, staffId: string, now: Date): Promise<void> {
  await db.updateTable('staff').set({ last_sign_in_at: now }).where('id', '=', staffId).execute();
}

export function passkeysOf(db: Db, staffId: string) {
  return db
    .selectFrom('staff_passkeys')
    .select(['credential_id', 'public_key', 'counter', 'transports'])
    .where('staff_id', '=', staffId)
    .orderBy('created_at')
    .execute();
}

export async function insertPasskey(
  db: Db,
  row: {
    credentialId: string;
    staffId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('staff_passkeys')
    .values({
      credential_id: row.credentialId,
      staff_id: row.staffId,
      public_key: Buffer.from(row.publicKey),
      counter: String(row.counter),
      transports: row.transports,
      created_at: row.now,
      last_used_at: row.now,
    })
    .execute();
}

export async function passkeyUsed(db: Db, credentialId: string, counter: number, now: Date): Promise<void> {
  await db
    .updateTable('staff_passkeys')
    .set({ counter: String(counter), last_used_at: now })
    .where('credential_id', '=', credentialId)
    .execute();
}

export async function setPasskeyChallenge(
  db: Db,
  sessionId: string,
  challenge: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ passkey_challenge: challenge, passkey_challenge_expires_at: expiresAt })
    .where('id', '=', sessionId)
    .execute();
}

/**
 * Takes the session's challenge, once: it is cleared in the same statement, so a second answer to
 * it finds nothing. The challenge, or null when there is none or it has expired.
 */
export async function takePasskeyChallenge(db: Db, sessionId: string, now: Date): Promise<string | null> {
  const { rows } = await sql<{ challenge: string | null; expires_at: Date | string | null }>`
    update staff_sessions s set passkey_challenge = null, passkey_challenge_expires_at = null
    from (select id, passkey_challenge, passkey_challenge_expires_at from staff_sessions where id = ${sessionId} for update) old
    where s.id = old.id
    returning old.passkey_challenge as challenge, old.passkey_challenge_expires_at as expires_at`.execute(db);
  const row = rows[0];
  if (!row?.challenge || !row.expires_at || new Date(row.expires_at) <= now) return null;
  return row.challenge;
}
