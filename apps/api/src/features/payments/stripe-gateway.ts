import type Stripe from 'stripe';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../http/errors.ts';
import {
  type CreatePaymentIntentParams,
  type GatewayPaymentIntent,
  type GatewayPaymentIntentRef,
  type GatewaySetupIntent,
  type GatewayUser,
  type GatewayWebhookEvent,
  PAYMENT_INTENT_STATUSES,
  type PaymentGateway,
  type PaymentIntentStatus,
  WebhookSignatureError,
  eventObjectId,
} from './gateway.ts';
import { brandName } from './sandbox-cards.ts';
import { SIGNATURE_TOLERANCE_SECONDS, signatureTimestamp } from './webhook-signature.ts';

/** The part of a Stripe PaymentMethod this adapter reads. */
interface StripeCardMethod {
  id: string;
  customer: string | { id: string } | null;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
}

type CardDetails = { brand: string | null; last4: string | null } | null | undefined;

/** The part of a Stripe PaymentIntent this adapter reads (retrieved with latest_charge and payment_method expanded). */
export interface StripeIntent {
  id: string;
  status: string;
  amount: number;
  amount_capturable: number;
  amount_received: number;
  client_secret: string | null;
  payment_method: string | { id: string; card?: CardDetails } | null;
  latest_charge?: string | { amount_refunded: number; payment_method_details?: { card?: CardDetails } | null } | null;
  last_payment_error: { code?: string; decline_code?: string; message?: string } | null;
  metadata: Record<string, string>;
}

/**
 * The calls this adapter makes, typed as the `stripe` SDK types them, so the real client fits and
 * a test can pass a fake one (no network in tests).
 */
export interface StripeClient {
  customers: {
    create(params: Stripe.CustomerCreateParams, options?: Stripe.RequestOptions): Promise<{ id: string }>;
    listPaymentMethods(
      customer: string,
      params?: Stripe.CustomerListPaymentMethodsParams,
    ): Promise<{ data: StripeCardMethod[] }>;
  };
  setupIntents: {
    create(params: Stripe.SetupIntentCreateParams): Promise<{ id: string; client_secret: string | null }>;
  };
  paymentMethods: {
    retrieve(id: string): Promise<StripeCardMethod>;
    detach(id: string): Promise<unknown>;
  };
  paymentIntents: {
    create(params: Stripe.PaymentIntentCreateParams, options?: Stripe.RequestOptions): Promise<StripeIntent>;
    retrieve(id: string, params?: Stripe.PaymentIntentRetrieveParams): Promise<StripeIntent>;
    capture(id: string, params?: Stripe.PaymentIntentCaptureParams): Promise<StripeIntent>;
    confirm(
      id: string,
      params?: Stripe.PaymentIntentConfirmParams,
      options?: Stripe.RequestOptions,
    ): Promise<StripeIntent>;
    cancel(id: string, params?: Stripe.PaymentIntentCancelParams): Promise<StripeIntent>;
  };
  refunds: {
    create(params: Stripe.RefundCreateParams, options?: Stripe.RequestOptions): Promise<{ id: string }>;
  };
  webhooks: {
    constructEvent(
      payload: string | Buffer,
      header: string,
      secret: string,
      tolerance?: number,
      cryptoProvider?: undefined,
      receivedAt?: number,
    ): {
      id: string;
      type: string;
      created: number;
      data: { object: unknown };
    };
  };
}

/** The intent as the rest of the API reads it. */
export function toGatewayIntent(pi: StripeIntent): GatewayPaymentIntent {
  const pm = typeof pi.payment_method === 'object' ? pi.payment_method : null;
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const card = pm?.card ?? charge?.payment_method_details?.card ?? null;
  const err = pi.last_payment_error;
  return {
    id: pi.id,
    status: toStatus(pi.status),
    amount: pi.amount,
    amount_capturable: pi.amount_capturable,
    amount_received: pi.amount_received,
    amount_refunded: charge?.amount_refunded ?? 0,
    payment_method: typeof pi.payment_method === 'string' ? pi.payment_method : (pm?.id ?? null),
    card: card?.last4 ? { brand: brandName(card.brand), last4: card.last4 } : null,
    last_error: err
      ? {
          code: err.code ?? null,
          decline_code: err.decline_code ?? null,
          message: err.message ?? 'The payment was not completed.',
        }
      : null,
    metadata: pi.metadata ?? {},
  };
}

function toStatus(status: string): PaymentIntentStatus {
  if ((PAYMENT_INTENT_STATUSES as readonly string[]).includes(status)) return status as PaymentIntentStatus;
  throw new Error(`Stripe returned an unknown PaymentIntent status '${status}'`);
}

/** The charge carries the refunded amount and the card used; the payment method, the card saved. */
const EXPAND = ['latest_charge', 'payment_method'];

/** Saved cards listed per customer; Stripe's maximum page. */
const CARD_LIST_LIMIT = 100;

interface StripeErrorLike {
  type?: string;
  statusCode?: number;
  code?: string;
  message?: string;
}

