import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { TRIP_NOT_FOUND_MESSAGE, type Reservation } from '@ampere/domain/contract/booking';
import type { CarState, KeyPageResult } from '@ampere/domain/contract/verification';
import { OPEN_TRIP_STATUSES } from '@ampere/domain/booking';
import type { ReservationStatus } from '@ampere/domain/constants';
import {
  KEY_REFUSAL_MESSAGES,
  type KeyAction,
  type KeyStatus,
  type Outstanding,
  isKeyTripStatus,
  keyRefusal,
  keyWindow,
  outstandingForKey,
} from '@ampere/domain/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import * as reservations from '../trips/repository.ts';
import { hadKey, hashOf, keyToken, liveKey } from './repository.ts';
import { type EventLog, recordServerEvent } from '../analytics/service.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import { reservationById } from '../trips/serializer.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface KeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  access: VehicleAccess;
  log?: { warn(obj: object, msg: string): void } & EventLog;
  /** Records paid_and_verified when a trip first has everything its key needs. */
  analytics?: AnalyticsSink;
}

/** What each outstanding step asks of the renter, when a key is refused for it. */
export const OUTSTANDING_MESSAGES: Record<Outstanding, string> = {
  payment: 'Pay for this trip first.',
  license: "Verify your driver's license first.",
  insurance: 'Connect your insurance first.',
  deposit: 'The security deposit is not held yet.',
};

/** What is still outstanding before this trip may have a key (spec 4 rules, domain/verification.ts). */
async function outstanding(
  db: Db,
  trip: {
    id: string;
    user_id: string | null;
    status: ReservationStatus;
    pickup_at: Date;
    return_at: Date;
    timezone: string;
  },
): Promise<Outstanding[]> {
  const [transactions, user, insurance] = await Promise.all([
    reservations.transactionsFor(db, [trip.id]),
    trip.user_id
      ? db
          .selectFrom('users')
          .select(['license_number', 'license_expiration', 'license_status'])
          .where('id', '=', trip.user_id)
          .executeTakeFirst()
      : undefined,
    reservations.insuranceVerificationsFor(db, [trip]),
  ]);
  return outstandingForKey({
    reservation: {
      status: trip.status,
      pickup_at: trip.pickup_at,
      return_at: trip.return_at,
      timezone: trip.timezone,
      transactions,
    },
    user: user ?? null,
    insurance,
  });
}

async function insertKey(
  trx: Transaction<Database>,
  trip: { id: string; pickup_at: Date; return_at: Date },
  now: Date,
): Promise<void> {
  const id = randomUUID();
  const secret = await reservations.digitalKeySecret(trx);
  const window = keyWindow(trip);
  await trx
    .insertInto('digital_keys')
    .values({
      id,
      reservation_id: trip.id,
      token_hash: hashOf(keyToken(secret, id)),
      status: 'active',
      valid_from: window.from,
      valid_until: window.until,
      created_at: now,
      updated_at: now,
      revoked_at: null,
    })
    .execute();
}

/**
 * Gives the trip a key when the rules allow it (paid, license and insurance verified, deposit held)
 * and it has none live. Idempotent: the trip's row is locked, and at most one live key per trip is
 * also a database constraint. True when a key was issued.
 *
 * The trip's first key is the moment it is both paid and fully verified: spec 7's paid_and_verified
 * is recorded then, after commit, once per trip (decision 033), whichever step came last.
 */
export async function issueKeyIfReady(
  deps: Pick<KeyDeps, 'db' | 'clock' | 'analytics' | 'log'>,
  reservationId: string,
): Promise<boolean> {
  const issued = await transact(deps.db, async (trx) => {
    const trip = await trx
      .selectFrom('reservations')
      .select(['id', 'platform_id', 'user_id', 'status', 'pickup_at', 'return_at', 'timezone'])
      .where('id', '=', reservationId)
      .forUpdate()
      .executeTakeFirst();
    if (!trip || !isKeyTripStatus(trip.status)) return null;
    if (await liveKey(trx, trip.id)) return null;
    if ((await outstanding(trx, trip)).length > 0) return null;
    const first = !(await hadKey(trx, trip.id));
    await insertKey(trx, trip, deps.clock());
    return { first, userId: trip.user_id, platformId: trip.platform_id };
  });
  if (!issued) return false;
  if (issued.first && deps.analytics) {
    await recordServerEvent(deps.analytics, deps.log, {
      name: 'paid_and_verified',
      userId: issued.userId,
      properties: { platform_id: issued.platformId },
      now: deps.clock(),
    });
  }
  return true;
}

/** After a license or insurance decision: every upcoming or running trip of the renter that can now have a key gets one. */
export async function issueKeysOfRenter(
  deps: Pick<KeyDeps, 'db' | 'clock' | 'analytics' | 'log'>,
  userId: string,
): Promise<number> {
  const trips = await deps.db
    .selectFrom('reservations')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_TRIP_STATUSES)
    .execute();
  let issued = 0;
  for (const t of trips) if (await issueKeyIfReady(deps, t.id)) issued++;
  return issued;
}

/** A cancelled or ended trip's key stops working (issue 11's cancel and end call this in their transaction). */
export async function revokeKeysOfReservation(
  trx: Transaction<Database>,
  reservationId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('digital_keys')
    .set({ status: 'revoked', revoked_at: now, updated_at: now })
    .where('reservation_id', '=', reservationId)
    .where('status', '!=', 'revoked')
    .execute();
}

