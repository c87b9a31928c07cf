import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  DamageBody,
  Inspection,
  InspectionCompare,
  InspectionPhoto,
  InspectionResult,
  RenterInspections,
} from '@ampere/domain/contract/ops-inspections';
import {
  DAMAGE_CLOSEUPS_MAX,
  INSPECTION_STAGES,
  INSPECTION_STAGE_LABELS,
  INSPECTION_STAGE_MOMENTS,
  INSPECTION_VIEWS,
  type InspectionStage,
  type InspectionView,
  RENTER_PHOTOS_MAX,
  type WindowTrip,
  inspectionPhotoPath,
  missingViews,
  missingViewsMessage,
  nextRenterWindow,
  openRenterWindow,
} from '@ampere/domain/inspections';
import { PHOTO_WIDTHS } from '@ampere/domain/photos';
import { formatInstantInZone } from '@ampere/domain/format';
import type { Clock } from '../../clock.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { resizePhoto } from '../photos/images.ts';
import type { PhotoStorage } from '../photos/storage.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import { hashOf } from '../keys/repository.ts';
import * as repo from './repository.ts';

export interface InspectionDeps {
  db: Kysely<Database>;
  storage: PhotoStorage;
  access: VehicleAccess;
  clock: Clock;
}

const conflict = (message: string, field?: string) => new AppError('CONFLICT', message, field);

const keysOf = (inspectionId: string, photoId: string) =>
  PHOTO_WIDTHS.map((w) => `inspections/${inspectionId}/${photoId}-${w}.webp`);

function toPhoto(p: repo.PhotoRow): InspectionPhoto {
  const renterName = [p.first_name, p.last_name].filter(Boolean).join(' ');
  return {
    id: p.id,
    view: p.view,
    damageId: p.damage_id,
    takenBy: p.taken_by,
    takenByName: p.taken_by === 'staff' ? p.staff_name : renterName || null,
    takenAt: p.taken_at.toISOString(),
    reading: { batteryLevel: p.battery_level, odometerMiles: p.odometer_miles },
    url: inspectionPhotoPath(p.inspection_id, p.id, 960),
    thumbUrl: inspectionPhotoPath(p.inspection_id, p.id, 480),
    srcset: PHOTO_WIDTHS.map((w) => `${inspectionPhotoPath(p.inspection_id, p.id, w)} ${w}w`).join(', '),
    width: p.width,
    height: p.height,
  };
}

function toInspection(row: repo.InspectionRow, photos: repo.PhotoRow[], damage: repo.DamageRow[]): Inspection {
  const mine = photos.filter((p) => p.inspection_id === row.id);
  const guided = mine.filter((p) => p.view !== null);
  const byView = new Map(guided.map((p) => [p.view, p] as const));
  return {
    id: row.id,
    stage: row.stage,
    startedAt: row.started_at.toISOString(),
    startedBy: row.started_by_name,
    completedAt: row.completed_at?.toISOString() ?? null,
    completedBy: row.completed_by_name,
    views: INSPECTION_VIEWS.flatMap((v) => (byView.has(v) ? [toPhoto(byView.get(v)!)] : [])),
    missingViews: missingViews(guided),
    damage: damage
      .filter((d) => d.inspection_id === row.id)
      .map((d) => ({
        id: d.id,
        x: d.x,
        y: d.y,
        view: d.view,
        severity: d.severity,
        note: d.note,
        createdAt: d.created_at.toISOString(),
        closeups: mine.filter((p) => p.damage_id === d.id).map(toPhoto),
      })),
    renterPhotos: mine.filter((p) => p.taken_by === 'renter').map(toPhoto),
  };
}

/** Every inspection of a trip, with its photos and damage marks, by stage. */
async function inspectionsOfTrip(db: Kysely<Database>, tripId: string): Promise<Map<InspectionStage, Inspection>> {
  const rows = await repo.inspectionsOf(db, tripId);
  const ids = rows.map((r) => r.id);
  const [photos, damage] = await Promise.all([repo.photosOf(db, ids), repo.damageOf(db, ids)]);
  return new Map(rows.map((r) => [r.stage, toInspection(r, photos, damage)] as const));
}

const tripWords = (t: repo.TripRow) => ({
  tripId: t.id,
  reference: t.platform_id,
  status: t.status,
  pickupAt: t.pickup_at.toISOString(),
  returnAt: t.return_at.toISOString(),
  timezone: t.timezone,
  car: { vin: t.vin, model: t.model_name, year: t.year, color: t.color },
});

