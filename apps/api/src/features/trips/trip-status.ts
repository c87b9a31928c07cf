import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import * as lifecycle from './status-repository.ts';

export interface TripStatusDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Tells the renter's open pages their trip changed (REFRESH). */
  publish?: (userId: string) => Promise<void>;
  searchIndex?: { markStale(): void };
}

/**
 * The job 'advance-trip-status' (decision 025), every minute on the server's clock: a paid trip
 * (Pending) whose pickup time has come goes On Rent; a trip On Rent whose return time has passed is
 * flagged late, once. Each is one statement guarded by the status it expects, so two runs at once
 * change each trip once. The renters whose trips changed get REFRESH.
 */
export async function advanceTripStatus(deps: TripStatusDeps): Promise<{ onRent: string[]; late: string[] }> {
  const now = deps.clock();
  const onRent = await lifecycle.startTripsDue(deps.db, now);
  const late = await lifecycle.flagLateTrips(deps.db, now);
  if (onRent.length > 0) deps.searchIndex?.markStale();
  for (const userId of new Set([...onRent, ...late].map((r) => r.user_id).filter((u): u is string => u !== null)))
    await deps.publish?.(userId);
  return { onRent: onRent.map((r) => r.id), late: late.map((r) => r.id) };
}
