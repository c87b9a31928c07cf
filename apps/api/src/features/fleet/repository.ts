import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES, type Color } from '@ampere/domain/constants';
import { CAR_STATUS_FLAGS, type CarStatus, type CarStatusFlag } from '@ampere/domain/fleet';
import type { CarsQuery } from '@ampere/domain/contract/ops-fleet';
import { HELD_FROM } from '../../db/reservation-holds.ts';
import type { Database } from '../../db/schema.ts';

/** The cars, their holds and the CSV import's reads and writes (decisions 083, 084). */
type Db = Kysely<Database>;

/** The locations a staff member sees: every one, or these ids. */
export type LocationScope = 'all' | readonly number[];

/** Each status flag as SQL on a car row `v` at `now`, so the list's status is the domain's rule. */
function statusFlags(now: Date): Record<CarStatusFlag, Expression<SqlBool>> {
  return {
    retired: sql<SqlBool>`v.retired_at is not null`,
    onRent: sql<SqlBool>`exists (select 1 from reservations r where r.vehicle_id = v.id and r.status = 'On Rent')`,
    heldNow: sql<SqlBool>`exists (
      select 1 from vehicle_holds h
      where h.vehicle_id = v.id and h.canceled_at is null and h.starts_at <= ${now} and h.ends_at > ${now})`,
  };
}

/** The car's status, CAR_STATUS_FLAGS' order written as one CASE. */
function statusExpression(now: Date) {
  const flags = statusFlags(now);
  const whens = CAR_STATUS_FLAGS.map(({ flag, status }) => sql`when ${flags[flag]} then ${status}`);
  return sql<CarStatus>`case ${sql.join(whens, sql` `)} else 'available' end`;
}

const SORTS = {
  vin: sql`v.vin`,
  model: sql`m.name`,
  location: sql`l.name`,
  status: sql`status`,
  battery: sql`sc.battery_level`,
  rate: sql`v.rack_rate`,
  year: sql`v.year`,
} as const;

function carsBase(db: Db, now: Date) {
  return db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .leftJoin('simulated_cars as sc', 'sc.vehicle_id', 'v.id')
    .select([
      'v.id',
      'v.vin',
      'v.year',
      'v.color',
      'v.odometer',
      'v.rack_rate',
      'v.is_self_serve_booking_allowed',
      'v.retired_at',
      'v.license_plate',
      'v.model_id',
      'v.location_id',
      'm.name as model_name',
      'l.name as location_name',
      'l.timezone',
      'sc.battery_level',
      statusExpression(now).as('status'),
    ]);
}

export type CarRow = Awaited<ReturnType<typeof findCar>> & object;

