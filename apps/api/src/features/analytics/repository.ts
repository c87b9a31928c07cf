import type { Kysely } from 'kysely';
import type { AnalyticsEventName } from '@ampere/domain/account';
import type { Database } from '../../db/schema.ts';

/** One event as the server keeps it: who (a renter, or an anonymous visitor), what, and when. */
export interface AnalyticsEvent {
  name: AnalyticsEventName;
  userId: string | null;
  anonymousId: string | null;
  properties: Record<string, unknown>;
  occurredAt: Date;
  receivedAt: Date;
}

/** Stores events in one multi-row insert. */
export async function insertEvents(db: Kysely<Database>, events: AnalyticsEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('analytics_events')
    .values(
      events.map((e) => ({
        name: e.name,
        user_id: e.userId,
        anonymous_id: e.anonymousId,
        properties: JSON.stringify(e.properties),
        occurred_at: e.occurredAt,
        received_at: e.receivedAt,
      })),
    )
    .execute();
}
