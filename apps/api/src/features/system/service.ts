import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { readOneRegion } from './repository.ts';

/** GET /healthz: ok once the database answers; `time` is the server's clock (see CLOCK_START). */
export async function health(db: Kysely<Database>, clock: Clock): Promise<{ status: 'ok'; time: string }> {
  await readOneRegion(db);
  return { status: 'ok', time: clock().toISOString() };
}
