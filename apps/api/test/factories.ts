import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';

let counter = 0;

/** Puts a hold on a car for [pickupAt, returnAt), as a booking would. */
export async function reserve(db: Kysely<Database>, vin: string, pickupAt: string | Date, returnAt: string | Date, status = 'Pending') {
  const v = await db.selectFrom('vehicles').select(['id', 'location_id']).where('vin', '=', vin).executeTakeFirstOrThrow();
  const loc = await db.selectFrom('locations').select(['timezone']).where('id', '=', v.location_id).executeTakeFirstOrThrow();
  counter += 1;
  return db
    .insertInto('reservations')
    .values({
      platform_id: `TST-${process.pid}-${Date.now().toString(36)}-${counter}`,
      vehicle_id: v.id,
      user_id: null,
      status,
      pickup_at: new Date(pickupAt),
      return_at: new Date(returnAt),
      timezone: loc.timezone,
      pickup_location_id: v.location_id,
      dropoff_location_id: v.location_id,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function optionId(db: Kysely<Database>, type: string, query: string): Promise<number> {
  const row = await db.selectFrom('search_options').select('id').where('type', '=', type).where('query', '=', query).executeTakeFirstOrThrow();
  return row.id;
}
