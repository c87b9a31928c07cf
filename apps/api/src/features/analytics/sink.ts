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

/**
 * Where analytics events go. The database is the default; an outside destination (a product
 * analytics service, a warehouse pipe) is another implementation of this, or a fan-out over several.
 */
export interface AnalyticsSink {
  record(events: AnalyticsEvent[]): Promise<void>;
}

/**
 * The default sink: one multi-row insert into analytics_events. This file is the analytics
 * feature's only SQL, playing the part a repository plays elsewhere.
 */
export function databaseSink(db: Kysely<Database>): AnalyticsSink {
  return {
    async record(events) {
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
    },
  };
}

/** The sink the app uses; one place to add a destination later. */
export function createAnalyticsSink(db: Kysely<Database>): AnalyticsSink {
  return databaseSink(db);
}
