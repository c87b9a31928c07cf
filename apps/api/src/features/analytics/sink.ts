import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type AnalyticsEvent, insertEvents } from './repository.ts';

/**
 * Where analytics events go. The database is the default; an outside destination (a product
 * analytics service, a warehouse pipe) is another implementation of this, or a fan-out over several.
 */
export interface AnalyticsSink {
  record(events: AnalyticsEvent[]): Promise<void>;
}

/** The default sink: the analytics_events table. */
export function databaseSink(db: Kysely<Database>): AnalyticsSink {
  return { record: (events) => insertEvents(db, events) };
}

/** The sink the app uses; one place to add a destination later. */
export function createAnalyticsSink(db: Kysely<Database>): AnalyticsSink {
  return databaseSink(db);
}
