import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A trip by id or reference, with what the key and car actions need: its status, places, renter,
 * times and its car. `lock` holds the trip's row for a key action's transaction.
 */
export function tripForCar(db: Db, idOrReference: string, opts: { lock?: boolean } = {}) {
  const q = db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.status',
      'r.user_id',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'r.pickup_location_id',
      'r.dropoff_location_id',
      'v.id as vehicle_id',
      'v.vin',
      'v.odometer',
      'l.timezone as location_timezone',
      'l.latitude as lot_latitude',
      'l.longitude as lot_longitude',
    ])
    .where((eb) =>
      UUID.test(idOrReference)
        ? eb('r.id', '=', idOrReference.toLowerCase())
        : eb(sql<string>`upper(r.platform_id)`, '=', idOrReference.toUpperCase()),
    );
  return (opts.lock ? q.forUpdate('r') : q).executeTakeFirst();
}

export type CarTripRow = NonNullable<Awaited<ReturnType<typeof tripForCar>>>;
