import type { Kysely } from 'kysely';
import type { ImageView } from '@ampere/domain/constants';
import type { Database } from '../../db/schema.ts';

/** A car by its VIN or its fleet id, with its location: what a photo is filed under. */
export function findCar(db: Kysely<Database>, carId: string) {
  return db
    .selectFrom('vehicles')
    .select(['id', 'vin', 'location_id'])
    .where(/^\d{1,9}$/.test(carId) ? 'id' : 'vin', '=', /^\d{1,9}$/.test(carId) ? Number(carId) : carId)
    .executeTakeFirst();
}

const PHOTO_COLUMNS = ['vehicle_id', 'view', 'version', 'image_url', 'width', 'height', 'bytes', 'created_at'] as const;

export function photosOf(db: Kysely<Database>, vehicleId: number) {
  return db.selectFrom('car_photos').select(PHOTO_COLUMNS).where('vehicle_id', '=', vehicleId).execute();
}

/** The car's photo of a view, locked for the upload or removal that replaces it. */
export function photoForUpdate(db: Kysely<Database>, vehicleId: number, view: ImageView) {
  return db
    .selectFrom('car_photos')
    .select(PHOTO_COLUMNS)
    .where('vehicle_id', '=', vehicleId)
    .where('view', '=', view)
    .forUpdate()
    .executeTakeFirst();
}

export function savePhoto(
  db: Kysely<Database>,
  row: {
    vehicle_id: number;
    view: ImageView;
    version: string;
    image_url: string;
    width: number;
    height: number;
    bytes: number;
    uploaded_by: string;
    created_at: Date;
  },
) {
  return db
    .insertInto('car_photos')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['vehicle_id', 'view']).doUpdateSet({
        version: row.version,
        image_url: row.image_url,
        width: row.width,
        height: row.height,
        bytes: row.bytes,
        uploaded_by: row.uploaded_by,
        created_at: row.created_at,
      }),
    )
    .execute();
}

export function deletePhoto(db: Kysely<Database>, vehicleId: number, view: ImageView) {
  return db.deleteFrom('car_photos').where('vehicle_id', '=', vehicleId).where('view', '=', view).execute();
}