/** The trip a console path names, in the staff member's locations (pickup or return); else a 404. */
async function tripInScope(db: Kysely<Database>, tripId: string, ops: OpsContext): Promise<repo.TripRow> {
  const trip = await repo.findTrip(db, tripId);
  const missing = `No trip ${tripId} in your locations.`;
  if (!trip) throw notFound(missing, 'tripId');
  if (!ops.inScope(String(trip.pickup_location_id)) && !ops.inScope(String(trip.dropoff_location_id)))
    ops.requireInScope(String(trip.pickup_location_id), missing);
  return trip;
}

/** Staff record inspections of paid trips only: a cancelled or unpaid trip has no car to hand over. */
function requireInspectable(trip: repo.TripRow): void {
  if (trip.status === 'Canceled')
    throw conflict(`Trip ${trip.platform_id} was cancelled: there is nothing to inspect.`);
  if (trip.status === 'Started')
    throw conflict(`Trip ${trip.platform_id} is not paid yet: inspect the car once the trip is paid.`);
}

/** The car's reading now, or null when it does not answer: the photo is kept without one. */
async function readCar(access: VehicleAccess, trip: repo.TripRow) {
  try {
    const state = await access.state({ id: trip.vehicle_id, vin: trip.vin, odometer: trip.odometer });
    return { battery_level: state.battery_level, odometer_miles: state.odometer_miles };
  } catch (err) {
    if (err instanceof CarUnreachableError) return { battery_level: null, odometer_miles: null };
    throw err;
  }
}

const target = (trip: repo.TripRow) => ({ type: 'trip', id: trip.platform_id });

async function result(db: Kysely<Database>, trip: repo.TripRow, stage: InspectionStage): Promise<InspectionResult> {
  const all = await inspectionsOfTrip(db, trip.id);
  return { trip: tripWords(trip), stage, inspection: all.get(stage) ?? null };
}

/** GET /trips/:tripId/inspections/:stage: the trip and its inspection at that stage (null until started). */
export async function getInspection(deps: InspectionDeps, tripId: string, stage: InspectionStage, ops: OpsContext) {
  const trip = await tripInScope(deps.db, tripId, ops);
  return result(deps.db, trip, stage);
}

/** The inspection, started now unless it was already, locked; a completed one refuses changes. */
async function openInspection(
  trx: Kysely<Database>,
  trip: repo.TripRow,
  stage: InspectionStage,
  ops: OpsContext,
): Promise<{ id: string; created: boolean }> {
  const row = await repo.ensureInspection(trx, {
    reservation_id: trip.id,
    stage,
    started_by: ops.staff.id,
    started_at: ops.now,
  });
  requireOpen(trip, stage, row.completed_at);
  return row;
}

/** A completed inspection is the record both sides rely on: staff cannot change it any more. */
function requireOpen(trip: repo.TripRow, stage: InspectionStage, completedAt: Date | null): void {
  if (completedAt)
    throw conflict(
      `The ${INSPECTION_STAGE_LABELS[stage].toLowerCase()} of trip ${trip.platform_id} is completed: it can no longer be changed.`,
    );
}

/** POST /trips/:tripId/inspections/:stage: starts the inspection (starting it again changes nothing). */
export async function startInspection(deps: InspectionDeps, tripId: string, stage: InspectionStage, ops: OpsContext) {
  const trip = await tripInScope(deps.db, tripId, ops);
  requireInspectable(trip);
  await transact(deps.db, async (trx) => {
    const row = await repo.ensureInspection(trx, {
      reservation_id: trip.id,
      stage,
      started_by: ops.staff.id,
      started_at: ops.now,
    });
    await ops.audit(trx, {
      target: target(trip),
      locationId: String(trip.pickup_location_id),
      after: { inspection: row.id, stage, started: row.created },
    });
  });
  return result(deps.db, trip, stage);
}

/**
 * Resizes and stores a photo's files before anything is written; `write` then records it in one
 * transaction (with its audit record). A refused file writes nothing; a failed transaction removes
 * the files again; files a retake replaces are removed once it commits.
 */
