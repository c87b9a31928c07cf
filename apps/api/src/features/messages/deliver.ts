import type { Kysely } from 'kysely';
import { stillApplies } from '@ampere/domain/messages';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { SmsSender } from '../auth/sms-sender.ts';
import { type EmailSender, MessageRefused } from './email-sender.ts';
import * as repo from './repository.ts';

export interface DeliverDeps {
  db: Kysely<Database>;
  clock: Clock;
  sms: SmsSender;
  email: EmailSender;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** A message is tried this many times, then given up and kept as failed with its last error. */
export const MAX_ATTEMPTS = 8;
/** How long one runner holds a claimed message before another may take it (a runner that stopped mid-send). */
const CLAIM_MS = 5 * 60_000;
const BATCH = 50;

/** The wait before attempt `attempts + 1`: 1, 2, 4, … minutes, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/** Whether a sender's failure is the address's own (retrying cannot help). */
function isPermanent(err: unknown): boolean {
  if (err instanceof MessageRefused) return err.permanent;
  // The SMS senders throw AppErrors: a number that cannot take texts is the renter's to fix; UNAVAILABLE is ours.
  if (err instanceof AppError) return err.code !== 'UNAVAILABLE';
  return false;
}

/**
 * The job 'send-trip-messages' (decision 070): sends the messages that are due, each once. A batch
 * is claimed in one short transaction (no lock is held while a provider is called), so two runners,
 * in one process or two, never take the same message. A sent message is marked sent; a failure is
 * tried again later (retryDelayMs) until MAX_ATTEMPTS, and a refusal of the address itself is given
 * up at once; both keep the error. One that no longer applies to its trip (a reminder for a trip
 * since cancelled) is skipped. Returns how many were sent.
 */
export async function sendDueMessages(deps: DeliverDeps): Promise<number> {
  let sent = 0;
  for (;;) {
    const batch = await repo.claimDue(deps.db, deps.clock(), CLAIM_MS, BATCH);
    for (const m of batch) {
      if (!stillApplies(m.kind, m.trip_status)) {
        await repo.markSkipped(deps.db, m.id);
        continue;
      }
      try {
        if (m.channel === 'sms') await deps.sms.send(m.to_address, m.body);
        else await deps.email.send({ to: m.to_address, subject: m.subject ?? '', text: m.body });
        await repo.markSent(deps.db, m.id, deps.clock());
        sent++;
      } catch (err) {
        const giveUp = isPermanent(err) || m.attempts >= MAX_ATTEMPTS;
        const retryAt = giveUp ? null : new Date(deps.clock().getTime() + retryDelayMs(m.attempts));
        const error = err instanceof Error ? err.message : String(err);
        await repo.markFailedAttempt(deps.db, m.id, error.slice(0, 500), retryAt);
        const log = { err, messageId: m.id, kind: m.kind, channel: m.channel, attempts: m.attempts };
        if (giveUp) deps.log?.error(log, 'a trip message could not be delivered; it is given up');
        else deps.log?.warn(log, 'a trip message could not be sent now; it is tried again later');
      }
    }
    if (batch.length < BATCH) return sent;
  }
}
