import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The renter's identity-service id, which names their channel; undefined for an unknown user. */
export async function stytchUserIdOf(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('stytch_user_id').where('id', '=', userId).executeTakeFirst();
  return row?.stytch_user_id;
}

/** Notes which session signed a socket's subscription (a socket signed again moves to the newer session). */
export async function recordSocketSession(
  db: Kysely<Database>,
  socketId: string,
  sessionId: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('realtime_socket_sessions')
    .values({ socket_id: socketId, session_id: sessionId, created_at: now })
    .onConflict((oc) => oc.column('socket_id').doUpdateSet({ session_id: sessionId, created_at: now }))
    .execute();
}

/** Forgets a session's sockets and returns their ids. */
export async function takeSocketsOfSession(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('realtime_socket_sessions')
    .where('session_id', '=', sessionId)
    .returning('socket_id')
    .execute();
  return rows.map((r) => r.socket_id);
}

/** Forgets sockets signed before `before` (longer ago than any session lasts); how many. */
export async function pruneSocketSessions(db: Kysely<Database>, before: Date): Promise<number> {
  const r = await db.deleteFrom('realtime_socket_sessions').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0n);
}

/** Hands a payload to every process listening on `channel` on this database (this one included), at commit. */
export async function notify(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await notifyAll(db, channel, [payload]);
}

/**
 * `notify` for several payloads in one statement: one pg_notify each, in order (one transaction's
 * notices reach listeners in the order they were sent). A payload sent twice in it arrives once.
 */
export async function notifyAll(db: Kysely<Database>, channel: string, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  await sql`select ${sql.join(payloads.map((p) => sql`pg_notify(${channel}, ${p})`))}`.execute(db);
}
