import type { Expression, Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema.ts';

/** The active add-ons for every model and the model's own: by its id, or by the column of a car being selected. */
const activeAddonsQuery = (db: Kysely<Database>, modelId: number | Expression<number>) =>
  db
    .selectFrom('addons')
    .select(['id', 'type', 'description', 'amount', 'charge_frequency', 'category'])
    .where('active', '=', true)
    .where((eb) => eb.or([eb('model_id', 'is', null), eb('model_id', '=', modelId)]))
    .orderBy('type');

export function activeAddonsForModel(db: Kysely<Database>, modelId: number) {
  return activeAddonsQuery(db, modelId).execute();
}

/** The car's active add-ons by its VIN, in one statement; undefined when no car has the VIN. */
export function activeAddonsForVin(db: Kysely<Database>, vin: string) {
  return db
    .selectFrom('vehicles as v')
    .select((eb) => jsonArrayFrom(activeAddonsQuery(db, eb.ref('v.model_id'))).as('addons'))
    .where('v.vin', '=', vin.toUpperCase())
    .executeTakeFirst();
}
