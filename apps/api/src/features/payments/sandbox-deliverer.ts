import type { FastifyInstance } from 'fastify';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { signatureHeader } from './webhook-signature.ts';

/** Posts one signed event to the webhook endpoint; the HTTP status it got. */
export type WebhookSender = (body: string, signature: string) => Promise<number>;

/**
 * The endpoint is shutting down and takes nothing more: the events are given back, due at once and
 * with the attempt not counted, for the next process (or the next start) to deliver.
 */
export class EndpointClosedError extends Error {
  constructor() {
    super('The webhook endpoint is shutting down.');
  }
}

/**
 * A sender through this app's own endpoint `url` (app.inject: no network), the signature in header
 * `signatureHeader`. A closing app refuses inject; that is an EndpointClosedError, not a failed delivery.
 */
export function injectSender(
  app: { inject: FastifyInstance['inject'] },
  url: string,
  signatureHeader: string,
): WebhookSender {
  return async (body, signature) => {
    try {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', [signatureHeader]: signature },
        payload: body,
      });
      return res.statusCode;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'FST_ERR_REOPENED_CLOSE_SERVER') throw new EndpointClosedError();
      throw err;
    }
  };
}

export interface DelivererLog {
  warn(obj: object, msg: string): void;
}

export interface DelivererOptions {
  /** Give up on an event after this many failed attempts. */
  maxAttempts?: number;
  /** How long a claimed event is left alone by other deliverers while it is being sent. */
  leaseMs?: number;
  log?: DelivererLog;
  /**
   * Which outbox to deliver: the sandbox gateway's (`sandbox_events`, the default) or one built-in
   * provider twin's rows of `twin_events` (identity, insurance …), each to its own endpoint.
   */
  outbox?: { table: 'sandbox_events' } | { table: 'twin_events'; twin: string };
  /** How the provider signs a body (default: Stripe's `t=…,v1=…` scheme under the secret). */
  sign?: (body: string, timestampSeconds: number) => string;
}

/** Asks the job queue for a delivery pass in `delayMs` (decision 025: no timers of our own). */
export type WakeUp = (delayMs: number) => void;

/** Retry backoff: 1 s, 2 s, 4 s … capped at an hour, as a provider's retries slow down. */
export function retryDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Delivers the sandbox's outbox (sandbox_events) to our own webhook endpoint, as Stripe delivers
 * its events: asynchronously, signed with Stripe's scheme under SANDBOX_WEBHOOK_SECRET, retried
 * with backoff until a 2xx. Delivery is at least once: a retry after a lost answer, or two API
 * processes sharing a database, can send an event twice, and retries reorder events — the
 * receiver copes (it records each event id once and re-reads the intent).
 *
 * The passes run on the job queue (decision 025, job 'deliver-webhooks'): once a minute as a sweep,
 * and soon after each new event or when a retry falls due, through `wakeUp`. Without one (automatic
 * delivery off) nothing is sent until `deliverPendingEvents`.
 *
 * Events are claimed with one statement (`for update skip locked` pushing next_attempt_at past a
 * lease), never inside an open transaction: the delivery itself goes through the app and its
 * database, and on the embedded database a held transaction would hold the only connection.
 * Scheduling uses the wall clock; the signature's timestamp uses the app's clock, which the
 * receiver checks it against.
 */
