import { AppError, notFound } from '../../http/errors.ts';
import { WebhookSignatureError } from '../payments/gateway.ts';
import { type SyncDeps, syncPaymentIntent } from '../trips/sync.ts';
import * as repo from './repository.ts';
import { transact } from '../../db/transact.ts';
import { crashPoint } from '../../crash.ts';

export interface WebhookReceipt {
  received: true;
  duplicate?: boolean;
}

/** Events that concern a payment intent: applied by re-reading the intent from the provider. */
const APPLIED_PREFIXES = ['payment_intent.', 'charge.'];

/**
 * One provider webhook. The signature is checked over the raw body before anything else (a bad
 * or missing one, or one older than five minutes, is a 400 and changes nothing). Each event id is
 * recorded once, in the same transaction that applies it: a repeat is acknowledged as a
 * duplicate without applying, and a failure while applying rolls the record back too, so the
 * provider's retry applies it then. Applying re-reads the intent, so the order events arrive in
 * does not matter. Other event types are recorded and acknowledged.
 */
export async function receiveWebhook(
  deps: SyncDeps,
  provider: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookReceipt> {
  if (provider !== deps.gateway.kind) throw notFound('No webhook endpoint for that provider.', 'provider');
  let event;
  try {
    event = deps.gateway.constructEvent(rawBody, signature);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new AppError('INVALID_INPUT', err.message);
    throw err;
  }
  const record = { provider, eventId: event.id, type: event.type, objectId: event.objectId, payload: event.payload };
  let recorded = false;
  const guard = async (trx: Parameters<typeof repo.recordEvent>[0]) =>
    (recorded = await repo.recordEvent(trx, record, deps.clock()));
  if (event.objectId && APPLIED_PREFIXES.some((p) => event.type.startsWith(p))) {
    // Whether it was received, and the payment it is about, in one read.
    const seen = await repo.receivedWithPayment(deps.db, provider, event.id, event.objectId);
    if (seen.received) return { received: true, duplicate: true };
    await syncPaymentIntent(deps, event.objectId, { guard, known: seen.payment ?? null });
  } else {
    if (await repo.wasReceived(deps.db, provider, event.id)) return { received: true, duplicate: true };
    await transact(deps.db, guard);
  }
  if (recorded) crashPoint('webhook-after-commit');
  return recorded ? { received: true } : { received: true, duplicate: true };
}
