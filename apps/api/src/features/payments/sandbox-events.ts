import { randomBytes } from 'node:crypto';
import type { QueryCreator, Selectable, Transaction } from 'kysely';
import type { Database, SandboxPaymentIntentTable } from '../../db/schema.ts';

/**
 * The sandbox provider's outgoing events, in Stripe's shape
 * ({ id: 'evt_…', object: 'event', type, created, data: { object } }). Each is written to
 * sandbox_events in the same database transaction as the state change it reports (an outbox), so
 * an event is never lost nor sent for a change that was rolled back; the deliverer then POSTs it,
 * signed, to our own webhook endpoint.
 */

export type SandboxEventType =
  | 'payment_intent.succeeded'
  | 'payment_intent.payment_failed'
  | 'payment_intent.amount_capturable_updated'
  | 'payment_intent.canceled'
  | 'charge.refunded'
  | 'setup_intent.succeeded';

export type SandboxIntentRow = Selectable<SandboxPaymentIntentTable>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomChars(length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** A Stripe-looking id: the prefix and random letters and digits ('pm_1Qx…'). */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomChars(length)}`;
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The PaymentIntent as Stripe puts it in an event (no client secret, as in Stripe's events). */
export function intentObject(row: SandboxIntentRow) {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    amount_capturable: row.amount_capturable,
    amount_received: row.amount_received,
    capture_method: row.capture_method,
    created: unix(row.created_at),
    currency: row.currency,
    customer: row.customer_id,
    last_payment_error: row.last_error ?? null,
    livemode: false,
    metadata: row.metadata,
    payment_method: row.payment_method_id,
    setup_future_usage: row.setup_future_usage,
    status: row.status,
  };
}

/** The intent's charge, for charge.* events; the sandbox keeps one charge per intent. */
export function chargeObject(row: SandboxIntentRow) {
  return {
    id: `ch_${row.id.slice(3)}`,
    object: 'charge',
    amount: row.amount,
    amount_captured: row.amount_received,
    amount_refunded: row.amount_refunded,
    currency: row.currency,
    customer: row.customer_id,
    livemode: false,
    metadata: row.metadata,
    payment_intent: row.id,
    payment_method: row.payment_method_id,
    refunded: row.amount_received > 0 && row.amount_refunded >= row.amount_received,
    status: 'succeeded',
  };
}

/** Delivery waits this long after the change, at random, as a provider's would. */
export const DELIVERY_DELAY_MS = { min: 40, max: 250 } as const;

export function deliveryDelayMs(): number {
  return DELIVERY_DELAY_MS.min + Math.floor(Math.random() * (DELIVERY_DELAY_MS.max - DELIVERY_DELAY_MS.min));
}

/**
 * Appends an event to the outbox inside the caller's transaction. `created` is the provider's
 * (the injected clock); when it is first due is wall-clock time, as delivery is the provider's
 * plumbing and must run even when a test holds the clock still.
 */
export async function enqueueEvent(
  trx: Transaction<Database>,
  now: Date,
  type: SandboxEventType,
  object: object,
  delayMs: number,
): Promise<string> {
  const event = eventInsert(trx, now, type, object, delayMs);
  await event.query.execute();
  return event.id;
}

/**
 * `enqueueEvent`'s insert, not yet run: for the caller to send with the change it reports, as one
 * statement (`with`).
 */
export function eventInsert(
  db: QueryCreator<Database>,
  now: Date,
  type: SandboxEventType,
  object: object,
  delayMs: number,
) {
  const id = newId('evt');
  const payload = {
    id,
    object: 'event',
    api_version: '2025-sandbox',
    created: unix(now),
    livemode: false,
    type,
    data: { object },
  };
  const query = db.insertInto('sandbox_events').values({
    id,
    type,
    payload: JSON.stringify(payload),
    created_at: now,
    delivered_at: null,
    next_attempt_at: new Date(Date.now() + delayMs),
    last_error: null,
  });
  return { id, query };
}
