import fp from 'fastify-plugin';
import { SESSION_TTL_MINUTES } from '@ampere/domain/account';
import type { Deps } from '../deps.ts';
import { pruneSocketSessions } from '../features/realtime/repository.ts';
import { sendDueMessages } from '../features/messages/deliver.ts';
import { finishCardCharges, finishStaffRefunds } from '../features/money/service.ts';
import { tripJobs } from '../features/trips/jobs.ts';
import { pruneIdempotencyKeys } from '../http/idempotency.ts';
import { pruneRateLimitWindows } from '../http/rate-limit-repository.ts';
import { type Job, JobRunner } from '../jobs/queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background jobs (started with the app when JOBS=in-process). */
    jobs: JobRunner;
  }
}

/** The job that delivers the built-in providers' webhooks: each minute, and when woken by a new event. */
const DELIVER_WEBHOOKS = 'deliver-webhooks';
/** The job that sends trip messages: each minute (messages wait for their time: quiet hours, retries). */
export const SEND_TRIP_MESSAGES = 'send-trip-messages';

/**
 * Background work (decision 025): the trips feature's jobs, the webhook deliveries and the
 * housekeeping, run in this process unless a separate worker runs them. Registered last: it
 * gathers the outboxes the provider plugins added.
 */
export const jobsPlugin = fp<Deps>(
  async (app, deps) => {
    const delivered = deps.config.sandbox.deliverWebhooks ? app.webhookOutboxes : [];
    // A job that changed a renter's trip tells their open pages to reload it.
    const refresh = (userId: string) => app.realtime.publish(userId, 'REFRESH');
    const jobs: Job[] = [
      {
        name: DELIVER_WEBHOOKS,
        cron: '* * * * *',
        run: async () => {
          for (const outbox of delivered) await outbox.deliverDuePass();
        },
      },
      ...tripJobs(app.trips, refresh),
      // Staff refunds the provider never answered, finished once (decision 093).
      {
        name: 'finish-staff-refunds',
        cron: '*/5 * * * *',
        run: async () => void (await finishStaffRefunds(app.trips.jobDeps.payments)),
      },
      // Card charges after the trip cut off between their payment row and the provider, finished once (decision 091).
      {
        name: 'finish-card-charges',
        cron: '*/5 * * * *',
        run: async () => void (await finishCardCharges(app.trips.jobDeps.payments)),
      },
      // The renter's texts and emails that are due, each sent once (decision 070).
      {
        name: SEND_TRIP_MESSAGES,
        cron: '* * * * *',
        run: () => sendDueMessages({ db: deps.db, clock: deps.clock, sms: app.sms, email: app.email, log: app.log }),
      },
      {
        name: 'prune-idempotency-keys',
        cron: '17 * * * *',
        run: () => pruneIdempotencyKeys(deps.db, deps.clock()),
      },
      // Request-limit windows that have ended (decision 038).
      {
        name: 'prune-rate-limit-windows',
        cron: '*/10 * * * *',
        run: () => pruneRateLimitWindows(deps.db, deps.clock()),
      },
      // Which session signed a socket matters only while sessions last (a day); decision 039.
      {
        name: 'prune-socket-sessions',
        cron: '41 * * * *',
        run: () => pruneSocketSessions(deps.db, new Date(deps.clock().getTime() - SESSION_TTL_MINUTES * 60_000)),
      },
    ];
    const runner = new JobRunner(deps.db, jobs, app.log);
    // A new event (or a retry falling due) asks the queue for a delivery pass that soon.
    for (const outbox of delivered) outbox.deliverAutomatically((delayMs) => runner.wake(DELIVER_WEBHOOKS, delayMs));
    // A trip message just recorded goes out in a few seconds, once its event has committed; the schedule catches any other.
    app.messages.onRecorded(() => runner.wake(SEND_TRIP_MESSAGES, 2_000));
    if (deps.config.jobs === 'in-process') {
      app.addHook('onReady', async () => {
        await runner.start();
        // Events written before this start (a restart, another process) go out now, not at the next minute.
        if (delivered.length > 0) runner.wake(DELIVER_WEBHOOKS, 0);
      });
      app.addHook('onClose', () => runner.stop());
    }
    app.decorate('jobs', runner);
  },
  { name: 'jobs', dependencies: ['trips', 'realtime', 'webhook-outboxes', 'messages'] },
);
