import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The live session (not revoked, not expired at `now`) whose token hashes to `tokenHash`, and whose it is. */
export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<{ id: string; user_id: string } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
