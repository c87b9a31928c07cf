import { type Insertable, type Kysely, sql } from 'kysely';
import type { InspectionStage, InspectionView } from '@ampere/domain/inspections';
import type { Database, InspectionPhotoTable } from '../../db/schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const TRIP_COLUMNS = [
  'r.id',
  'r.platform_id',
  'r.status',
  'r.user_id',
  'r.pickup_at',
  'r.return_at',
  'r.returned_at',
  'r.pickup_location_id',
  'r.dropoff_location_id',
  'v.id as vehicle_id',
  'v.vin',
  'v.year',
  'v.color',
  'v.odometer',
  'm.name as model_name',
  'l.timezone',
] as const;

function tripQuery(db: Kysely<Database>) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .leftJoin('rides as ride', 'ride.reservation_id', 'r.id')
    .select([...TRIP_COLUMNS, 'ride.vehicle_pickup_at']);
}

/** A trip by its id or reference (any case), with its car and its pickup place's clock. */
export function findTrip(db: Kysely<Database>, idOrReference: string) {
  return tripQuery(db)
    .where((eb) =>
      UUID.test(idOrReference)
        ? eb('r.id', '=', idOrReference.toLowerCase())
        : eb(sql<string>`upper(r.platform_id)`, '=', idOrReference.toUpperCase()),
    )
    .executeTakeFirst();
}
export type TripRow = NonNullable<Awaited<ReturnType<typeof findTrip>>>;

/** The renter's own trip by its reference; another renter's or an unknown one is undefined. */
export function findOwnTrip(db: Kysely<Database>, userId: string, platformId: string) {
  return tripQuery(db).where('r.platform_id', '=', platformId).where('r.user_id', '=', userId).executeTakeFirst();
}

/** The trip a digital key token's hash opens (any key of the trip, revoked ones too: the record stays readable). */
export function findTripByKeyHash(db: Kysely<Database>, tokenHash: string) {
  return tripQuery(db)
    .innerJoin('digital_keys as k', 'k.reservation_id', 'r.id')
    .where('k.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function inspectionsOf(db: Kysely<Database>, reservationId: string) {
  return db
    .selectFrom('inspections as i')
    .leftJoin('staff as s1', 's1.id', 'i.started_by')
    .leftJoin('staff as s2', 's2.id', 'i.completed_by')
    .select([
      'i.id',
      'i.stage',
      'i.started_at',
      'i.completed_at',
      's1.name as started_by_name',
      's2.name as completed_by_name',
    ])
    .where('i.reservation_id', '=', reservationId)
    .execute();
}
export type InspectionRow = Awaited<ReturnType<typeof inspectionsOf>>[number];

/** The trip's inspection at a stage, locked for the write that changes it. */
export function inspectionForUpdate(db: Kysely<Database>, reservationId: string, stage: InspectionStage) {
  return db
    .selectFrom('inspections')
    .select(['id', 'completed_at'])
    .where('reservation_id', '=', reservationId)
    .where('stage', '=', stage)
    .forUpdate()
    .executeTakeFirst();
}

/** Starts the trip's inspection at a stage unless it was started already; the row either way. */
export async function ensureInspection(
  db: Kysely<Database>,
  row: { reservation_id: string; stage: InspectionStage; started_by: string | null; started_at: Date },
): Promise<{ id: string; completed_at: Date | null; created: boolean }> {
  const inserted = await db
    .insertInto('inspections')
    .values(row)
    .onConflict((oc) => oc.columns(['reservation_id', 'stage']).doNothing())
    .returning(['id', 'completed_at'])
    .executeTakeFirst();
  if (inserted) return { ...inserted, created: true };
  const existing = await inspectionForUpdate(db, row.reservation_id, row.stage);
  return { ...existing!, created: false };
}

export function completeInspection(db: Kysely<Database>, id: string, staffId: string, at: Date) {
  return db.updateTable('inspections').set({ completed_by: staffId, completed_at: at }).where('id', '=', id).execute();
}

export function photosOf(db: Kysely<Database>, inspectionIds: readonly string[]) {
  if (inspectionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('inspection_photos as p')
    .leftJoin('staff as s', 's.id', 'p.staff_id')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.inspection_id',
      'p.view',
      'p.damage_id',
      'p.taken_by',
      'p.taken_at',
      'p.battery_level',
      'p.odometer_miles',
      'p.width',
      'p.height',
      's.name as staff_name',
      'u.first_name',
      'u.last_name',
    ])
    .where('p.inspection_id', 'in', inspectionIds)
    .orderBy('p.taken_at')
    .orderBy('p.id')
    .execute();
}
export type PhotoRow = Awaited<ReturnType<typeof photosOf>>[number];

export function damageOf(db: Kysely<Database>, inspectionIds: readonly string[]) {
  if (inspectionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('inspection_damage')
    .select(['id', 'inspection_id', 'x', 'y', 'view', 'severity', 'note', 'created_at'])
    .where('inspection_id', 'in', inspectionIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
export type DamageRow = Awaited<ReturnType<typeof damageOf>>[number];

/** The staff photo of a guided view an upload replaces, if any. */
export function viewPhoto(db: Kysely<Database>, inspectionId: string, view: InspectionView) {
  return db
    .selectFrom('inspection_photos')
    .select(['id'])
    .where('inspection_id', '=', inspectionId)
    .where('view', '=', view)
    .executeTakeFirst();
}

export function deletePhoto(db: Kysely<Database>, id: string) {
  return db.deleteFrom('inspection_photos').where('id', '=', id).execute();
}

export function insertPhoto(db: Kysely<Database>, row: Insertable<InspectionPhotoTable>) {
  return db.insertInto('inspection_photos').values(row).execute();
}

/** How many photos the renter has added to an inspection. */
export async function renterPhotoCount(db: Kysely<Database>, inspectionId: string): Promise<number> {
  const row = await db
    .selectFrom('inspection_photos')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('inspection_id', '=', inspectionId)
    .where('taken_by', '=', 'renter')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertDamage(
  db: Kysely<Database>,
  row: {
    inspection_id: string;
    x: number;
    y: number;
    view: InspectionView;
    severity: 'minor' | 'moderate' | 'major';
    note: string;
    created_by: string;
    created_at: Date;
  },
) {
  return db.insertInto('inspection_damage').values(row).returning(['id']).executeTakeFirstOrThrow();
}

export function findDamage(db: Kysely<Database>, inspectionId: string, damageId: string) {
  return db
    .selectFrom('inspection_damage')
    .select(['id', 'x', 'y', 'view', 'severity', 'note'])
    .where('inspection_id', '=', inspectionId)
    .where('id', '=', damageId)
    .executeTakeFirst();
}

export function closeupIds(db: Kysely<Database>, damageId: string) {
  return db.selectFrom('inspection_photos').select(['id']).where('damage_id', '=', damageId).execute();
}

export function deleteDamage(db: Kysely<Database>, damageId: string) {
  return db.deleteFrom('inspection_damage').where('id', '=', damageId).execute();
}
