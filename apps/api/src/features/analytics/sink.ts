import type { Kysely } from 'kysely';
import { destinationProperties, isConversionEvent } from '@ampere/domain/analytics';
import type { Database } from '../../db/schema.ts';
import { type AnalyticsEvent, insertEvents } from './repository.ts';

/**
 * Where analytics events go. Every event is stored in the analytics_events table; conversions
 * (spec 7: payment_completed, in dollars) also go to a second destination.
 */
export interface AnalyticsSink {
  record(events: AnalyticsEvent[]): Promise<void>;
}

export interface SinkLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The second destination: sends without being waited on, so it never slows or fails a renter's request. */
export interface ConversionsDestination {
  send(events: AnalyticsEvent[]): void;
}

/** Posts conversions as JSON to a collector (a marketing pipe, a warehouse's endpoint); a failure is logged. */
export function webhookConversions(url: string, log: SinkLog, timeoutMs = 5_000): ConversionsDestination {
  return {
    send(events) {
      const body = JSON.stringify({
        events: events.map((e) => ({
          name: e.name,
          user_id: e.userId,
          anonymous_id: e.anonymousId,
          properties: e.properties,
          occurred_at: e.occurredAt.toISOString(),
        })),
      });
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      }).then(
        async (res) => {
          await res.body?.cancel();
          if (!res.ok)
            log.warn({ status: res.status, events: events.length }, 'the conversions collector refused events');
        },
        (err: unknown) => log.warn({ err, events: events.length }, 'could not reach the conversions collector'),
      );
    },
  };
}

/** Without a collector configured: one log line per conversion, value in dollars. */
export function logConversions(log: SinkLog): ConversionsDestination {
  return {
    send(events) {
      for (const e of events)
        log.info({ conversion: e.name, userId: e.userId, properties: e.properties }, 'conversion');
    },
  };
}

/** The sink the app uses (decorated as `app.analytics`). */
export function createAnalyticsSink(db: Kysely<Database>, conversions: ConversionsDestination): AnalyticsSink {
  return {
    async record(events) {
      const recorded = events.map((e) => ({ ...e, properties: destinationProperties(e.name, e.properties) }));
      await insertEvents(db, recorded);
      const converted = recorded.filter((e) => isConversionEvent(e.name));
      if (converted.length > 0) conversions.send(converted);
    },
  };
}
