import { type Kysely, sql } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import { HELD_FROM } from '../../db/reservation-holds.ts';
import type { Database } from '../../db/schema.ts';
import { LOCATION_COLUMNS } from '../locations/repository.ts';
import type { Color, ImageView, ReservationStatus } from '@ampere/domain/constants';

const MODEL_COLUMNS = [
  'vehicle_models.name as model_name',
  'vehicle_models.slug as model_slug',
  'vehicle_models.type as model_type',
  'vehicle_models.seating_capacity',
  'vehicle_models.drivetrain',
  'vehicle_models.mile_range',
  'vehicle_models.zero_to_sixty_mph_seconds',
  'vehicle_models.top_speed_mph',
] as const;
const VEHICLE_COLUMNS = [
  'vehicles.id as vehicle_id',
  'vehicles.vin',
  'vehicles.year',
  'vehicles.color',
  'vehicles.odometer',
  'vehicles.rack_rate',
  'vehicles.is_self_serve_booking_allowed',
  'vehicles.platform_id',
  'vehicles.battery_type',
  'vehicles.model_id',
] as const;

export function findVehicleByVin(db: Kysely<Database>, vin: string) {
  return (
    db
      .selectFrom('vehicles')
      .innerJoin('locations', 'locations.id', 'vehicles.location_id')
      .innerJoin('vehicle_models', 'vehicle_models.id', 'vehicles.model_id')
      .select([...VEHICLE_COLUMNS, ...MODEL_COLUMNS, ...LOCATION_COLUMNS])
      .where('vehicles.vin', '=', vin.toUpperCase())
      // A retired car is never offered again (decision 083).
      .where('vehicles.retired_at', 'is', null)
      .executeTakeFirst()
  );
}

/** The car's live staff holds (decision 083) still taking it after `after`. */
export function liveStaffHolds(db: Kysely<Database>, vehicleId: number, after: Date) {
  return db
    .selectFrom('vehicle_holds')
    .select(['starts_at', 'ends_at'])
    .where('vehicle_id', '=', vehicleId)
    .where('canceled_at', 'is', null)
    .where('ends_at', '>', after)
    .execute();
}

/** The car's active reservations still holding it after `after` (decision 015: until blocked_until). */
export function activeReservationHolds(db: Kysely<Database>, vehicleId: number, after: Date) {
  return db
    .selectFrom('reservations')
    .select([
      HELD_FROM.as('held_from'),
      'blocked_until',
      'status',
      'user_id',
      'platform_id',
      'pickup_at',
      'return_at',
      'created_at',
    ])
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where('blocked_until', '>', after)
    .orderBy(HELD_FROM)
    .execute();
}

export function imagesFor(
  db: Kysely<Database>,
  pairs: { modelId: number; color: Color }[],
  views?: readonly ImageView[],
) {
  if (pairs.length === 0) return Promise.resolve([]);
  let q = db
    .selectFrom('model_images')
    .select(['model_id', 'color', 'view', 'image_url', 'position'])
    .where((eb) => eb.or(pairs.map((p) => eb.and([eb('model_id', '=', p.modelId), eb('color', '=', p.color)]))));
  if (views) q = q.where('view', 'in', views);
  return q.orderBy('position').execute();
}

/** The cars' own photos (decision 085), by car. */
export function carPhotosFor(db: Kysely<Database>, vehicleIds: number[]) {
  if (vehicleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('car_photos')
    .select(['vehicle_id', 'view', 'image_url'])
    .where('vehicle_id', 'in', vehicleIds)
    .execute();
}

export function listModels(db: Kysely<Database>) {
  return db
    .selectFrom('vehicle_models')
    .select([
      'id',
      'name',
      'slug',
      'type',
      'seating_capacity',
      'drivetrain',
      'mile_range',
      'zero_to_sixty_mph_seconds',
      'top_speed_mph',
    ])
    .orderBy('id')
    .execute();
}

/**
 * Up to `limit` cars with an id above `afterId`, in id order, with what a search result shows of
 * each apart from its model and lot (read once each, `listModels`, `locationsForIndex`) and its
 * own MONEYSHOT photo if it has one (decision 085; else its model's, `modelPhotosForIndex`): the
 * in-memory search index reads the fleet a slice at a time, so a million cars never sit in one
 * result (decision 097).
 */
export function fleetSliceForIndex(db: Kysely<Database>, afterId: number, limit: number) {
  return (
    db
      .selectFrom('vehicles as v')
      .leftJoin('car_photos as cp', (j) => j.onRef('cp.vehicle_id', '=', 'v.id').on('cp.view', '=', 'MONEYSHOT'))
      .select([
        'v.id as vehicle_id',
        'v.vin',
        'v.year',
        'v.color',
        'v.odometer',
        'v.rack_rate',
        'v.is_self_serve_booking_allowed',
        'v.platform_id',
        'v.battery_type',
        'v.model_id',
        'v.location_id',
        'cp.image_url as own_photo',
      ])
      // A retired car is never offered again (decision 083).
      .where('v.retired_at', 'is', null)
      .where('v.id', '>', afterId)
      .orderBy('v.id')
      .limit(limit)
      .execute()
  );
}

/** Each model's MONEYSHOT drawing by colour: a car without a photo of its own shows its model's. */
export function modelPhotosForIndex(db: Kysely<Database>) {
  return db
    .selectFrom('model_images')
    .select(['model_id', 'color', 'image_url'])
    .where('view', '=', 'MONEYSHOT')
    .execute();
}

/** Every lot, with what a search result says of it and what places and prices its cars. */
export function locationsForIndex(db: Kysely<Database>) {
  return db
    .selectFrom('locations')
    .select(['id', 'name', 'street', 'city', 'state', 'latitude', 'longitude', 'timezone', 'tax_rate_ppm', 'region_id'])
    .orderBy('id')
    .execute();
}

/** The database server's clock (the one `updated_at` is written with). */
export async function databaseNow(db: Kysely<Database>): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return new Date(rows[0]!.now);
}

/**
 * For the search index: with `since`, every reservation changed at or after it (whatever its
 * dates, so a trip cut short is seen); without, every reservation still holding its car after `after`.
 * Status decides whether one holds the car.
 */
export function reservationChanges(db: Kysely<Database>, since: Date | null, after: Date) {
  const q = db
    .selectFrom('reservations')
    .select(['id', 'vehicle_id', 'status', HELD_FROM.as('pickup_at'), 'blocked_until']);
  // Staff holds (decision 083) take a car like an active reservation until ended or cancelled.
  const h = db
    .selectFrom('vehicle_holds')
    .select([
      'id',
      'vehicle_id',
      sql<ReservationStatus>`case when canceled_at is null then 'Pending' else 'Canceled' end`.as('status'),
      'starts_at as pickup_at',
      'ends_at as blocked_until',
    ]);
  return (
    since
      ? q.where('updated_at', '>=', since).unionAll(h.where('updated_at', '>=', since))
      : q.where('blocked_until', '>', after).unionAll(h.where('ends_at', '>', after))
  ).execute();
}

/** The fleet's version (migration 0024): it moves whenever a car or a location changes. */
export async function fleetVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('fleet_version').select('version').executeTakeFirst();
  return String(row?.version ?? '0');
}
