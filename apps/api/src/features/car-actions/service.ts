import type { Kysely, Transaction } from 'kysely';
import {
  type CarCommand,
  STAFF_KEY_ACTION,
  STAFF_OUTSTANDING_MESSAGES,
  type StaffKeyVerb,
  liveKeyOf,
  staffCarCommandRefusal,
  staffKeyRefusal,
} from '@ampere/domain/car-actions';
import type { CarReading, KeyAndCar } from '@ampere/domain/contract/ops-car';
import { distanceMiles } from '@ampere/domain/vehicle';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { issueKey, liveKeyOfTrip, setKeyStatus } from '../keys/service.ts';
import type { MessageRecorder } from '../messages/record.ts';
import { noteExists, openUnlockNote, resolveNote, tripNotes } from '../support-notes/service.ts';
import { outstanding } from '../trips/keys.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import { type CarTripRow, tripForCar } from './repository.ts';

export interface CarActionDeps {
  db: Kysely<Database>;
  clock: Clock;
  access: VehicleAccess;
  /** The renter's trip messages: a replaced key is told at once (decision 096). */
  messages?: MessageRecorder;
  /** Tells the renter's open pages to read the trip again (best effort, never throws). */
  refresh?: (userId: string) => Promise<void>;
}

type Db = Kysely<Database> | Transaction<Database>;

/** A provider's sentence, to be quoted inside one of ours: without its closing full stop. */
const words = (message: string) => message.replace(/\.+$/, '');

/** How long staff are asked to wait before trying a car that did not answer again. */
const RETRY_SECONDS = 30;

/**
 * The trip, if it is one of the staff member's locations' (its pickup or its return place, as the
 * timeline decides); another location's trip is a 404, as if it did not exist (decision 080).
 */
async function scopedTrip(db: Db, tripId: string, ops: OpsContext, lock = false): Promise<CarTripRow> {
  const trip = await tripForCar(db, tripId, { lock });
  const missing = `No trip ${tripId} in your locations.`;
  if (!trip) throw notFound(missing, 'tripId');
  if (!ops.inScope(String(trip.pickup_location_id)) && !ops.inScope(String(trip.dropoff_location_id)))
    ops.requireInScope(String(trip.pickup_location_id), missing);
  return trip;
}

const carRef = (t: CarTripRow) => ({ id: t.vehicle_id, vin: t.vin, odometer: t.odometer });
const target = (t: CarTripRow) => ({ type: 'trip', id: t.id });
const where = (t: CarTripRow) => String(t.pickup_location_id);

/** The car's reading, or null and what to tell staff when it does not answer. */
async function readCar(
  deps: CarActionDeps,
  trip: CarTripRow,
): Promise<{ car: CarReading | null; carMessage: string | null }> {
  try {
    const [state, at] = await Promise.all([deps.access.state(carRef(trip)), deps.access.position(carRef(trip))]);
    return {
      car: {
        locked: state.locked,
        odometerMiles: state.odometer_miles,
        batteryPercent: Math.round(state.battery_level * 1000) / 10,
        latitude: at.latitude,
        longitude: at.longitude,
        milesFromLot:
          Math.round(
            distanceMiles(at, { latitude: Number(trip.lot_latitude), longitude: Number(trip.lot_longitude) }) * 10,
          ) / 10,
        readAt: state.updated_at,
      },
      carMessage: null,
    };
  } catch (err) {
    if (!(err instanceof CarUnreachableError)) throw err;
    return {
      car: null,
      carMessage: `The car is not answering right now: ${words(err.message)}. Refresh in a minute; if it stays silent, check the car at the lot.`,
    };
  }
}

/** Everything the console's key and car panel shows, read now. */
async function keyAndCar(deps: CarActionDeps, trip: CarTripRow): Promise<KeyAndCar> {
  const [row, reading, notes] = await Promise.all([
    liveKeyOfTrip(deps.db, trip.id),
    readCar(deps, trip),
    tripNotes(deps.db, trip.id),
  ]);
  const key = liveKeyOf(row);
  return {
    trip: { tripId: trip.id, reference: trip.platform_id, status: trip.status, timezone: trip.location_timezone },
    key:
      row && key
        ? {
            status: key.status,
            pausedBy: key.pausedBy,
            validFrom: row.valid_from.toISOString(),
            validUntil: row.valid_until.toISOString(),
            issuedAt: row.created_at.toISOString(),
          }
        : null,
    ...reading,
    notes,
  };
}

/** GET /trips/:tripId/key-car: the trip's key, its car's reading (lock, odometer, battery, position) and support notes. */
export async function readKeyAndCar(deps: CarActionDeps, tripId: string, ops: OpsContext): Promise<KeyAndCar> {
  const trip = await scopedTrip(deps.db, tripId, ops);
  const result = await keyAndCar(deps, trip);
  // Where a car on rent is, is where its renter is: the read is audited like the timeline.
  await ops.audit(deps.db, {
    target: target(trip),
    locationId: where(trip),
    after: { car: result.car ? 'read' : 'not answering' },
  });
  return result;
}

