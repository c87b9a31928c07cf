import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function activeAddonsForModel(db: Kysely<Database>, modelId: number) {
  return db
    .selectFrom('addons')
    .select(['id', 'type', 'description', 'amount', 'charge_frequency', 'category'])
    .where('active', '=', true)
    .where((eb) => eb.or([eb('model_id', 'is', null), eb('model_id', '=', modelId)]))
    .orderBy('type')
    .execute();
}

export function vehicleModelId(db: Kysely<Database>, vin: string) {
  return db.selectFrom('vehicles').select(['model_id']).where('vin', '=', vin.toUpperCase()).executeTakeFirst();
}
