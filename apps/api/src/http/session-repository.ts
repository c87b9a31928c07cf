import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The live session (not revoked, not expired at `now`) whose token hashes to `tokenHash`, whose it is and when it ends. */
export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<{ id: string; user_id: string; expires_at: Date } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
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
