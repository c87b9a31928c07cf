import type { SavedCard } from '@ampere/domain/contract/account';
import { PAYMENT_INTENT_STATUSES, type PaymentIntentStatus } from '@ampere/domain/contract/booking';

/** Who a gateway customer is for; the provider keeps our user id in its metadata. */
export interface GatewayUser {
  id: string;
  phone: string;
  email: string | null;
}

/** A SetupIntent: the browser confirms it with the card, and the card is then saved to the customer. */
export interface GatewaySetupIntent {
  id: string;
  clientSecret: string;
}

/**
 * What the sandbox reports in-process when a card is saved (kept for callers that listen to it
 * directly); the same event also goes out as a signed webhook through the sandbox's outbox.
 */
export type GatewayEvent = {
  type: 'setup_intent.succeeded';
  setupIntentId: string;
  customerId: string;
  paymentMethodId: string;
};
export type GatewayEventListener = (event: GatewayEvent) => void | Promise<void>;

// Stripe's PaymentIntent statuses, listed once in the contract.
export { PAYMENT_INTENT_STATUSES, type PaymentIntentStatus };

export type PaymentKind = 'CHARGE' | 'DEPOSIT_HOLD';

/** What we put in every intent's metadata, so an intent can always be traced back to our rows. */
export interface PaymentIntentMetadata {
  reservation_id: string;
  payment_id: string;
  kind: PaymentKind;
}

export interface CreatePaymentIntentParams {
  customerId: string;
  /** Cents. */
  amount: number;
  currency: 'usd';
  /** 'manual' for the deposit hold: authorised now, captured (in part) or released later. */
  captureMethod: 'automatic' | 'manual';
  /** Saves a new card to the customer for later off-session charges. */
  setupFutureUsage?: 'off_session';
  metadata: PaymentIntentMetadata;
  /** The same key gets the same intent back (derived from our payment row's id). */
  idempotencyKey: string;
}

export interface GatewayPaymentIntentRef {
  id: string;
  clientSecret: string;
  status: PaymentIntentStatus;
}

/** The provider's current view of an intent: what a payment's state is read from, never the event body. */
export interface GatewayPaymentIntent {
  id: string;
  status: PaymentIntentStatus;
  amount: number;
  /** Authorised and not yet captured (manual capture). */
  amount_capturable: number;
  amount_received: number;
  amount_refunded: number;
  payment_method: string | null;
  card: { brand: string; last4: string } | null;
  /** The last attempt's refusal; the intent is back to requires_payment_method when set. */
  last_error: { code: string | null; decline_code: string | null; message: string } | null;
  metadata: Record<string, string>;
}

/** A verified provider event. `objectId` is the payment intent it concerns (a charge's intent for charge.*). */
export interface GatewayWebhookEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  objectId: string | null;
  payload: unknown;
}

/** A webhook whose signature does not check out ('invalid') or whose timestamp is further than the tolerance from now, either way ('stale'). */
export class WebhookSignatureError extends Error {
  constructor(readonly reason: 'invalid' | 'stale' | 'malformed') {
    super(
      reason === 'stale'
        ? 'Webhook timestamp is outside the tolerance.'
        : reason === 'malformed'
          ? 'Invalid webhook payload.'
          : 'Invalid webhook signature.',
    );
  }
}

/** The intent an event is about: the object itself for payment_intent.*, the charge's intent for charge.*. */
export function eventObjectId(type: string, object: unknown): string | null {
  if (typeof object !== 'object' || object === null) return null;
  const o = object as { id?: unknown; payment_intent?: unknown };
  if (type.startsWith('charge.')) {
    const pi = o.payment_intent;
    if (typeof pi === 'string') return pi;
    if (typeof pi === 'object' && pi !== null && typeof (pi as { id?: unknown }).id === 'string')
      return (pi as { id: string }).id;
    return null;
  }
  return typeof o.id === 'string' ? o.id : null;
}

/**
 * The card-payment provider, as the rest of the API sees it. Two implementations: Stripe (when
 * configured) and the built-in sandbox, which keeps its own records and honours Stripe's test
 * cards. Card numbers never reach our code: the browser hands them to the provider directly.
 * Provider failures come out as AppError: a refused request as UNPROCESSABLE, an unreachable
 * provider as UNAVAILABLE.
 */
export interface PaymentGateway {
  readonly kind: 'stripe' | 'sandbox';
  /** Stripe's publishable key for the browser; null for the sandbox. */
  readonly publishableKey: string | null;
  /** The header the provider signs its webhooks in (lower case, as Node gives headers). */
  readonly signatureHeaderName: 'stripe-signature' | 'sandbox-signature';
  /**
   * Creates the provider's customer for this user. Calls with the same idempotency key get the
   * same customer (Stripe keeps keys for at least 24 hours; the sandbox for good), so two racing
   * calls for one user make one customer.
   */
  createCustomer(user: GatewayUser, idempotencyKey: string): Promise<string>;
  /** A SetupIntent for saving a card to this customer for later, off-session charges. */
  createSetupIntent(customerId: string): Promise<GatewaySetupIntent>;
  /** The customer's saved cards, newest first. */
  listCards(customerId: string): Promise<SavedCard[]>;
  /** Removes a saved card; false when no card with that id is saved to this customer. */
  detachCard(customerId: string, cardId: string): Promise<boolean>;
  /** A PaymentIntent the browser confirms with its client secret (a charge, or a hold when manual). */
  createPaymentIntent(params: CreatePaymentIntentParams): Promise<GatewayPaymentIntentRef>;
  retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent>;
  /**
   * Confirms an intent on the server with a card saved to its customer, the renter not present
   * (off-session: re-authorising a deposit hold). A refused card is an UNPROCESSABLE AppError, and
   * the intent is left needing a payment method, as Stripe leaves it. A call repeated with the same
   * idempotency key gets the first call's answer (Stripe); the sandbox confirms an intent only
   * while it waits for its card, whatever the key.
   */
  confirmOffSession(id: string, paymentMethodId: string, idempotencyKey?: string): Promise<GatewayPaymentIntent>;
  /** Captures an authorised hold, all of it or `amount` cents (the rest is released). */
  capture(id: string, amount?: number): Promise<GatewayPaymentIntent>;
  /** Cancels an intent that has not succeeded; for a hold, releases it. */
  cancel(id: string): Promise<GatewayPaymentIntent>;
  /** Refunds a succeeded intent, all that is left of it or `amount` cents; the refund's id. */
  refund(paymentIntentId: string, amount?: number, idempotencyKey?: string): Promise<string>;
  /** Verifies a webhook's signature over the raw body and reads the event; WebhookSignatureError otherwise. */
  constructEvent(rawBody: Buffer, signatureHeader: string | undefined): GatewayWebhookEvent;
}
