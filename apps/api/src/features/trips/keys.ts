import type { Kysely, Transaction } from 'kysely';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { ReservationStatus } from '@ampere/domain/constants';
import { type KeyAction, type Outstanding, isKeyTripStatus, outstandingForKey } from '@ampere/domain/verification';
import { STAFF_PAUSE_MESSAGE, liveKeyOf, renterMayLiftPause } from '@ampere/domain/car-actions';
import type { Clock } from '../../clock.ts';
import type { MessageRecorder } from '../messages/record.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { type EventLog, recordServerEvent } from '../analytics/service.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import * as keys from '../keys/repository.ts';
import { OUTSTANDING_MESSAGES, issueKey } from '../keys/service.ts';
import { type KeyInputs, keyCheckOf, keyInputsOf } from './key-check-repository.ts';
import * as repo from './repository.ts';
import { TRIP_NOT_FOUND, reservationById } from './serializer.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface KeyIssueDeps {
  db: Kysely<Database>;
  clock: Clock;
  log?: EventLog;
  /** Records paid_and_verified when a trip first has everything its key needs. */
  analytics?: AnalyticsSink;
  /** The renter's trip messages: a trip's first key is told as it is issued (decision 070). */
  messages?: MessageRecorder;
}

/** The domain rule (spec 4) over the trip and the inputs one statement read for it. */
function outstandingOf(
  trip: { status: ReservationStatus; pickup_at: Date; return_at: Date; timezone: string },
  { transactions, license, insurance }: KeyInputs,
): Outstanding[] {
  return outstandingForKey({
    reservation: {
      status: trip.status,
      pickup_at: trip.pickup_at,
      return_at: trip.return_at,
      timezone: trip.timezone,
      transactions,
    },
    user: license,
    insurance,
  });
}

/**
 * What is still outstanding before this trip may have a key (spec 4 rules, domain/verification.ts).
 * Its line items, the renter's license and the insurance connections are read in one statement.
 */
export async function outstanding(
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
  return outstandingOf(trip, await keyInputsOf(db, trip));
}

/**
 * Whether the trip may have a key now, read in one statement: an upcoming or running trip with no
 * live key and nothing outstanding. Undefined for an unknown trip.
 */
async function keyCheck(db: Db, reservationId: string) {
  const found = await keyCheckOf(db, reservationId);
  if (!found) return undefined;
  const { trip, hasLiveKey, hadKey, inputs } = found;
  const ready = isKeyTripStatus(trip.status) && !hasLiveKey && outstandingOf(trip, inputs).length === 0;
  return { trip, ready, first: !hadKey };
}

/**
 * Gives the trip a key when the rules allow it (paid, license and insurance verified, deposit held)
 * and it has none live. Idempotent: the trip's row is locked, and at most one live key per trip is
 * also a database constraint. True when a key was issued.
 *
 * Most calls find the trip not ready (a renter who has not verified yet) or keyed already: one
 * statement, without a transaction, says so. The steps that can make a trip ready (a payment, a
 * license or insurance decision) run this after their commit, so the reading of the last of them
 * sees what each wrote, as a read under the lock would. Only a trip that reads ready takes
 * its row's lock and reads again under it (a key another call issued meanwhile is then seen: the
 * statement after the lock reads what committed before it), then issues the key.
 *
 * The trip's first key is the moment it is both paid and fully verified: spec 7's paid_and_verified
 * is recorded then, after commit, once per trip (decision 033), whichever step came last.
 */
export async function issueKeyIfReady(deps: KeyIssueDeps, reservationId: string): Promise<boolean> {
  if (!(await keyCheck(deps.db, reservationId))?.ready) return false;
  const issued = await transact(deps.db, async (trx) => {
    if (!(await repo.findReservationById(trx, reservationId, { lock: true }))) return null;
    const check = await keyCheck(trx, reservationId);
    if (!check?.ready) return null;
    const { trip, first } = check;
    const now = deps.clock();
    await issueKey(trx, trip, now);
    if (first) await deps.messages?.record(trx, trip.id, now, { kind: 'key_ready' });
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
export async function issueKeysOfRenter(deps: KeyIssueDeps, userId: string): Promise<number> {
  let issued = 0;
  for (const id of await repo.openTripIdsOf(deps.db, userId)) if (await issueKeyIfReady(deps, id)) issued++;
  return issued;
}

/**
 * POST /api/v1/reservations/{id}/key: the renter pauses, resumes, replaces or revokes the trip's
 * key. A new key is given only when the rules allow one; an action that does not apply to the key
 * as it is (pausing a paused key) is a 409 saying why.
 */
export async function keyAction(
  deps: Pick<KeyIssueDeps, 'db' | 'clock'>,
  userId: string,
  platformId: string,
  action: KeyAction,
): Promise<{ reservation: Reservation }> {
  const reservationId = await transact(deps.db, async (trx) => {
    const trip = await repo.findReservation(trx, userId, platformId, { lock: true });
    if (!trip) throw notFound(TRIP_NOT_FOUND, 'platform_id');
    const now = deps.clock();
    const key = await keys.liveKey(trx, trip.id);
    switch (action) {
      case 'PAUSE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to pause.', 'action');
        if (key.status === 'paused') throw new AppError('CONFLICT', 'The key is already paused.', 'action');
        await keys.setKeyStatus(trx, key.id, 'paused', now, 'renter');
        break;
      case 'UNPAUSE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to resume.', 'action');
        if (key.status === 'active') throw new AppError('CONFLICT', 'The key is not paused.', 'action');
        if (!renterMayLiftPause(liveKeyOf(key))) throw new AppError('CONFLICT', STAFF_PAUSE_MESSAGE, 'action');
        await keys.setKeyStatus(trx, key.id, 'active', now);
        break;
      case 'REVOKE_KEY':
        if (!key) throw new AppError('CONFLICT', 'This trip has no key to revoke.', 'action');
        await keys.setKeyStatus(trx, key.id, 'revoked', now);
        break;
      case 'CREATE_NEW_KEY': {
        if (!isKeyTripStatus(trip.status))
          throw new AppError('CONFLICT', 'Only an upcoming or current trip can have a key.', 'action');
        const missing = await outstanding(trx, trip);
        if (missing.length > 0) throw new AppError('CONFLICT', OUTSTANDING_MESSAGES[missing[0]!], 'action');
        if (key && !renterMayLiftPause(liveKeyOf(key))) throw new AppError('CONFLICT', STAFF_PAUSE_MESSAGE, 'action');
        if (key) await keys.setKeyStatus(trx, key.id, 'revoked', now);
        await issueKey(trx, trip, now);
        break;
      }
    }
    return trip.id;
  });
  return { reservation: await reservationById(deps.db, reservationId, deps.clock()) };
}