export class SandboxWebhookDeliverer {
  private inFlight: Promise<unknown> = Promise.resolve();
  private wakeUp: WakeUp | undefined;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;
  private readonly table: ReturnType<typeof sql.table>;
  /** The outbox's rows this deliverer owns: all of sandbox_events, or one twin's rows of twin_events. */
  private readonly mine: RawBuilder<unknown>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly send: WebhookSender,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly opts: DelivererOptions = {},
  ) {
    this.maxAttempts = opts.maxAttempts ?? 16;
    this.leaseMs = opts.leaseMs ?? 30_000;
    const outbox = opts.outbox ?? { table: 'sandbox_events' };
    this.table = sql.table(outbox.table);
    this.mine = outbox.table === 'twin_events' ? sql`twin = ${outbox.twin}` : sql`true`;
  }

  /** Delivers on its own from now on: new events and due retries ask `wakeUp` for a pass. */
  deliverAutomatically(wakeUp: WakeUp): void {
    this.wakeUp = wakeUp;
  }

  /** An event was written and is due in `delayMs`. */
  nudge(delayMs: number): void {
    this.wakeUp?.(delayMs);
  }

  /**
   * Delivers every undelivered event now, in order, whatever its schedule (for tests and tools);
   * the number delivered with a 2xx answer.
   */
  deliverPendingEvents(): Promise<number> {
    return this.exclusive(() => this.deliverDue(true));
  }

  /** The job's pass: the events that are due, then a wake-up for the next one due (a retry). */
  async deliverDuePass(): Promise<number> {
    const delivered = await this.exclusive(() => this.deliverDue(false));
    await this.scheduleNextDue();
    return delivered;
  }

  /** One pass at a time in this process, so a nudge and a sweep do not send the same event together. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.inFlight.catch(() => {}).then(work);
    this.inFlight = run;
    return run;
  }

  private async scheduleNextDue(): Promise<void> {
    if (!this.wakeUp) return;
    const { rows } = await sql<{ next_attempt_at: Date }>`
      select next_attempt_at from ${this.table}
      where delivered_at is null and attempts < ${this.maxAttempts} and ${this.mine}
      order by next_attempt_at limit 1`.execute(this.db);
    const next = rows[0];
    if (next) this.wakeUp(Math.max(0, new Date(next.next_attempt_at).getTime() - Date.now()));
  }

  private async deliverDue(all: boolean): Promise<number> {
    let delivered = 0;
    // A pass sends each event at most once, even one that fails and is due again at once.
    const tried = new Set<string>();
    for (;;) {
      const batch = await this.claim(all, tried);
      if (batch.length === 0) return delivered;
      for (const event of batch) tried.add(event.id);
      // A provider sends several events at once and does not wait for one answer before the next
      // (decision 106): one at a time, a busy endpoint's answers set the pace and the outbox fell
      // minutes behind. Delivering everything now (tests, tools) keeps the outbox's order.
      let next = 0;
      const givenBack: string[] = [];
      let closed = false;
      const sender = async () => {
        for (let event = batch[next++]; event; event = batch[next++]) {
          if (closed) {
            givenBack.push(event.id);
            continue;
          }
          try {
            if (await this.deliver(event)) delivered++;
          } catch (err) {
            if (!(err instanceof EndpointClosedError)) throw err;
            closed = true;
            givenBack.push(event.id);
          }
        }
      };
      const senders = all ? 1 : Math.min(CONCURRENT_DELIVERIES, batch.length);
      await Promise.all(Array.from({ length: senders }, sender));
      if (closed) {
        // Claimed but never handed over: due again now, the claim's attempt taken back.
        await sql`
          update ${this.table} set next_attempt_at = ${new Date()}, attempts = greatest(attempts - 1, 0)
          where id in (${sql.join(givenBack)}) and delivered_at is null`.execute(this.db);
        return delivered;
      }
      if (batch.length < BATCH) return delivered;
    }
  }

  private async claim(
    all: boolean,
    tried: Set<string>,
  ): Promise<Array<{ id: string; payload: unknown; attempts: number }>> {
    const now = new Date();
    const lease = new Date(now.getTime() + this.leaseMs);
    const due = all ? sql`true` : sql`next_attempt_at <= ${now}`;
    const notTried = tried.size > 0 ? sql`id not in (${sql.join([...tried])})` : sql`true`;
    const result = await sql<{ id: string; payload: unknown; attempts: number }>`
      with claimed as (
        update ${this.table} set next_attempt_at = ${lease}, attempts = attempts + 1
        where id in (
          select id from ${this.table}
          where delivered_at is null and attempts < ${this.maxAttempts} and ${this.mine} and ${due} and ${notTried}
          order by seq limit ${BATCH}
          for update skip locked)
        returning id, payload, attempts, seq)
      select id, payload, attempts from claimed order by seq`.execute(this.db);
    return result.rows.map((r) => ({
      ...r,
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    }));
  }

  private async deliver(event: { id: string; payload: unknown; attempts: number }): Promise<boolean> {
    const body = JSON.stringify(event.payload);
    const timestamp = Math.floor(this.clock().getTime() / 1000);
    const signature = this.opts.sign ? this.opts.sign(body, timestamp) : signatureHeader(this.secret, body, timestamp);
    let status = 0;
    let error: string | null = null;
    try {
      status = await this.send(body, signature);
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      if (err instanceof EndpointClosedError) throw err;
      error = err instanceof Error ? err.message : String(err);
    }
    if (error === null) {
      await sql`update ${this.table} set delivered_at = ${this.clock()}, last_error = null where id = ${event.id}`.execute(
        this.db,
      );
      return true;
    }
    this.opts.log?.warn(
      { eventId: event.id, attempts: event.attempts, error },
      'sandbox webhook not accepted; will retry',
    );
    await sql`
      update ${this.table} set next_attempt_at = ${new Date(Date.now() + retryDelayMs(event.attempts))}, last_error = ${error.slice(0, 500)}
      where id = ${event.id} and delivered_at is null`.execute(this.db);
    return false;
  }
}

const BATCH = 20;
/** Deliveries in flight at once in an automatic pass. */
const CONCURRENT_DELIVERIES = 4;
