import type { Kysely } from 'kysely';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { Clock } from '../../clock.ts';
import type { MessageRecorder } from '../messages/record.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { closeReservation } from './cancel.ts';
import * as repo from './repository.ts';
import * as lifecycle from './status-repository.ts';

export interface ExpireDeps {
  db: Kysely<Database>;
  clock: Clock;
  searchIndex?: { markStale(): void };
  cancelRetired: (userId: string) => Promise<void>;
  /** Tells the renter's open pages their trip changed (REFRESH). */
  publish?: (userId: string) => Promise<void>;
  /** The renter's trip messages (a lapsed hold that had been charged is refunded, and told). */
  messages?: MessageRecorder;
}

/** How many lapsed holds one run releases at most; the next run takes the rest. */
const BATCH = 100;

/**
 * The job 'expire-unpaid-holds' (decision 025): an unpaid (Started) booking older than
 * UNPAID_HOLD_MINUTES on the server's clock lapses — the car is released for others and its open
 * charge retired. Each hold is closed in its own transaction, re-checked under its row lock (a
 * payment confirming it at that moment wins). Safe to run twice at once: the second finds nothing.
 * Returns the ids released.
 */
export async function expireUnpaidHolds(deps: ExpireDeps): Promise<string[]> {
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  const due = await lifecycle.unpaidHoldsCreatedBefore(deps.db, cutoff, BATCH);
  const released: { id: string; userId: string | null }[] = [];
  for (const id of due) {
    const userId = await transact(deps.db, async (trx) => {
      const row = await repo.findReservationById(trx, id, { lock: true });
      if (!row || row.status !== 'Started' || row.created_at.getTime() > cutoff.getTime()) return undefined;
      await closeReservation(trx, row.id, now, 'hold_expired', deps.messages);
      return row.user_id;
    });
    if (userId !== undefined) released.push({ id, userId });
  }
  if (released.length > 0) deps.searchIndex?.markStale();
  for (const userId of new Set(released.map((r) => r.userId).filter((u): u is string => u !== null))) {
    await deps.cancelRetired(userId);
    await deps.publish?.(userId);
  }
  return released.map((r) => r.id);
}
