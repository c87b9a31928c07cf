import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Clock } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { SandboxGateway } from './sandbox-gateway.ts';
import { StripeGateway } from './stripe-gateway.ts';

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
 * What the provider reports happening, as its webhooks would. Only the sandbox raises these so
 * far; the next issue delivers them (and Stripe's signed webhooks) to one handler.
 */
export type GatewayEvent = {
  type: 'setup_intent.succeeded';
  setupIntentId: string;
  customerId: string;
  paymentMethodId: string;
};
export type GatewayEventListener = (event: GatewayEvent) => void | Promise<void>;

/**
 * The card-payment provider, as the rest of the API sees it. Two implementations: Stripe (when
 * configured) and the built-in sandbox, which keeps its own records and honours Stripe's test
 * cards. Card numbers never reach our code: the browser hands them to the provider directly.
 * Provider failures come out as AppError: a refused request as UNPROCESSABLE, an unreachable
 * provider as UNAVAILABLE.
 *
 * Charges, holds (manual capture), captures, releases, refunds and webhook events are added here
 * by the booking-payment issue, next to these.
 */
export interface PaymentGateway {
  readonly kind: 'stripe' | 'sandbox';
  /** Stripe's publishable key for the browser; null for the sandbox. */
  readonly publishableKey: string | null;
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
}

/** Stripe when its keys are configured; otherwise the built-in sandbox. */
export function createGateway(config: Config, db: Kysely<Database>, clock: Clock): PaymentGateway {
  if (config.stripe) {
    return new StripeGateway(new Stripe(config.stripe.secretKey, { maxNetworkRetries: 2, timeout: 20_000 }), config.stripe.publishableKey);
  }
  return new SandboxGateway(db, clock);
}
