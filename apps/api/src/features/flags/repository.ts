import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function overridesFor(db: Kysely<Database>, userId: string): Promise<{ key: string; value: unknown }[]> {
  return db.selectFrom('flag_overrides').select(['key', 'value']).where('user_id', '=', userId).execute();
}
