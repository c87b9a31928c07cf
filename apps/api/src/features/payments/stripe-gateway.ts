import type Stripe from 'stripe';
import type { SavedCard } from '@ampere/domain/contract/account';
import { AppError } from '../../http/errors.ts';
import type { GatewaySetupIntent, GatewayUser, PaymentGateway } from './gateway.ts';
import { brandName } from './sandbox-cards.ts';

/** The part of a Stripe PaymentMethod this adapter reads. */
interface StripeCardMethod {
  id: string;
  customer: string | { id: string } | null;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
}

/**
 * The calls this adapter makes, typed as the `stripe` SDK types them, so the real client fits and
 * a test can pass a fake one (no network in tests).
 */
export interface StripeClient {
  customers: {
    create(params: Stripe.CustomerCreateParams, options?: Stripe.RequestOptions): Promise<{ id: string }>;
    listPaymentMethods(customer: string, params?: Stripe.CustomerListPaymentMethodsParams): Promise<{ data: StripeCardMethod[] }>;
  };
  setupIntents: {
    create(params: Stripe.SetupIntentCreateParams): Promise<{ id: string; client_secret: string | null }>;
  };
  paymentMethods: {
    retrieve(id: string): Promise<StripeCardMethod>;
    detach(id: string): Promise<unknown>;
  };
}

/** Saved cards listed per customer; Stripe's maximum page. */
const CARD_LIST_LIMIT = 100;

interface StripeErrorLike {
  type?: string;
  statusCode?: number;
  code?: string;
  message?: string;
}

function isStripeError(err: unknown): err is StripeErrorLike & Error {
  return err instanceof Error && typeof (err as StripeErrorLike).type === 'string' && (err as StripeErrorLike).type!.startsWith('Stripe');
}

/**
 * Stripe's errors in our vocabulary. A refused request (a card error, a bad parameter) keeps
 * Stripe's message, which is written for the renter, as UNPROCESSABLE; Stripe being unreachable,
 * failing or rate-limiting us is UNAVAILABLE. Bad keys or permissions are our fault: they stay a
 * plain error, so the renter sees a 500 and the log keeps Stripe's words.
 */
export function fromStripeError(err: unknown): unknown {
  if (!isStripeError(err)) return err;
  switch (err.type) {
    case 'StripeCardError':
    case 'StripeInvalidRequestError':
    case 'StripeIdempotencyError':
      return new AppError('UNPROCESSABLE', err.message);
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new AppError('UNAVAILABLE', 'Card payments are not reachable right now. Please try again in a minute.');
    default:
      return new Error(`Stripe refused our request (${err.type}): ${err.message}`, { cause: err });
  }
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fromStripeError(err);
  }
}

const customerIdOf = (c: StripeCardMethod['customer']) => (c === null ? null : typeof c === 'string' ? c : c.id);

/** The real provider: Stripe Customers, SetupIntents and PaymentMethods. */
export class StripeGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;

  constructor(
    private readonly stripe: StripeClient,
    readonly publishableKey: string,
  ) {}

  createCustomer(user: GatewayUser, idempotencyKey: string): Promise<string> {
    return call(async () => {
      const customer = await this.stripe.customers.create(
        { phone: user.phone, ...(user.email ? { email: user.email } : {}), metadata: { user_id: user.id } },
        { idempotencyKey },
      );
      return customer.id;
    });
  }

  createSetupIntent(customerId: string): Promise<GatewaySetupIntent> {
    return call(async () => {
      // Cards only: the rental's charges and deposit holds are made later, off-session.
      const intent = await this.stripe.setupIntents.create({ customer: customerId, usage: 'off_session', allowed_payment_method_types: ['card'] });
      if (!intent.client_secret) throw new Error(`Stripe returned SetupIntent ${intent.id} without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    });
  }

  listCards(customerId: string): Promise<SavedCard[]> {
    return call(async () => {
      // Stripe lists payment methods newest first.
      const page = await this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: CARD_LIST_LIMIT });
      return page.data.flatMap((pm) =>
        pm.card ? [{ id: pm.id, card_brand: brandName(pm.card.brand), last4: pm.card.last4, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year }] : [],
      );
    });
  }

  async detachCard(customerId: string, cardId: string): Promise<boolean> {
    let pm: StripeCardMethod;
    try {
      pm = await this.stripe.paymentMethods.retrieve(cardId);
    } catch (err) {
      // An id Stripe does not know is, to the renter, simply not one of their cards.
      if (isStripeError(err) && err.type === 'StripeInvalidRequestError' && (err.statusCode === 404 || err.code === 'resource_missing')) return false;
      throw fromStripeError(err);
    }
    // Never detach a card saved to someone else, nor say that it exists.
    if (customerIdOf(pm.customer) !== customerId) return false;
    await call(() => this.stripe.paymentMethods.detach(cardId));
    return true;
  }
}
