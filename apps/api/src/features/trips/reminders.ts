import type { Kysely } from 'kysely';
import { HOLD_WARNING_MINUTES, PICKUP_REMINDER_HOURS, holdLapsesAt } from '@ampere/domain/messages';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { MessageRecorder } from '../messages/record.ts';
import * as messages from '../messages/repository.ts';
import { outstanding } from './keys.ts';
import * as repo from './repository.ts';

export interface ReminderDeps {
  db: Kysely<Database>;
  clock: Clock;
  messages: MessageRecorder;
}

const BATCH = 100;

/**
 * The job 'scan-trip-reminders' (decision 070): the messages the clock causes, found by a scan
 * each minute. A confirmed trip whose pickup is PICKUP_REMINDER_HOURS away gets its day-before
 * message (instructions, and what is still to verify) — unless it was booked inside that day, when
 * its confirmation already said it all; an unpaid hold HOLD_WARNING_MINUTES from lapsing gets its
 * warning. Each is recorded with its trip locked and its key unique, so two runners scanning at
 * once record one message; the send job sends it. Returns how many trips got a message.
 */
export async function recordTimedMessages(deps: ReminderDeps): Promise<number> {
  const now = deps.clock();
  let recorded = 0;
  const reminderUntil = new Date(now.getTime() + PICKUP_REMINDER_HOURS * 3_600_000);
  for (const { id } of await messages.tripsNeedingPickupReminder(deps.db, now, reminderUntil, BATCH)) {
    const n = await transact(deps.db, async (trx) => {
      const trip = await repo.findReservationById(trx, id, { lock: true });
      if (!trip || trip.status !== 'Pending') return 0;
      const todo = await outstanding(trx, trip);
      return deps.messages.record(trx, id, now, { kind: 'pickup_tomorrow', outstanding: todo });
    });
    if (n > 0) recorded++;
  }
  // Holds made between UNPAID_HOLD_MINUTES and (UNPAID_HOLD_MINUTES - HOLD_WARNING_MINUTES) ago lapse within the warning.
  const lapsedBefore = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  const warnFrom = new Date(now.getTime() - (UNPAID_HOLD_MINUTES - HOLD_WARNING_MINUTES) * 60_000);
  for (const { id } of await messages.holdsNeedingWarning(deps.db, lapsedBefore, warnFrom, BATCH)) {
    const n = await transact(deps.db, async (trx) => {
      const trip = await repo.findReservationById(trx, id, { lock: true });
      if (!trip || trip.status !== 'Started') return 0;
      return deps.messages.record(trx, id, now, { kind: 'hold_lapsing', lapsesAt: holdLapsesAt(trip.created_at) });
    });
    if (n > 0) recorded++;
  }
  return recorded;
}
