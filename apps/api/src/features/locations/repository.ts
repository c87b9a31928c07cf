import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * A location's pickup buffer (spec 3 and 9: min_reservation_buffer_hours, null meaning the default):
 * the one set in the console (migration 0024), else its own LOT search option's, else its city's
 * (the search options the renter picks dates from carry it too). Correlated on `locations`, so it
 * reads as one of its columns.
 */
export const LOCATION_BUFFER_HOURS = sql<number | null>`coalesce(locations.min_reservation_buffer_hours, (
  select so.min_reservation_buffer_hours from search_options so
  where so.region_id = locations.region_id and ((so.type = 'LOT' and so.query = locations.name) or so.type = 'CITY')
  order by (so.type = 'LOT') desc, so.id
  limit 1
))`.as('min_reservation_buffer_hours');

export const LOCATION_COLUMNS = [
  'locations.id',
  'locations.name',
  'locations.street',
  'locations.city',
  'locations.state',
  'locations.zip_code',
  'locations.latitude',
  'locations.longitude',
  'locations.timezone',
  'locations.is_airport',
  'locations.region_id',
  'locations.pickup_instructions_html',
  'locations.return_instructions_html',
  'locations.tax_rate_ppm',
  LOCATION_BUFFER_HOURS,
] as const;

export function searchLocations(
  db: Kysely<Database>,
  opts: { text: string; regionId?: number | undefined; limit: number },
) {
  const escaped = opts.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  let q = db.selectFrom('locations').select(LOCATION_COLUMNS);
  if (opts.regionId !== undefined) q = q.where('region_id', '=', opts.regionId);
  if (escaped) {
    const like = `%${escaped}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', like),
        eb(sql`lower(city)`, 'like', like),
        eb(sql`lower(street)`, 'like', like),
        eb('zip_code', 'like', like),
      ]),
    );
  }
  return q.orderBy('name').limit(opts.limit).execute();
}

export async function pageLocations(
  db: Kysely<Database>,
  opts: { regionId?: number | undefined; page: number; size: number },
) {
  let q = db.selectFrom('locations');
  if (opts.regionId !== undefined) q = q.where('region_id', '=', opts.regionId);
  const [rows, count] = await Promise.all([
    q
      .select(LOCATION_COLUMNS)
      .orderBy('name')
      .offset((opts.page - 1) * opts.size)
      .limit(opts.size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function listCities(db: Kysely<Database>) {
  return db
    .selectFrom('regions')
    .innerJoin('search_options', (j) =>
      j.onRef('search_options.region_id', '=', 'regions.id').on('search_options.type', '=', 'CITY'),
    )
    .select([
      'regions.id as region_id',
      'search_options.id as search_query_id',
      'regions.name',
      'regions.state',
      'regions.latitude',
      'regions.longitude',
      'regions.timezone',
    ])
    .orderBy('regions.id')
    .execute();
}
