import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { PAYMENT_COLUMNS, type PaymentRow } from '../payments/repository.ts';

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
 * `wasReceived`, and our payment for the provider's intent `intentId` (undefined when it is not one
 * of ours), read in one statement.
 */
export async function receivedWithPayment(
  db: Kysely<Database>,
  provider: string,
  eventId: string,
  intentId: string,
): Promise<{ received: boolean; payment: PaymentRow | undefined }> {
  const rows = await db
    .selectFrom(
      db
        .selectNoFrom((eb) =>
          eb
            .exists(
              eb
                .selectFrom('webhook_events')
                .select('event_id')
                .where('provider', '=', provider)
                .where('event_id', '=', eventId),
            )
            .as('received'),
        )
        .as('e'),
    )
    .leftJoin('payments', (join) => join.on('payments.provider_intent_id', '=', intentId))
    .select('e.received')
    .select(PAYMENT_COLUMNS.map((c) => `payments.${c}` as const))
    .execute();
  const row = rows[0]!;
  const isPayment = (r: typeof row): r is typeof row & PaymentRow => r.id !== null;
  if (!isPayment(row)) return { received: Boolean(row.received), payment: undefined };
  const { received, ...payment } = row;
  return { received: Boolean(received), payment };
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
