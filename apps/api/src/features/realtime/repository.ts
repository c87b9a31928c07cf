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

/**
 * `notifyAll` to a renter's channel in the statement that reads the channel's id (their identity
 * service id after `channelPrefix`): each delivery is built by the database in `encodeDelivery`'s
 * shape. Nothing is sent for an id that is empty or longer than `maxIdBytes` (the payloads were
 * sized for that much). The id read (null when empty), or undefined for an unknown user.
 */
export async function notifyRenter(
  db: Kysely<Database>,
  notifyChannel: string,
  userId: string,
  channelPrefix: string,
  events: readonly { event: string; data: string }[],
  maxIdBytes: number,
): Promise<{ stytchUserId: string | null; sent: boolean } | undefined> {
  const { rows } = await sql<{ stytch_user_id: string | null; sent: boolean }>`
    select u.stytch_user_id,
      coalesce(u.stytch_user_id <> '' and octet_length(u.stytch_user_id) <= ${maxIdBytes}, false) as sent,
      ${sql.join(
        events.map(
          (e) => sql`case when u.stytch_user_id <> '' and octet_length(u.stytch_user_id) <= ${maxIdBytes}
            then pg_notify(${notifyChannel}, json_build_object(
              'c', ${channelPrefix}::text || u.stytch_user_id, 'e', ${e.event}::text, 'd', ${e.data}::text)::text) end`,
        ),
      )}
    from users u where u.id = ${userId}`.execute(db);
  const row = rows[0];
  return row && { stytchUserId: row.stytch_user_id || null, sent: row.sent };
}
