import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { SandboxWebhookDeliverer, injectSender } from '../payments/sandbox-deliverer.ts';
import { deliveryDelayMs, newId } from '../payments/sandbox-events.ts';

/**
 * A built-in provider twin's outgoing webhooks (decision 020). The twin writes each event with
 * `enqueue` inside the transaction that changes its state, so an event is never lost nor sent for
 * a change that rolled back; after commit, `nudge` asks for prompt delivery. A deliverer posts the
 * events to the twin's webhook endpoint on this server (in-process, no network), signed with
 * Stripe's scheme (`t=…,v1=…` HMAC-SHA256) under the twin's secret, retried with backoff until
 * accepted: at least once, possibly out of order, as real providers deliver. A twin whose real
 * provider signs differently (e.g. Veriff's X-HMAC-SIGNATURE) passes its own `sign`.
 */
export class TwinOutbox {
  private deliverer: SandboxWebhookDeliverer | undefined;

  constructor(
    readonly db: Kysely<Database>,
    readonly twin: string,
    readonly secret: string,
  ) {}

  /**
   * Appends one event: `payload` is the whole JSON body the twin's webhook receives, as the real
   * provider shapes it (put an event id in it if that provider does). Returns the outbox row's id.
   */
  async enqueue(
    trx: Transaction<Database>,
    now: Date,
    type: string,
    payload: Record<string, unknown>,
  ): Promise<string> {
    const id = newId('evt');
    await trx
      .insertInto('twin_events')
      .values({
        id,
        twin: this.twin,
        type,
        payload: JSON.stringify(payload),
        created_at: now,
        delivered_at: null,
        next_attempt_at: new Date(Date.now() + deliveryDelayMs()),
        last_error: null,
      })
      .execute();
    return id;
  }

  /** Events were committed: deliver them soon. */
  nudge(): void {
    this.deliverer?.nudge(deliveryDelayMs());
  }

  /** Delivers every undelivered event now, in order (tests and tools); how many were accepted. */
  deliverPendingEvents(): Promise<number> {
    if (!this.deliverer) throw new Error(`No webhook deliverer is connected to the ${this.twin} twin`);
    return this.deliverer.deliverPendingEvents();
  }

  /**
   * Connects delivery to this app's endpoint `url`, the signature in header `signatureHeader`; the
   * app's job queue drives it when delivery is automatic (SANDBOX_WEBHOOKS=on), otherwise nothing
   * is sent until deliverPendingEvents().
   */
  connect(
    app: FastifyInstance,
    clock: Clock,
    opts: { url: string; signatureHeader: string; sign?: (body: string, timestampSeconds: number) => string },
  ): SandboxWebhookDeliverer {
    const send = injectSender(app, opts.url, opts.signatureHeader);
    const deliverer = new SandboxWebhookDeliverer(this.db, send, this.secret, clock, {
      log: app.log,
      outbox: { table: 'twin_events', twin: this.twin },
      sign: opts.sign,
    });
    this.deliverer = deliverer;
    return deliverer;
  }
}
