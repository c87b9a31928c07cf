import type { AnalyticsEventName } from '@ampere/domain/account';
import type { AnalyticsBatchBody } from '@ampere/domain/contract/account';
import type { z } from 'zod';
import type { AnalyticsSink } from './sink.ts';

/** Records a batch from the browser, for the signed-in renter when there is one, else anonymously. */
export async function recordBatch(
  sink: AnalyticsSink,
  batch: z.output<typeof AnalyticsBatchBody>,
  userId: string | null,
  now: Date,
): Promise<{ accepted: number }> {
  const anonymousId = batch.anonymous_id ?? null;
  await sink.record(
    batch.events.map((e) => ({
      name: e.name,
      userId,
      anonymousId,
      properties: e.properties,
      occurredAt: e.occurred_at ? new Date(e.occurred_at) : now,
      receivedAt: now,
    })),
  );
  return { accepted: batch.events.length };
}

/** Where a lost server-side event is reported (a Fastify logger will do). */
export interface EventLog {
  error(obj: object, msg: string): void;
}

/**
 * An event the server itself observes (a code sent, a sign-in completed, a license approved, a
 * policy connected, a trip paid and verified). Losing one of these must never fail the renter's
 * request, so a failing sink is logged with the event and not rethrown.
 */
export async function recordServerEvent(
  sink: AnalyticsSink,
  log: EventLog | undefined,
  event: { name: AnalyticsEventName; userId: string | null; properties?: Record<string, unknown>; now: Date },
): Promise<void> {
  try {
    await sink.record([
      {
        name: event.name,
        userId: event.userId,
        anonymousId: null,
        properties: event.properties ?? {},
        occurredAt: event.now,
        receivedAt: event.now,
      },
    ]);
  } catch (err) {
    log?.error({ err, event: event.name, userId: event.userId }, 'could not record a server-side analytics event');
  }
}
