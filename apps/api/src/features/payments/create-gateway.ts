import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { PaymentGateway } from './gateway.ts';
import { SandboxGateway } from './sandbox-gateway.ts';
import { StripeGateway } from './stripe-gateway.ts';

// Apart from gateway.ts, which both implementations import for its types.
/** Stripe when its keys are configured; otherwise the built-in sandbox. */
export function createGateway(config: Config, db: Kysely<Database>, clock: Clock): PaymentGateway {
  if (config.stripe) {
    return new StripeGateway(
      new Stripe(config.stripe.secretKey, { maxNetworkRetries: 2, timeout: 20_000 }),
      config.stripe.publishableKey,
      config.stripe.webhookSecret,
      clock,
    );
  }
  return new SandboxGateway(db, clock, undefined, { webhookSecret: config.sandbox.webhookSecret });
}