async function storePhoto(
  deps: InspectionDeps,
  bytes: Buffer,
  inspectionIdFor: (trx: Kysely<Database>) => Promise<string>,
  write: (
    trx: Kysely<Database>,
    photo: { id: string; inspectionId: string; width: number; height: number; bytes: number },
  ) => Promise<string[]>,
): Promise<void> {
  const resized = await resizePhoto(bytes);
  const photoId = randomUUID();
  // Files are filed under the inspection: its id is known only once the transaction has it, so
  // the files are written inside it and removed again if it rolls back.
  let written: string[] = [];
  try {
    await transact(deps.db, async (trx) => {
      const inspectionId = await inspectionIdFor(trx);
      written = keysOf(inspectionId, photoId);
      await Promise.all(resized.files.map((f, i) => deps.storage.put(written[i]!, f.bytes, 'image/webp')));
      const total = resized.files.reduce((n, f) => n + f.bytes.length, 0);
      const replaced = await write(trx, {
        id: photoId,
        inspectionId,
        width: resized.width,
        height: resized.height,
        bytes: total,
      });
      if (replaced.length)
        await afterCommit(trx, () =>
          deps.storage.remove(replaced.flatMap((id) => keysOf(inspectionId, id))).catch(() => undefined),
        );
    });
  } catch (err) {
    if (written.length) await deps.storage.remove(written).catch(() => undefined);
    throw err;
  }
}

/** POST /trips/:tripId/inspections/:stage/photos/:view: a guided view's photo, with the car's reading; a retake replaces it. */
export async function uploadViewPhoto(
  deps: InspectionDeps,
  input: { tripId: string; stage: InspectionStage; view: InspectionView; bytes: Buffer; ops: OpsContext },
): Promise<InspectionResult> {
  const { ops, stage, view } = input;
  const trip = await tripInScope(deps.db, input.tripId, ops);
  requireInspectable(trip);
  const reading = await readCar(deps.access, trip);
  await storePhoto(
    deps,
    input.bytes,
    async (trx) => (await openInspection(trx, trip, stage, ops)).id,
    async (trx, photo) => {
      const before = await repo.viewPhoto(trx, photo.inspectionId, view);
      if (before) await repo.deletePhoto(trx, before.id);
      await repo.insertPhoto(trx, {
        id: photo.id,
        inspection_id: photo.inspectionId,
        view,
        damage_id: null,
        taken_by: 'staff',
        staff_id: ops.staff.id,
        user_id: null,
        taken_at: ops.now,
        ...reading,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes,
      });
      await ops.audit(trx, {
        target: target(trip),
        locationId: String(trip.pickup_location_id),
        before: before ? { inspection: photo.inspectionId, stage, view, photo: before.id } : null,
        after: { inspection: photo.inspectionId, stage, view, photo: photo.id, reading },
      });
      return before ? [before.id] : [];
    },
  );
  return result(deps.db, trip, stage);
}

/** POST /trips/:tripId/inspections/:stage/damage: a mark on the drawing with its note. */
export async function addDamage(
  deps: InspectionDeps,
  input: { tripId: string; stage: InspectionStage; body: DamageBody; ops: OpsContext },
): Promise<InspectionResult> {
  const { ops, stage, body } = input;
  const trip = await tripInScope(deps.db, input.tripId, ops);
  requireInspectable(trip);
  await transact(deps.db, async (trx) => {
    const inspection = await openInspection(trx, trip, stage, ops);
    const { id } = await repo.insertDamage(trx, {
      inspection_id: inspection.id,
      ...body,
      created_by: ops.staff.id,
      created_at: ops.now,
    });
    await ops.audit(trx, {
      target: target(trip),
      locationId: String(trip.pickup_location_id),
      after: { inspection: inspection.id, stage, damage: id, ...body },
    });
  });
  return result(deps.db, trip, stage);
}

/** The damage mark a path names, on the inspection, or a 404. */
async function damageOn(trx: Kysely<Database>, inspectionId: string, damageId: string) {
  const mark = await repo.findDamage(trx, inspectionId, damageId);
  if (!mark) throw notFound(`No damage mark ${damageId} on this inspection.`, 'damageId');
  return mark;
}