/** The trip's dates changed (decision 027): its live key opens the car for the new window. */
export async function moveKeyWindow(
  trx: Transaction<Database>,
  trip: { id: string; pickup_at: Date; return_at: Date },
  now: Date,
): Promise<void> {
  const window = keyWindow(trip);
  await trx
    .updateTable('digital_keys')
    .set({ valid_from: window.from, valid_until: window.until, updated_at: now })
    .where('reservation_id', '=', trip.id)
    .where('status', '!=', 'revoked')
    .execute();
}

/**
 * POST /api/v1/reservations/{id}/key: the renter pauses, resumes, replaces or revokes the trip's
 * key. A new key is given only when the rules allow one; an action that does not apply to the key
 * as it is (pausing a paused key) is a 409 saying why.
 */
export async function keyAction(
  deps: Pick<KeyDeps, 'db' | 'clock'>,
  userId: string,
  platformId: string,
  action: KeyAction,
): Promise<{ reservation: Reservation }> {
  const reservationId = await transact(deps.db, async (trx) => {
    const trip = await reservations.findReservation(trx, userId, platformId, { lock: true });
    if (!trip) throw notFound(TRIP_NOT_FOUND_MESSAGE, 'platform_id');
    const now = deps.clock();
    const key = await liveKey(trx, trip.id);
    const set = (status: KeyStatus) =>
      trx
        .updateTable('digital_keys')
        .set({ status, updated_at: now, ...(status === 'revoked' ? { revoked_at: now } : {}) })
        .where('id', '=', key!.id)
        .execute();
    switch (action) {
      case 'PAUSE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to pause.', 'action');
        if (key.status === 'paused') throw new AppError('CONFLICT', 'The key is already paused.', 'action');
        await set('paused');
        break;
      case 'UNPAUSE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to resume.', 'action');
        if (key.status === 'active') throw new AppError('CONFLICT', 'The key is not paused.', 'action');
        await set('active');
        break;
      case 'REVOKE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to revoke.', 'action');
        await set('revoked');
        break;
      case 'CREATE_NEW_KEY': {
        if (!isKeyTripStatus(trip.status))
          throw new AppError('CONFLICT', 'Only an upcoming or current trip can have a key.', 'action');
        const missing = await outstanding(trx, trip);
        if (missing.length > 0) throw new AppError('CONFLICT', OUTSTANDING_MESSAGES[missing[0]!], 'action');
        if (key) await set('revoked');
        await insertKey(trx, trip, now);
        break;
      }
    }
    return trip.id;
  });
  return { reservation: await reservationById(deps.db, reservationId, deps.clock()) };
}

const NO_SUCH_KEY = 'This key does not exist.';

async function findByToken(db: Db, token: string) {
  const row = await db
    .selectFrom('digital_keys as k')
    .innerJoin('reservations as r', 'r.id', 'k.reservation_id')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select([
      'k.id',
      'k.status',
      'k.valid_from',
      'k.valid_until',
      'r.platform_id',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'v.id as vehicle_id',
      'v.vin',
      'v.year',
      'v.color',
      'v.odometer',
      'v.model_id',
      'm.name as model_name',
      'l.name as location_name',
      'l.street',
      'l.city',
      'l.state',
      'l.zip_code',
      'l.timezone as location_timezone',
    ])
    .where('k.token_hash', '=', hashOf(token))
    .executeTakeFirst();
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
  const image = await deps.db
    .selectFrom('model_images')
    .select('image_url')
    .where('model_id', '=', k.model_id)
    .where('color', '=', k.color)
    .where('view', '=', 'MONEYSHOT')
    .executeTakeFirst();
  return {
    key: { status: k.status, valid_from: k.valid_from.toISOString(), valid_until: k.valid_until.toISOString() },
    refusal,
    message: refusal ? KEY_REFUSAL_MESSAGES[refusal] : null,
    platform_id: k.platform_id,
    pickup_at: k.pickup_at.toISOString(),
    return_at: k.return_at.toISOString(),
    timezone: k.timezone,
    vehicle: { vin: k.vin, year: k.year, color: k.color, model: k.model_name, image_url: image?.image_url ?? null },
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
 * why; every command is recorded with how it ended.
 */
export async function carCommand(deps: KeyDeps, token: string, command: 'lock' | 'unlock'): Promise<{ car: CarState }> {
  const k = await findByToken(deps.db, token);
  const now = deps.clock();
  const refusal = keyRefusal({ status: k.status, valid_from: k.valid_from, valid_until: k.valid_until }, now);
  const record = (result: string) =>
    deps.db
      .insertInto('car_commands')
      .values({ key_id: k.id, vehicle_id: k.vehicle_id, command, result, created_at: now })
      .execute();
  if (refusal) {
    await record(`refused:${refusal}`);
    throw new AppError('CONFLICT', KEY_REFUSAL_MESSAGES[refusal], 'token');
  }
  try {
    const state = await deps.access.command(car(k), command);
    await record('ok');
    return { car: state };
  } catch (err) {
    if (!(err instanceof CarUnreachableError)) throw err;
    await record('unreachable');
    deps.log?.warn({ err, keyId: k.id }, 'keys: the car did not take a command');
    throw new AppError('UNAVAILABLE', 'The car is not answering right now. Try again in a minute.', undefined, {
      retryAfterSeconds: 30,
    });
  }
}