function isStripeError(err: unknown): err is StripeErrorLike & Error {
  return (
    err instanceof Error &&
    typeof (err as StripeErrorLike).type === 'string' &&
    (err as StripeErrorLike).type!.startsWith('Stripe')
  );
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

  readonly signatureHeaderName = 'stripe-signature' as const;

  constructor(
    private readonly stripe: StripeClient,
    readonly publishableKey: string,
    /** STRIPE_WEBHOOK_SECRET; without it webhooks cannot be verified and are refused. */
    private readonly webhookSecret?: string,
    private readonly clock: Clock = () => new Date(),
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
      const intent = await this.stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
      });
      if (!intent.client_secret) throw new Error(`Stripe returned SetupIntent ${intent.id} without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    });
  }

  listCards(customerId: string): Promise<SavedCard[]> {
    return call(async () => {
      // Stripe lists payment methods newest first.
      const page = await this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: CARD_LIST_LIMIT });
      return page.data.flatMap((pm) =>
        pm.card
          ? [
              {
                id: pm.id,
                card_brand: brandName(pm.card.brand),
                last4: pm.card.last4,
                exp_month: pm.card.exp_month,
                exp_year: pm.card.exp_year,
              },
            ]
          : [],
      );
    });
  }

  async detachCard(customerId: string, cardId: string): Promise<boolean> {
    let pm: StripeCardMethod;
    try {
      pm = await this.stripe.paymentMethods.retrieve(cardId);
    } catch (err) {
      // An id Stripe does not know is, to the renter, simply not one of their cards.
      if (
        isStripeError(err) &&
        err.type === 'StripeInvalidRequestError' &&
        (err.statusCode === 404 || err.code === 'resource_missing')
      )
        return false;
      throw fromStripeError(err);
    }
    // Never detach a card saved to someone else, nor say that it exists.
    if (customerIdOf(pm.customer) !== customerId) return false;
    await call(() => this.stripe.paymentMethods.detach(cardId));
    return true;
  }

  createPaymentIntent(params: CreatePaymentIntentParams): Promise<GatewayPaymentIntentRef> {
    return call(async () => {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: params.amount,
          currency: params.currency,
          customer: params.customerId,
          capture_method: params.captureMethod,
          // Cards only, confirmed in the browser with the Payment Element or a saved card.
          allowed_payment_method_types: ['card'],
          ...(params.setupFutureUsage ? { setup_future_usage: params.setupFutureUsage } : {}),
          metadata: { ...params.metadata },
        },
        { idempotencyKey: params.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error(`Stripe returned PaymentIntent ${intent.id} without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret, status: toStatus(intent.status) };
    });
  }

  retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent> {
    return call(async () => toGatewayIntent(await this.stripe.paymentIntents.retrieve(id, { expand: EXPAND })));
  }

  confirmOffSession(id: string, paymentMethodId: string, idempotencyKey?: string): Promise<GatewayPaymentIntent> {
    const params = { payment_method: paymentMethodId, off_session: true, expand: EXPAND };
    return call(async () =>
      toGatewayIntent(
        idempotencyKey
          ? await this.stripe.paymentIntents.confirm(id, params, { idempotencyKey })
          : await this.stripe.paymentIntents.confirm(id, params),
      ),
    );
  }

  capture(id: string, amount?: number): Promise<GatewayPaymentIntent> {
    return call(async () =>
      toGatewayIntent(
        await this.stripe.paymentIntents.capture(id, {
          ...(amount === undefined ? {} : { amount_to_capture: amount }),
          expand: EXPAND,
        }),
      ),
    );
  }

  cancel(id: string): Promise<GatewayPaymentIntent> {
    return call(async () => toGatewayIntent(await this.stripe.paymentIntents.cancel(id, { expand: EXPAND })));
  }

  refund(paymentIntentId: string, amount?: number, idempotencyKey?: string): Promise<string> {
    return call(async () => {
      const refund = await this.stripe.refunds.create(
        { payment_intent: paymentIntentId, ...(amount === undefined ? {} : { amount }) },
        idempotencyKey ? { idempotencyKey } : undefined,
      );
      return refund.id;
    });
  }

  constructEvent(rawBody: Buffer, signatureHeader: string | undefined): GatewayWebhookEvent {
    if (!this.webhookSecret)
      throw new AppError('UNAVAILABLE', 'Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET.');
    if (!signatureHeader) throw new WebhookSignatureError('invalid');
    let event: ReturnType<StripeClient['webhooks']['constructEvent']>;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        this.clock().getTime(),
      );
    } catch (err) {
      if (err instanceof Error && /tolerance/i.test(err.message)) throw new WebhookSignatureError('stale');
      if (err instanceof SyntaxError) throw new WebhookSignatureError('malformed');
      throw new WebhookSignatureError('invalid');
    }
    // The SDK refuses only old timestamps; one more than the tolerance ahead is refused as well.
    const timestamp = signatureTimestamp(signatureHeader);
    if (timestamp !== null && timestamp - this.clock().getTime() / 1000 > SIGNATURE_TOLERANCE_SECONDS)
      throw new WebhookSignatureError('stale');
    return {
      id: event.id,
      type: event.type,
      created: event.created,
      objectId: eventObjectId(event.type, event.data.object),
      payload: event,
    };
  }
}