/** POST /trips/:tripId/inspections/:stage/damage/:damageId/photos: a close-up of a mark. */
export async function addCloseup(
  deps: InspectionDeps,
  input: { tripId: string; stage: InspectionStage; damageId: string; bytes: Buffer; ops: OpsContext },
): Promise<InspectionResult> {
  const { ops, stage, damageId } = input;
  const trip = await tripInScope(deps.db, input.tripId, ops);
  requireInspectable(trip);
  const reading = await readCar(deps.access, trip);
  await storePhoto(
    deps,
    input.bytes,
    async (trx) => {
      const inspection = await repo.inspectionForUpdate(trx, trip.id, stage);
      if (!inspection) throw notFound(`No damage mark ${damageId} on this inspection.`, 'damageId');
      await damageOn(trx, inspection.id, damageId);
      requireOpen(trip, stage, inspection.completed_at);
      return inspection.id;
    },
    async (trx, photo) => {
      if ((await repo.closeupIds(trx, damageId)).length >= DAMAGE_CLOSEUPS_MAX)
        throw new AppError('UNPROCESSABLE', `A damage mark takes at most ${DAMAGE_CLOSEUPS_MAX} close-ups.`, 'body');
      await repo.insertPhoto(trx, {
        id: photo.id,
        inspection_id: photo.inspectionId,
        view: null,
        damage_id: damageId,
        taken_by: 'staff',
        staff_id: ops.staff.id,
        user_id: null,
        taken_at: ops.now,
        ...reading,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes,
      });
      await ops.audit(trx, {
        target: target(trip),
        locationId: String(trip.pickup_location_id),
        after: { inspection: photo.inspectionId, stage, damage: damageId, closeup: photo.id },
      });
      return [];
    },
  );
  return result(deps.db, trip, stage);
}

/** DELETE /trips/:tripId/inspections/:stage/damage/:damageId: a mark made by mistake, with its close-ups. */
export async function removeDamage(
  deps: InspectionDeps,
  input: { tripId: string; stage: InspectionStage; damageId: string; ops: OpsContext },
): Promise<{ id: string; removed: true }> {
  const { ops, stage, damageId } = input;
  const trip = await tripInScope(deps.db, input.tripId, ops);
  await transact(deps.db, async (trx) => {
    const inspection = await repo.inspectionForUpdate(trx, trip.id, stage);
    if (!inspection) throw notFound(`No damage mark ${damageId} on this inspection.`, 'damageId');
    const mark = await damageOn(trx, inspection.id, damageId);
    requireOpen(trip, stage, inspection.completed_at);
    const closeups = await repo.closeupIds(trx, damageId);
    await repo.deleteDamage(trx, damageId);
    await ops.audit(trx, {
      target: target(trip),
      locationId: String(trip.pickup_location_id),
      before: { inspection: inspection.id, stage, damage: damageId, ...mark, closeups: closeups.map((c) => c.id) },
      after: null,
    });
    await afterCommit(trx, () =>
      deps.storage.remove(closeups.flatMap((c) => keysOf(inspection.id, c.id))).catch(() => undefined),
    );
  });
  return { id: damageId, removed: true };
}

/** POST /trips/:tripId/inspections/:stage/complete: once all eight views are photographed (422 naming what is missing). */
export async function completeInspection(
  deps: InspectionDeps,
  tripId: string,
  stage: InspectionStage,
  ops: OpsContext,
): Promise<InspectionResult> {
  const trip = await tripInScope(deps.db, tripId, ops);
  requireInspectable(trip);
  await transact(deps.db, async (trx) => {
    const inspection = await repo.inspectionForUpdate(trx, trip.id, stage);
    if (!inspection) throw new AppError('UNPROCESSABLE', missingViewsMessage([...INSPECTION_VIEWS]), 'stage');
    requireOpen(trip, stage, inspection.completed_at);
    const photos = await repo.photosOf(trx, [inspection.id]);
    const missing = missingViews(photos.filter((p) => p.taken_by === 'staff'));
    if (missing.length) throw new AppError('UNPROCESSABLE', missingViewsMessage(missing), 'stage');
    await repo.completeInspection(trx, inspection.id, ops.staff.id, ops.now);
    await ops.audit(trx, {
      target: target(trip),
      locationId: String(trip.pickup_location_id),
      after: { inspection: inspection.id, stage, completed: true, photos: photos.length },
    });
  });
  return result(deps.db, trip, stage);
}

/** GET /trips/:tripId/inspections/compare: check-out beside check-in, view by view, with both sides' marks. */
export async function compareInspections(
  deps: InspectionDeps,
  tripId: string,
  ops: OpsContext,
): Promise<InspectionCompare> {
  const trip = await tripInScope(deps.db, tripId, ops);
  const all = await inspectionsOfTrip(deps.db, trip.id);
  const checkOut = all.get('check_out') ?? null;
  const checkIn = all.get('check_in') ?? null;
  const photoOf = (i: Inspection | null, v: InspectionView) => i?.views.find((p) => p.view === v) ?? null;
  return {
    trip: tripWords(trip),
    checkOut,
    checkIn,
    views: INSPECTION_VIEWS.map((view) => ({
      view,
      checkOut: photoOf(checkOut, view),
      checkIn: photoOf(checkIn, view),
    })),
  };
}

// The renter's side: their own trip (by its reference, signed in) or the trip their key opens.

