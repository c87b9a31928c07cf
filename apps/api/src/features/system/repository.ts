import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Reads one row, so a database that cannot answer (down, not migrated) throws. */
export async function readOneRegion(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('regions').select('id').limit(1).execute();
}
