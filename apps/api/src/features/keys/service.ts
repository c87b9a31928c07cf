import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { CarState, KeyPageResult } from '@ampere/domain/contract/verification';
import { type Outstanding, keyRefusal, keyWindow } from '@ampere/domain/verification';
import { keyRefusalMessage } from '@ampere/domain/car-actions';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { openUnlockNote } from '../support-notes/service.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import * as repo from './repository.ts';

export interface KeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  access: VehicleAccess;
  log?: { warn(obj: object, msg: string): void };
}

/** What each outstanding step asks of the renter, when a key is refused for it. */
export const OUTSTANDING_MESSAGES: Record<Outstanding, string> = {
  payment: 'Pay for this trip first.',
  license: "Verify your driver's license first.",
  insurance: 'Connect your insurance first.',
  deposit: 'The security deposit is not held yet.',
};

/**
 * A new active key for the trip, inside the caller's transaction, opening the car over the trip's
 * window. Whether the trip may have one is the caller's to decide (the trips feature asks the rules).
 */
export async function issueKey(
  trx: Transaction<Database>,
  trip: { id: string; pickup_at: Date; return_at: Date },
  now: Date,
): Promise<void> {
  const id = randomUUID();
  const secret = await repo.digitalKeySecret(trx);
  const window = keyWindow(trip);
  await repo.insertKey(trx, {
    id,
    reservation_id: trip.id,
    token_hash: repo.hashOf(repo.keyToken(secret, id)),
    valid_from: window.from,
    valid_until: window.until,
    now,
  });
}

/** A cancelled or ended trip's key stops working (cancel and end call this in their transaction). */
export function revokeKeysOfReservation(trx: Transaction<Database>, reservationId: string, now: Date): Promise<void> {
  return repo.revokeKeysOf(trx, reservationId, now);
}

/** The trip's dates changed (decision 027): its live key opens the car for the new window. */
export function moveKeyWindow(
  trx: Transaction<Database>,
  trip: { id: string; pickup_at: Date; return_at: Date },
  now: Date,
): Promise<void> {
  return repo.setKeyWindow(trx, trip.id, keyWindow(trip), now);
}

const NO_SUCH_KEY = 'This key does not exist.';

async function findByToken(db: Kysely<Database>, token: string) {
  const row = await repo.findByToken(db, token);
  if (!row) throw notFound(NO_SUCH_KEY, 'token');
  return row;
}

type KeyRow = Awaited<ReturnType<typeof findByToken>>;

const car = (k: KeyRow) => ({ id: k.vehicle_id, vin: k.vin, odometer: k.odometer });

async function readCar(deps: KeyDeps, k: KeyRow): Promise<CarState> {
  try {
    return await deps.access.state(car(k));
  } catch (err) {
    if (err instanceof CarUnreachableError)
      throw new AppError('UNAVAILABLE', 'The car is not answering right now. Try again in a minute.', undefined, {
        retryAfterSeconds: 30,
      });
    throw err;
  }
}

/** GET /api/v1/keys/{token}: the key page. Public: the token is the capability; an unknown token is a 404. */
export async function keyPage(deps: KeyDeps, token: string): Promise<KeyPageResult> {
  const k = await findByToken(deps.db, token);
  const refusal = keyRefusal({ status: k.status, valid_from: k.valid_from, valid_until: k.valid_until }, deps.clock());
  const image = await repo.keyPageImage(deps.db, k.vehicle_id, k.model_id, k.color);
  return {
    key: { status: k.status, valid_from: k.valid_from.toISOString(), valid_until: k.valid_until.toISOString() },
    refusal,
    message: refusal ? keyRefusalMessage(refusal, k.paused_by) : null,
    platform_id: k.platform_id,
    pickup_at: k.pickup_at.toISOString(),
    return_at: k.return_at.toISOString(),
    timezone: k.timezone,
    vehicle: { vin: k.vin, year: k.year, color: k.color, model: k.model_name, image_url: image },
    pickup_location: {
      name: k.location_name,
      street: k.street,
      city: k.city,
      state: k.state,
      zip_code: k.zip_code,
      timezone: k.location_timezone,
    },
    car: await readCar(deps, k),
  };
}

/**
 * POST /api/v1/keys/{token}/commands: lock or unlock the car with the key. A key that cannot open
 * the car now (revoked, paused, before its window, after the return) is refused with a 409 saying
 * why; every command is recorded with how it ended, and an unlock the car did not take opens a
 * support note on the trip.
 */
export async function carCommand(deps: KeyDeps, token: string, command: 'lock' | 'unlock'): Promise<{ car: CarState }> {
  const k = await findByToken(deps.db, token);
  const now = deps.clock();
  const refusal = keyRefusal({ status: k.status, valid_from: k.valid_from, valid_until: k.valid_until }, now);
  const record = (result: string) =>
    repo.recordCarCommand(deps.db, { key_id: k.id, vehicle_id: k.vehicle_id, command, result, created_at: now });
  if (refusal) {
    await record(`refused:${refusal}`);
    throw new AppError('CONFLICT', keyRefusalMessage(refusal, k.paused_by), 'token');
  }
  try {
    const state = await deps.access.command(car(k), command);
    await record('ok');
    return { car: state };
  } catch (err) {
    if (!(err instanceof CarUnreachableError)) throw err;
    await record('unreachable');
    // A renter who cannot get into the car needs a person: the desk sees a note (one an hour).
    if (command === 'unlock')
      await openUnlockNote(deps.db, { reservationId: k.reservation_id, source: 'renter', error: err.message, now });
    deps.log?.warn({ err, keyId: k.id }, 'keys: the car did not take a command');
    throw new AppError('UNAVAILABLE', 'The car is not answering right now. Try again in a minute.', undefined, {
      retryAfterSeconds: 30,
    });
  }
}

/** The trip's live key (active or paused), if any, as its row: the console's key panel and actions read it. */
export function liveKeyOfTrip(db: Kysely<Database> | Transaction<Database>, reservationId: string) {
  return repo.liveKey(db, reservationId);
}

/** Pauses, resumes or revokes one key, inside the caller's transaction; a pause records who paused it. */
export function setKeyStatus(
  trx: Transaction<Database>,
  keyId: string,
  status: 'active' | 'paused' | 'revoked',
  now: Date,
  pausedBy: 'renter' | 'staff' | null = null,
): Promise<void> {
  return repo.setKeyStatus(trx, keyId, status, now, pausedBy);
}