const windowTrip = (t: repo.TripRow): WindowTrip => ({
  status: t.status,
  pickupAt: t.pickup_at,
  returnAt: t.return_at,
  pickedUpAt: t.vehicle_pickup_at,
  returnedAt: t.returned_at,
});

const TRIP_NOT_FOUND = 'No trip with that id.';

export async function ownTrip(db: Kysely<Database>, userId: string, platformId: string): Promise<repo.TripRow> {
  const trip = await repo.findOwnTrip(db, userId, platformId);
  if (!trip) throw notFound(TRIP_NOT_FOUND, 'id');
  return trip;
}

/** The trip a digital key's token opens; an unknown token is a 404, as on the key page. */
export async function keyTrip(db: Kysely<Database>, token: string): Promise<repo.TripRow> {
  const trip = await repo.findTripByKeyHash(db, hashOf(token));
  if (!trip) throw notFound('This key does not exist.', 'token');
  return trip;
}

/** What the renter sees of their trip's inspections: the window to add photos, and every photo in the record. */
export async function renterInspections(deps: InspectionDeps, trip: repo.TripRow): Promise<RenterInspections> {
  const now = deps.clock();
  const all = await inspectionsOfTrip(deps.db, trip.id);
  const open = openRenterWindow(windowTrip(trip), now);
  const next = open ? null : nextRenterWindow(windowTrip(trip), now);
  const added = open ? (all.get(open.stage)?.renterPhotos.length ?? 0) : 0;
  return {
    open: open ? { stage: open.stage, closesAt: open.closesAt.toISOString() } : null,
    next: next ? { stage: next.stage, opensAt: next.opensAt.toISOString() } : null,
    timezone: trip.timezone,
    photosLeft: open ? Math.max(0, RENTER_PHOTOS_MAX - added) : 0,
    stages: INSPECTION_STAGES.flatMap((stage) => {
      const i = all.get(stage);
      if (!i) return [];
      return [
        {
          stage,
          photos: [...i.views, ...i.damage.flatMap((d) => d.closeups), ...i.renterPhotos],
          damage: i.damage.map(({ closeups: _closeups, ...d }) => d),
        },
      ];
    }),
  };
}

/**
 * The renter adds a photo to their trip's inspection, within the window (decision 090): merged into
 * the same record as staff's, marked as theirs, with the car's reading. Outside the window a 409
 * says when it opens or that it has closed.
 */
export async function addRenterPhoto(
  deps: InspectionDeps,
  trip: repo.TripRow,
  userId: string | null,
  bytes: Buffer,
): Promise<RenterInspections> {
  const now = deps.clock();
  const open = openRenterWindow(windowTrip(trip), now);
  if (!open) {
    const next = nextRenterWindow(windowTrip(trip), now);
    throw conflict(
      next
        ? `You can add photos ${INSPECTION_STAGE_MOMENTS[next.stage]} from ${formatInstantInZone(next.opensAt.toISOString(), trip.timezone)}.`
        : 'The time to add photos to this trip has passed. If something is wrong with the car, call us.',
      'body',
    );
  }
  const reading = await readCar(deps.access, trip);
  await storePhoto(
    deps,
    bytes,
    async (trx) =>
      (
        await repo.ensureInspection(trx, {
          reservation_id: trip.id,
          stage: open.stage,
          started_by: null,
          started_at: now,
        })
      ).id,
    async (trx, photo) => {
      if ((await repo.renterPhotoCount(trx, photo.inspectionId)) >= RENTER_PHOTOS_MAX)
        throw new AppError(
          'UNPROCESSABLE',
          `You have added ${RENTER_PHOTOS_MAX} photos ${open.stage === 'check_out' ? 'at pickup' : 'at return'}, the most we take.`,
          'body',
        );
      await repo.insertPhoto(trx, {
        id: photo.id,
        inspection_id: photo.inspectionId,
        view: null,
        damage_id: null,
        taken_by: 'renter',
        staff_id: null,
        user_id: userId ?? trip.user_id,
        taken_at: now,
        ...reading,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes,
      });
      return [];
    },
  );
  return renterInspections(deps, trip);
}

const FILE = /^([0-9a-f-]{36})-(\d{3,4})\.webp$/;

/** An inspection photo's file for /media/inspections/<inspection>/<file>, or null. */
export async function inspectionPhotoFile(storage: PhotoStorage, inspectionId: string, file: string) {
  if (!/^[0-9a-f-]{36}$/.test(inspectionId) || !FILE.test(file)) return null;
  return storage.get(`inspections/${inspectionId}/${file}`);
}
