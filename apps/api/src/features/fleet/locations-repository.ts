import type { Kysely } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import type { Database } from '../../db/schema.ts';
import type { LocationScope } from './repository.ts';

/** Locations as the console edits them (decision 083): address, clock, pickup buffer, instructions. */
type Db = Kysely<Database>;

const COLUMNS = [
  'id',
  'name',
  'region_id',
  'street',
  'city',
  'state',
  'zip_code',
  'timezone',
  'min_reservation_buffer_hours',
  'pickup_instructions_html',
  'return_instructions_html',
] as const;

export function listLocations(db: Db, scope: LocationScope) {
  let q = db.selectFrom('locations').select(COLUMNS);
  if (scope !== 'all') q = q.where('id', 'in', scope.length > 0 ? [...scope] : [-1]);
  return q.orderBy('name').execute();
}

export function findLocation(db: Db, locationId: number, opts: { lock?: boolean } = {}) {
  let q = db.selectFrom('locations').select(COLUMNS).where('id', '=', locationId);
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export type LocationRow = NonNullable<Awaited<ReturnType<typeof findLocation>>>;

export async function updateLocation(
  db: Db,
  location: Pick<LocationRow, 'id' | 'name' | 'region_id'>,
  values: Partial<Omit<LocationRow, 'id' | 'name' | 'region_id'>>,
): Promise<void> {
  await db.updateTable('locations').set(values).where('id', '=', location.id).execute();
  // The lot's own search option carries its clock and buffer to the renter's date picker.
  const option = {
    ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
    ...(values.min_reservation_buffer_hours !== undefined
      ? { min_reservation_buffer_hours: values.min_reservation_buffer_hours }
      : {}),
  };
  if (Object.keys(option).length > 0)
    await db
      .updateTable('search_options')
      .set(option)
      .where('type', '=', 'LOT')
      .where('query', '=', location.name)
      .where('region_id', '=', location.region_id)
      .execute();
}

/** Trips not yet over that start or end at the lot: their times were written on its clock. */
export function openTripsAt(db: Db, locationId: number, now: Date) {
  return db
    .selectFrom('reservations')
    .select('platform_id')
    .where((eb) => eb.or([eb('pickup_location_id', '=', locationId), eb('dropoff_location_id', '=', locationId)]))
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where('return_at', '>', now)
    .orderBy('pickup_at')
    .limit(6)
    .execute();
}
