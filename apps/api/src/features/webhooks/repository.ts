import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Whether this provider event was already received and applied. */
export async function wasReceived(db: Kysely<Database>, provider: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_events')
    .select('event_id')
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records the event inside the transaction that applies it; false when it is already recorded (a
 * concurrent delivery of the same event waits here for the first to commit, then sees it).
 */
export async function recordEvent(
  trx: Kysely<Database> | Transaction<Database>,
  event: { provider: string; eventId: string; type: string; objectId: string | null; payload: unknown },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('webhook_events')
    .values({
      provider: event.provider,
      event_id: event.eventId,
      type: event.type,
      object_id: event.objectId,
      payload: JSON.stringify(event.payload),
      received_at: now,
      processed_at: now,
    })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