const DONE: Record<StaffKeyVerb, string> = {
  pause: 'Key paused by staff',
  resume: 'Key resumed by staff',
  revoke: 'Key revoked by staff',
  replace: 'Key replaced by staff',
};

/**
 * POST /trips/:tripId/key/:verb: pause, resume, revoke or replace the trip's key, in one
 * transaction with its audit record. A pause by the desk is the desk's to lift; a replacement
 * revokes the live key (its link stops working), issues another and tells the renter.
 */
export async function staffKeyAction(
  deps: CarActionDeps,
  tripId: string,
  verb: StaffKeyVerb,
  ops: OpsContext,
): Promise<KeyAndCar> {
  const trip = await transact(deps.db, async (trx) => {
    const t = await scopedTrip(trx, tripId, ops, true);
    const now = deps.clock();
    const row = await liveKeyOfTrip(trx, t.id);
    const key = liveKeyOf(row);
    const refusal = staffKeyRefusal(verb, t, key);
    if (refusal) throw new AppError('CONFLICT', refusal, 'verb');
    switch (verb) {
      case 'pause':
        await setKeyStatus(trx, row!.id, 'paused', now, 'staff');
        break;
      case 'resume':
        await setKeyStatus(trx, row!.id, 'active', now);
        break;
      case 'revoke':
        await setKeyStatus(trx, row!.id, 'revoked', now);
        break;
      case 'replace': {
        const missing = await outstanding(trx, t);
        if (missing.length > 0) throw new AppError('CONFLICT', STAFF_OUTSTANDING_MESSAGES[missing[0]!], 'verb');
        if (row) await setKeyStatus(trx, row.id, 'revoked', now);
        await issueKey(trx, t, now);
        // Every replacement is told: the dedupe key is this replacement's, not the trip's.
        await deps.messages?.record(
          trx,
          t.id,
          now,
          { kind: 'key_replaced' },
          `${t.id}:key_replaced:${now.toISOString()}`,
        );
        break;
      }
    }
    await ops.audit(trx, {
      target: target(t),
      locationId: where(t),
      before: { key: key ?? null },
      after: { action: STAFF_KEY_ACTION[verb], summary: DONE[verb] },
    });
    return t;
  });
  // The renter's trip page shows the key's state: it reads it again now, not at its next load.
  if (trip.user_id) await deps.refresh?.(trip.user_id);
  return keyAndCar(deps, trip);
}

/**
 * POST /trips/:tripId/car/:command: lock or unlock the trip's car. A car that does not answer is a
 * 503 saying so (audited as a failure by the door); a failed unlock also opens a support note on
 * the trip, written before the error so that it stays.
 */
export async function staffCarCommand(
  deps: CarActionDeps,
  tripId: string,
  command: CarCommand,
  ops: OpsContext,
): Promise<KeyAndCar> {
  const trip = await scopedTrip(deps.db, tripId, ops);
  const refusal = staffCarCommandRefusal(command, trip);
  if (refusal) throw new AppError('CONFLICT', refusal, 'command');
  let locked: boolean;
  try {
    locked = (await deps.access.command(carRef(trip), command)).locked;
  } catch (err) {
    if (!(err instanceof CarUnreachableError)) throw err;
    if (command === 'unlock')
      await openUnlockNote(deps.db, {
        reservationId: trip.id,
        source: 'staff',
        staffId: ops.staff.id,
        error: err.message,
        now: deps.clock(),
      });
    throw new AppError(
      'UNAVAILABLE',
      `The car did not ${command}: ${words(err.message)}. ${command === 'unlock' ? 'A support note is open on the trip. ' : ''}Try again in a minute.`,
      'command',
      { retryAfterSeconds: RETRY_SECONDS },
    );
  }
  await ops.audit(deps.db, {
    target: target(trip),
    locationId: where(trip),
    after: { command, locked, summary: command === 'lock' ? 'Car locked by staff' : 'Car unlocked by staff' },
  });
  return keyAndCar(deps, trip);
}

/** POST /trips/:tripId/notes/:noteId/resolve: close an open support note of the trip. */
export async function closeSupportNote(
  deps: CarActionDeps,
  tripId: string,
  noteId: string,
  ops: OpsContext,
): Promise<KeyAndCar> {
  const trip = await transact(deps.db, async (trx) => {
    const t = await scopedTrip(trx, tripId, ops);
    const closed = await resolveNote(trx, t.id, noteId, ops.staff.id, deps.clock());
    if (!closed) {
      if (await noteExists(trx, t.id, noteId)) throw new AppError('CONFLICT', 'This note is closed already.', 'noteId');
      throw notFound(`No support note ${noteId} on this trip.`, 'noteId');
    }
    await ops.audit(trx, {
      target: target(t),
      locationId: where(t),
      after: { note: noteId, summary: `Support note closed: ${closed.title}` },
    });
    return t;
  });
  return keyAndCar(deps, trip);
}
