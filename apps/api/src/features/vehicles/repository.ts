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

export interface SearchRow {
  vin: string;
  year: number;
  color: string;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  platform_id: string;
  battery_type: string;
  model_id: number;
  model_name: string;
  model_slug: string;
  model_type: string;
  seating_capacity: number;
  drivetrain: string;
  mile_range: number;
  zero_to_sixty_mph_seconds: number;
  top_speed_mph: number;
  location_id: number;
  location_name: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
  tax_rate_ppm: number;
  image_url: string | null;
}

export interface SearchPageInput {
  scope: { regionId?: number; state?: string };
  from: Date;
  to: Date;
  origin: { latitude: number; longitude: number };
  model?: string | undefined;
  variant?: 'long-range' | 'standard' | undefined;
  color?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * One page of the cars in the scope (a region, or a whole state) with no active reservation
 * overlapping [from, to), nearest first, plus the colours and models available before the model
 * and colour filters, and how many cars match them. One round trip; Postgres assembles the page
 * as JSON, which the driver reads far faster than row by row.
 */
export async function searchPage(db: Kysely<Database>, input: SearchPageInput): Promise<{ colors: string[]; models: string[]; total: number; items: SearchRow[] }> {
  const scope =
    input.scope.state !== undefined ? sql`select id from locations where state = ${input.scope.state}` : sql`select id from locations where region_id = ${input.scope.regionId}`;
  const { latitude: lat, longitude: lng } = input.origin;
  const modelCond = input.model ? sql`lower(model_name) = lower(${input.model.trim()})` : sql`true`;
  const variantCond =
    input.variant === 'long-range' ? sql`model_name like '% Long Range'` : input.variant === 'standard' ? sql`model_name not like '% Long Range'` : sql`true`;
  const colorCond = input.color ? sql`color = ${input.color}` : sql`true`;
  const statuses = sql.join(ACTIVE_RESERVATION_STATUSES.map((s) => sql`${s}`));
  const result = await sql<{ colors: string[]; models: string[]; total: number; items: SearchRow[] }>`
    with avail as materialized (
      select v.vin, v.year, v.color, v.odometer, v.rack_rate, v.is_self_serve_booking_allowed, v.platform_id, v.battery_type, v.model_id,
             m.name as model_name, m.slug as model_slug, m.type as model_type, m.seating_capacity, m.drivetrain, m.mile_range,
             m.zero_to_sixty_mph_seconds, m.top_speed_mph,
             l.id as location_id, l.name as location_name, l.city, l.state, l.latitude, l.longitude, l.timezone, l.tax_rate_ppm,
             2 * 3958.8 * asin(least(1, sqrt(power(sin(radians(l.latitude - ${lat}) / 2), 2)
               + cos(radians(${lat})) * cos(radians(l.latitude)) * power(sin(radians(l.longitude - ${lng}) / 2), 2)))) as distance
      from vehicles v
      join locations l on l.id = v.location_id
      join vehicle_models m on m.id = v.model_id
      where v.location_id = any(array(${scope}))
        and not exists (
          select 1 from reservations r
          where r.vehicle_id = v.id and r.status in (${statuses})
            and r.period && tstzrange(${input.from}::timestamptz, ${input.to}::timestamptz, '[)')
        )
    ), wanted as (
      select * from avail where ${modelCond} and ${variantCond} and ${colorCond}
    ), page as (
      select w.*, (select mi.image_url from model_images mi where mi.model_id = w.model_id and mi.color = w.color and mi.view = 'MONEYSHOT') as image_url
      from wanted w
      order by w.distance, w.rack_rate::bigint * (1000000 + w.tax_rate_ppm), w.vin
      limit ${input.limit} offset ${input.offset}
    )
    select
      (select coalesce(json_agg(distinct color), '[]'::json) from avail) as colors,
      (select coalesce(json_agg(distinct model_name), '[]'::json) from avail) as models,
      (select count(*)::int from wanted) as total,
      (select coalesce(json_agg(p order by p.distance, p.rack_rate::bigint * (1000000 + p.tax_rate_ppm), p.vin), '[]'::json) from page p) as items
  `.execute(db);
  return result.rows[0]!;
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
