import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { countingHit } from './rate-limit-repository.ts';

/** A live session as the lookups return it. */
export interface LiveSessionRow {
  id: string;
  user_id: string;
  expires_at: Date;
}

/** The live session (not revoked, not expired at `now`) whose token hashes to `tokenHash`, whose it is and when it ends. */
export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<LiveSessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * findLiveSession and, only when the session is live, one hit on its renter's request window
 * (hitWindow, under the key `keyPrefix` followed by the renter's id), in one statement: a signed-in
 * request to a limited route waits on the database once before its route runs. Undefined when there
 * is no live session, and then nothing is counted.
 */
export async function findLiveSessionCountingHit(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
  keyPrefix: string,
  windowMs: number,
): Promise<{ session: LiveSessionRow; window: { hits: number; resetsAt: Date } } | undefined> {
  const fresh = new Date(now.getTime() + windowMs);
  const { rows } = await sql<{
    id: string;
    user_id: string;
    expires_at: Date | string;
    hits: number;
    resets_at: Date | string;
  }>`
    with live as (
      select id, user_id, expires_at from sessions
      where token_hash = ${tokenHash} and revoked_at is null and expires_at > ${now}
    ), hit as (
      insert into rate_limit_windows as w (key, hits, resets_at)
      select ${keyPrefix}::text || live.user_id::text, 1, ${fresh}::timestamptz from live
      ${countingHit(now)}
    )
    select live.id, live.user_id, live.expires_at, hit.hits, hit.resets_at from live cross join hit`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    session: { id: row.id, user_id: row.user_id, expires_at: new Date(row.expires_at) },
    window: { hits: Number(row.hits), resetsAt: new Date(row.resets_at) },
  };
}

/**
 * Moves a live session's end to `end` unless another request already moved it past `unlessAfter`
 * (two requests renewing at once write once). True when this call renewed it.
 */
export async function renewSession(db: Kysely<Database>, id: string, end: Date, unlessAfter: Date): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ expires_at: end })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '<=', unlessAfter)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
