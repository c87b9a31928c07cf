import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The model a photo is drawn for, by its slug. */
export function modelBySlug(db: Kysely<Database>, slug: string) {
  return db.selectFrom('vehicle_models').select(['slug', 'name', 'type']).where('slug', '=', slug).executeTakeFirst();
}
