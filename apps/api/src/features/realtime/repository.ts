import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The renter's identity-service id, which names their channel; undefined for an unknown user. */
export async function stytchUserIdOf(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('stytch_user_id').where('id', '=', userId).executeTakeFirst();
  return row?.stytch_user_id;
}
