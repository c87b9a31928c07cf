import type { Kysely, Transaction } from 'kysely';
import { isSoftCreditCheckPassed } from '@ampere/domain/booking';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { notFound, signedOut, unprocessable } from '../../http/errors.ts';
import * as repo from './repository.ts';
import { TRIP_NOT_FOUND, getReservationForRenter, reservationsOfRenter } from './serializer.ts';

type Trx = Transaction<Database>;

/** GET /api/v1/reservations/:id: one of the renter's trips; another renter's or an unknown id is a 404. */
export function getReservation(
  deps: { db: Kysely<Database>; clock: Clock },
  userId: string,
  platformId: string,
): Promise<Reservation> {
  return getReservationForRenter(deps.db, userId, platformId, deps.clock());
}

const byTime = (key: 'pickup_at' | 'return_at', dir: 1 | -1) => (a: Reservation, b: Reservation) =>
  dir * (Date.parse(a[key]) - Date.parse(b[key]));

/**
 * GET /api/v1/reservations: the renter's trips by section. Upcoming holds Pending and also
 * Started (booked, not yet paid: the renter should find and finish them), soonest first; active
 * (On Rent) by return; past (Returned) and canceled most recent first.
 */
export async function listReservations({ db, clock }: { db: Kysely<Database>; clock: Clock }, userId: string) {
  const all = await reservationsOfRenter(db, userId, clock());
  const pick = (...statuses: string[]) => all.filter((r) => statuses.includes(r.status));
  return {
    upcoming: pick('Started', 'Pending').sort(byTime('pickup_at', 1)),
    active: pick('On Rent').sort(byTime('return_at', 1)),
    past: pick('Returned').sort(byTime('return_at', -1)),
    canceled: pick('Canceled').sort(byTime('pickup_at', -1)),
  };
}

/**
 * The renter's reservation locked for the rest of the transaction; another renter's or an unknown
 * id is a 404. Everything that changes a reservation's money takes this lock first, so changes to
 * one reservation (add-ons, discount, fee, payment) are applied one at a time.
 */
export async function lockOwnReservation(trx: Trx, userId: string, platformId: string): Promise<repo.ReservationRow> {
  const row = await repo.findReservation(trx, userId, platformId, { lock: true });
  if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  return row;
}

/**
 * POST /api/v1/reservations/eligibility-check: the built-in soft credit check (decision 012),
 * run once per reservation; later calls answer what the first decided. The trip and the renter's
 * name are read together, and the answer is stored only where none is (so no lock is held between
 * the two): of two checks at once, the one that finds an answer stored answers that one.
 */
export async function checkEligibility(
  deps: { db: Kysely<Database>; clock: Clock },
  userId: string,
  platformId: string,
): Promise<{ is_eligible: boolean }> {
  const row = await repo.findEligibilityFacts(deps.db, userId, platformId);
  if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  if (row.eligibility_checked_at !== null && row.is_eligible !== null) return { is_eligible: row.is_eligible };
  // A session outliving its account: treat it as signed out.
  if (row.renter_id === null) throw signedOut();
  if (!row.first_name?.trim() || !row.last_name?.trim())
    throw unprocessable('Add your first and last name to your profile before the credit check.', 'last_name');
  const isEligible = isSoftCreditCheckPassed(row);
  const recorded = await repo.recordEligibilityIfNone(deps.db, row.id, isEligible, deps.clock());
  if (recorded !== undefined) return { is_eligible: recorded };
  // Another check stored its answer first: that one stands.
  const first = await repo.findEligibilityFacts(deps.db, userId, platformId);
  if (!first || first.is_eligible === null) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  return { is_eligible: first.is_eligible };
}