/** A page of the cars in `scope` matching the filters, and how many match in all. */
export async function listCars(db: Db, scope: LocationScope, q: CarsQuery, now: Date) {
  let query = carsBase(db, now).select(sql<number>`count(*) over ()`.as('total'));
  if (scope !== 'all') query = query.where('v.location_id', 'in', scope.length > 0 ? [...scope] : [-1]);
  if (q.locationId !== undefined) query = query.where('v.location_id', '=', q.locationId);
  if (q.model !== undefined) query = query.where(sql<SqlBool>`lower(m.name) = ${q.model.toLowerCase()}`);
  if (q.vin !== undefined) query = query.where('v.vin', 'like', `%${q.vin.toUpperCase().replace(/[\\%_]/g, '')}%`);
  if (q.batteryBelow !== undefined) query = query.where('sc.battery_level', '<', q.batteryBelow / 100);
  if (q.batteryAbove !== undefined) query = query.where('sc.battery_level', '>', q.batteryAbove / 100);
  if (q.status !== undefined) query = query.where(statusExpression(now), '=', q.status);
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  const rows = await query
    .orderBy(sql`${SORTS[q.sort]} ${dir} nulls last`)
    .orderBy('v.id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  if (rows[0] || q.offset === 0) return { rows, total: rows[0] ? Number(rows[0].total) : 0 };
  // A page past the end: the first row of the same filters tells the pager how many there are.
  const first = await query.limit(1).executeTakeFirst();
  return { rows, total: first ? Number(first.total) : 0 };
}

export function findCar(db: Db, carId: number, now: Date) {
  return carsBase(db, now).where('v.id', '=', carId).executeTakeFirst();
}

/** Locks the car's row until the transaction ends (the same lock a booking of it takes). */
export async function lockCar(db: Db, carId: number): Promise<void> {
  await db.selectFrom('vehicles').select('id').where('id', '=', carId).forNoKeyUpdate().execute();
}

export function carBookings(db: Db, carId: number) {
  return db
    .selectFrom('reservations')
    .select(['id', 'platform_id', 'status', HELD_FROM.as('held_from'), 'return_at', 'blocked_until'])
    .where('vehicle_id', '=', carId)
    .orderBy('pickup_at', 'desc')
    .limit(200)
    .execute();
}

export function carHolds(db: Db, carId: number) {
  return db
    .selectFrom('vehicle_holds')
    .select(['id', 'vehicle_id', 'reason', 'note', 'starts_at', 'ends_at', 'canceled_at', 'created_by'])
    .where('vehicle_id', '=', carId)
    .orderBy('starts_at', 'desc')
    .limit(200)
    .execute();
}

export function carRides(db: Db, carId: number) {
  return db
    .selectFrom('rides as ri')
    .innerJoin('reservations as r', 'r.id', 'ri.reservation_id')
    .select([
      'r.platform_id',
      'ri.vehicle_pickup_at',
      'ri.vehicle_return_at',
      'ri.mileage_out',
      'ri.mileage_in',
      'ri.battery_out',
      'ri.battery_in',
    ])
    .where('ri.vehicle_id', '=', carId)
    .orderBy('ri.vehicle_pickup_at', 'desc')
    .limit(200)
    .execute();
}

/** The photos the renter pages show of the car today: its model's in its colour, in gallery order. */
export function carPhotos(db: Db, modelId: number, color: Color) {
  return db
    .selectFrom('model_images')
    .select(['view', 'image_url'])
    .where('model_id', '=', modelId)
    .where('color', '=', color)
    .orderBy('position')
    .execute();
}

/** The car's active bookings that have not ended by `now`: what retiring it would strand. */
export function upcomingBookings(db: Db, carId: number, now: Date) {
  return db
    .selectFrom('reservations')
    .select(['platform_id', 'pickup_at'])
    .where('vehicle_id', '=', carId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where('blocked_until', '>', now)
    .orderBy('pickup_at')
    .execute();
}

export function models(db: Db) {
  return db.selectFrom('vehicle_models').select(['id', 'name', 'slug']).execute();
}

/** Each model's battery chemistry, as its cars carry it (a new car of the model gets the same). */
export async function batteryTypes(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('vehicles').select(['model_id', 'battery_type']).distinctOn('model_id').execute();
  return new Map(rows.map((r) => [r.model_id, r.battery_type]));
}

export function locationNames(db: Db, scope: LocationScope) {
  let q = db.selectFrom('locations').select(['id', 'name']);
  if (scope !== 'all') q = q.where('id', 'in', scope.length > 0 ? [...scope] : [-1]);
  return q.execute();
}

/** Which of these VINs the fleet already has (retired cars included: a VIN names one car for good). */
export async function existingVins(db: Db, vins: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < vins.length; i += 5_000) {
    const rows = await db
      .selectFrom('vehicles')
      .select('vin')
      .where('vin', 'in', vins.slice(i, i + 5_000))
      .execute();
    for (const r of rows) found.add(r.vin);
  }
  return found;
}

export interface NewVehicle {
  vin: string;
  platform_id: string;
  model_id: number;
  location_id: number;
  year: number;
  color: Color;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  battery_type: string;
  license_plate?: string | null;
}

/** The car that carries this (normalised) plate, if any. */
export function carWithPlate(db: Db, plate: string) {
  return db.selectFrom('vehicles').select(['id', 'vin']).where('license_plate', '=', plate).executeTakeFirst();
}

/** Which of these plates cars already carry. */
export async function existingPlates(db: Db, plates: readonly string[]): Promise<Set<string>> {
  if (plates.length === 0) return new Set();
  const rows = await db
    .selectFrom('vehicles')
    .select('license_plate')
    .where('license_plate', 'in', [...plates])
    .execute();
  return new Set(rows.map((r) => r.license_plate!));
}

export async function insertCars(db: Db, cars: readonly NewVehicle[]): Promise<number[]> {
  const ids: number[] = [];
  // A statement takes at most 65,535 parameters: 10 columns a car, 2,000 cars a statement.
  for (let i = 0; i < cars.length; i += 2_000) {
    const rows = await db
      .insertInto('vehicles')
      .values(cars.slice(i, i + 2_000))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

export function updateCar(
  db: Db,
  carId: number,
  values: Partial<
    Pick<
      NewVehicle,
      | 'model_id'
      | 'location_id'
      | 'year'
      | 'color'
      | 'odometer'
      | 'rack_rate'
      | 'is_self_serve_booking_allowed'
      | 'license_plate'
    >
  >,
) {
  return db.updateTable('vehicles').set(values).where('id', '=', carId).execute();
}

export function retireCar(db: Db, carId: number, now: Date) {
  return db.updateTable('vehicles').set({ retired_at: now }).where('id', '=', carId).execute();
}

/** Every car of the scope, as the CSV export writes them (retired cars left out: they are not the fleet). */
export function exportRows(db: Db, scope: LocationScope) {
  let q = db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .select([
      'v.vin',
      'v.year',
      'm.name as model',
      'v.color',
      'l.name as location',
      'v.rack_rate',
      'v.odometer',
      'v.license_plate',
    ])
    .where('v.retired_at', 'is', null);
  if (scope !== 'all') q = q.where('v.location_id', 'in', scope.length > 0 ? [...scope] : [-1]);
  return q.orderBy('v.id').execute();
}
