import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ImageView } from '@ampere/domain/constants';
import type { CarPhoto } from '@ampere/domain/contract/ops-day';
import { PHOTO_DEFAULT_WIDTH, PHOTO_WIDTHS, carPhotoPath, carPhotoSrcset } from '@ampere/domain/photos';
import { afterCommit, transact } from '../../db/transact.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { resizePhoto } from './images.ts';
import * as repo from './repository.ts';
import type { PhotoStorage } from './storage.ts';

export interface PhotoDeps {
  db: Kysely<Database>;
  storage: PhotoStorage;
  /** Told when a car's photos change, so search shows the new one at once. */
  searchIndex: { markFleetStale(): void };
}

/** The file name of a car's photo of a view at a version and width, as served under /media/cars/<VIN>/. */
const fileName = (view: ImageView, version: string, width: number) => `${view.toLowerCase()}-${version}-${width}.webp`;
const keysOf = (vin: string, view: ImageView, version: string) =>
  PHOTO_WIDTHS.map((w) => `cars/${vin}/${fileName(view, version, w)}`);

type PhotoRow = Awaited<ReturnType<typeof repo.photosOf>>[number];

const toPhoto = (vin: string, r: PhotoRow): CarPhoto => ({
  vin,
  view: r.view,
  version: r.version,
  imageUrl: r.image_url,
  srcset: carPhotoSrcset(vin, r.view, r.version),
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  uploadedAt: r.created_at.toISOString(),
});

/** The car a console path names, in the staff member's locations (another city's is a 404). */
async function carInScope(db: Kysely<Database>, carId: string, ops: OpsContext) {
  const car = await repo.findCar(db, carId);
  const missing = `No car ${carId} in your locations.`;
  if (!car) throw notFound(missing, 'carId');
  ops.requireInScope(String(car.location_id), missing);
  return car;
}

export async function listPhotos(db: Kysely<Database>, carId: string, ops: OpsContext) {
  const car = await carInScope(db, carId, ops);
  const rows = await repo.photosOf(db, car.id);
  return { vin: car.vin, photos: rows.map((r) => toPhoto(car.vin, r)) };
}

/**
 * Uploads a car's photo of a view (decision 085): checked and resized before anything is written,
 * its files stored under a new version, then the row and its audit record in one transaction.
 * The files of the photo it replaces are removed once that commits; search shows the new photo at
 * once. A failed transaction removes the new files again.
 */
export async function uploadPhoto(
  deps: PhotoDeps,
  input: { carId: string; view: ImageView; bytes: Buffer; ops: OpsContext },
): Promise<CarPhoto> {
  const { db, storage } = deps;
  const { ops, view } = input;
  const car = await carInScope(db, input.carId, ops);
  const resized = await resizePhoto(input.bytes);
  const version = randomBytes(6).toString('hex');
  const keys = keysOf(car.vin, view, version);
  await Promise.all(resized.files.map((f, i) => storage.put(keys[i]!, f.bytes, 'image/webp')));
  const total = resized.files.reduce((n, f) => n + f.bytes.length, 0);
  const row = {
    vehicle_id: car.id,
    view,
    version,
    image_url: carPhotoPath(car.vin, view, version, PHOTO_DEFAULT_WIDTH),
    width: resized.width,
    height: resized.height,
    bytes: total,
    uploaded_by: ops.staff.id,
    created_at: ops.now,
  };
  try {
    await transact(db, async (trx) => {
      const before = await repo.photoForUpdate(trx, car.id, view);
      await repo.savePhoto(trx, row);
      await ops.audit(trx, {
        target: { type: 'car', id: car.vin },
        locationId: String(car.location_id),
        before: before ? { view, version: before.version, imageUrl: before.image_url } : null,
        after: { view, version, imageUrl: row.image_url, width: row.width, height: row.height },
      });
      await afterCommit(trx, async () => {
        deps.searchIndex.markFleetStale();
        if (before) await storage.remove(keysOf(car.vin, view, before.version)).catch(() => undefined);
      });
    });
  } catch (err) {
    await storage.remove(keys).catch(() => undefined);
    throw err;
  }
  return toPhoto(car.vin, { ...row, created_at: ops.now });
}

/** Removes a car's photo of a view: the model's drawing shows again. A 404 when there is none. */
export async function removePhoto(
  deps: PhotoDeps,
  input: { carId: string; view: ImageView; ops: OpsContext },
): Promise<{ vin: string; view: ImageView; removed: true }> {
  const { db, storage } = deps;
  const { ops, view } = input;
  const car = await carInScope(db, input.carId, ops);
  await transact(db, async (trx) => {
    const before = await repo.photoForUpdate(trx, car.id, view);
    if (!before) throw notFound(`Car ${car.vin} has no uploaded ${view} photo.`, 'view');
    await repo.deletePhoto(trx, car.id, view);
    await ops.audit(trx, {
      target: { type: 'car', id: car.vin },
      locationId: String(car.location_id),
      before: { view, version: before.version, imageUrl: before.image_url },
      after: null,
    });
    await afterCommit(trx, async () => {
      deps.searchIndex.markFleetStale();
      await storage.remove(keysOf(car.vin, view, before.version)).catch(() => undefined);
    });
  });
  return { vin: car.vin, view, removed: true };
}

const PHOTO_FILE = /^([a-z_]+)-([0-9a-f]{12})-(\d{3,4})\.webp$/;

/** A stored photo file's bytes for /media/cars/<VIN>/<file>, or null. */
export async function photoFile(storage: PhotoStorage, vin: string, file: string): Promise<Buffer | null> {
  if (!/^[A-Z0-9]{1,17}$/.test(vin) || !PHOTO_FILE.test(file)) return null;
  return storage.get(`cars/${vin}/${file}`);
}
