import { type Kysely, sql } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import type { Database } from '../../db/schema.ts';
import { LOCATION_COLUMNS } from '../locations/repository.ts';

const MODEL_COLUMNS = [
  'vehicle_models.name as model_name', 'vehicle_models.slug as model_slug', 'vehicle_models.type as model_type', 'vehicle_models.seating_capacity', 'vehicle_models.drivetrain',
  'vehicle_models.mile_range', 'vehicle_models.zero_to_sixty_mph_seconds', 'vehicle_models.top_speed_mph',
] as const;
const VEHICLE_COLUMNS = [
  'vehicles.id as vehicle_id', 'vehicles.vin', 'vehicles.year', 'vehicles.color', 'vehicles.odometer', 'vehicles.rack_rate', 'vehicles.is_self_serve_booking_allowed',
  'vehicles.platform_id', 'vehicles.battery_type', 'vehicles.model_id',
] as const;

/** The location columns a search result shows; the vehicle page reads the full set. */
const SEARCH_LOCATION_COLUMNS = [
  'locations.id', 'locations.name', 'locations.city', 'locations.state', 'locations.latitude', 'locations.longitude', 'locations.timezone', 'locations.tax_rate_ppm',
] as const;

/** Vehicles in the scope (a region, or a whole state) with no active reservation overlapping [from, to). */
export function availableVehicles(db: Kysely<Database>, scope: { regionId?: number; state?: string }, from: Date, to: Date) {
  let scopeLocations = db.selectFrom('locations').select('locations.id');
  if (scope.regionId !== undefined) scopeLocations = scopeLocations.where('locations.region_id', '=', scope.regionId);
  if (scope.state !== undefined) scopeLocations = scopeLocations.where('locations.state', '=', scope.state);
  return db
    .selectFrom('vehicles')
    .innerJoin('locations', 'locations.id', 'vehicles.location_id')
    .innerJoin('vehicle_models', 'vehicle_models.id', 'vehicles.model_id')
    .select([...VEHICLE_COLUMNS, ...MODEL_COLUMNS, ...SEARCH_LOCATION_COLUMNS])
    // The scope's few location ids as an array let the planner read just their cars through the
    // location index; filtering on the joined locations row made it scan the whole fleet.
    .where(sql<boolean>`vehicles.location_id = any(array(${scopeLocations}))`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reservations')
            .select(sql`1`.as('one'))
            .whereRef('reservations.vehicle_id', '=', 'vehicles.id')
            .where('reservations.status', 'in', [...ACTIVE_RESERVATION_STATUSES])
            .where(sql<boolean>`reservations.period && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')`),
        ),
      ),
    )
    .execute();
}

export function findVehicleByVin(db: Kysely<Database>, vin: string) {
  return db
    .selectFrom('vehicles')
    .innerJoin('locations', 'locations.id', 'vehicles.location_id')
    .innerJoin('vehicle_models', 'vehicle_models.id', 'vehicles.model_id')
    .select([...VEHICLE_COLUMNS, ...MODEL_COLUMNS, ...LOCATION_COLUMNS])
    .where('vehicles.vin', '=', vin.toUpperCase())
    .executeTakeFirst();
}

export function activeReservationPeriods(db: Kysely<Database>, vehicleId: number, after: Date) {
  return db
    .selectFrom('reservations')
    .select(['pickup_at', 'return_at'])
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where('return_at', '>', after)
    .orderBy('pickup_at')
    .execute();
}

export function imagesFor(db: Kysely<Database>, pairs: { modelId: number; color: string }[], views?: string[]) {
  if (pairs.length === 0) return Promise.resolve([]);
  let q = db
    .selectFrom('model_images')
    .select(['model_id', 'color', 'view', 'image_url', 'position'])
    .where((eb) => eb.or(pairs.map((p) => eb.and([eb('model_id', '=', p.modelId), eb('color', '=', p.color)]))));
  if (views) q = q.where('view', 'in', views);
  return q.orderBy('position').execute();
}

export function listModels(db: Kysely<Database>) {
  return db
    .selectFrom('vehicle_models')
    .select(['id', 'name', 'slug', 'type', 'seating_capacity', 'drivetrain', 'mile_range', 'zero_to_sixty_mph_seconds', 'top_speed_mph'])
    .orderBy('id')
    .execute();
}
