import type { Kysely } from 'kysely';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import {
  type CreatePaymentIntentParams,
  type GatewayEventListener,
  type GatewayPaymentIntent,
  type GatewayPaymentIntentRef,
  type GatewaySetupIntent,
  type GatewayUser,
  type GatewayWebhookEvent,
  type PaymentGateway,
  WebhookSignatureError,
  eventObjectId,
} from './gateway.ts';
import { type CardError, type CardInput, brandName, evaluateCardForSetup } from './sandbox-cards.ts';
import type { SandboxWebhookDeliverer } from './sandbox-deliverer.ts';
import { SandboxApiError } from './sandbox-errors.ts';
import { deliveryDelayMs, enqueueEvent, newId, randomChars } from './sandbox-events.ts';
import {
  type ConfirmSource,
  type SandboxIntentDeps,
  type SandboxPaymentIntentView,
  cancelIntent,
  captureIntent,
  confirmIntent,
  createIntent,
  insertCard,
  retrieveLapsingIntent,
  refundIntent,
  retrieveIntent,
} from './sandbox-intents.ts';
import { AppError } from '../../http/errors.ts';
import { verifySignature } from './webhook-signature.ts';
import { transact } from '../../db/transact.ts';

/**
 * The signing secret when SANDBOX_WEBHOOK_SECRET is not set. The sandbox moves no money, so a
 * fixed development secret is enough; set your own where the sandbox is reachable by others.
 */
export const DEFAULT_SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_development_only';

/** The setup intent as the sandbox's browser call returns it (Stripe's SetupIntent, trimmed). */
export interface SandboxSetupIntentView {
  id: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'succeeded' | 'canceled';
  payment_method: string | null;
  last_setup_error: { code: string; decline_code: string | null; message: string } | null;
}

type ConfirmOutcome = { ok: true; view: SandboxSetupIntentView; customerId: string } | { ok: false; error: CardError };

/**
 * The built-in payment provider. It plays Stripe: it owns the sandbox_* tables as Stripe owns its
 * records (our own tables hold only the customer id), keeps only what Stripe would show us of a
 * card (brand, last 4, expiry) plus which test behaviour it has, and never stores a full number or
 * security code. Its SQL lives here, not in our repository, because it stands in for the provider.
 */
export class SandboxGateway implements PaymentGateway {
  readonly kind = 'sandbox' as const;
  readonly publishableKey = null;
  readonly signatureHeaderName = 'sandbox-signature' as const;
  readonly webhookSecret: string;
  private deliverer: SandboxWebhookDeliverer | undefined;
  private readonly intents: SandboxIntentDeps;

  constructor(
    readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Told in-process when a card is saved; every event also goes out as a signed webhook. */
    private readonly onEvent?: GatewayEventListener,
    options: { webhookSecret?: string } = {},
  ) {
    this.webhookSecret = options.webhookSecret ?? DEFAULT_SANDBOX_WEBHOOK_SECRET;
    this.intents = { db, clock, onEnqueued: (delayMs) => this.deliverer?.nudge(delayMs) };
  }

  /** Connects the deliverer that sends this sandbox's events to the webhook endpoint. */
  useDeliverer(deliverer: SandboxWebhookDeliverer): void {
    this.deliverer = deliverer;
  }

  /** Sends every event not yet delivered, now (tests turn automatic delivery off and call this). */
  deliverPendingEvents(): Promise<number> {
    if (!this.deliverer) throw new Error('No webhook deliverer is connected to the sandbox gateway');
    return this.deliverer.deliverPendingEvents();
  }

  async createCustomer(user: GatewayUser, idempotencyKey: string): Promise<string> {
    const inserted = await this.db
      .insertInto('sandbox_customers')
      .values({
        id: newId('cus', 14),
        created_at: this.clock(),
        metadata: JSON.stringify({ user_id: user.id }),
        idempotency_key: idempotencyKey,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return inserted.id;
    // The key was used before (or by a racing call): Stripe answers with the first result.
    const existing = await this.db
      .selectFrom('sandbox_customers')
      .select('id')
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirstOrThrow();
    return existing.id;
  }

  async createSetupIntent(customerId: string): Promise<GatewaySetupIntent> {
    const id = newId('seti');
    const clientSecret = `${id}_secret_${randomChars(25)}`;
    await this.db
      .insertInto('sandbox_setup_intents')
      .values({
        id,
        client_secret: clientSecret,
        customer_id: customerId,
        status: 'requires_payment_method',
        payment_method_id: null,
        last_error: null,
        created_at: this.clock(),
      })
      .execute();
    return { id, clientSecret };
  }

  async listCards(customerId: string): Promise<SavedCard[]> {
    const rows = await this.db
      .selectFrom('sandbox_payment_methods')
      .select(['id', 'brand', 'last4', 'exp_month', 'exp_year'])
      .where('customer_id', '=', customerId)
      .where('detached_at', 'is', null)
      .orderBy('seq', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      card_brand: brandName(r.brand),
      last4: r.last4,
      exp_month: r.exp_month,
      exp_year: r.exp_year,
    }));
  }

  async detachCard(customerId: string, cardId: string): Promise<boolean> {
    // As on Stripe, a detached card belongs to no customer and cannot be used again.
    const result = await this.db
      .updateTable('sandbox_payment_methods')
      .set({ customer_id: null, detached_at: this.clock() })
      .where('id', '=', cardId)
      .where('customer_id', '=', customerId)
      .where('detached_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * The browser's half, as Stripe.js's confirmCardSetup: checks the card against Stripe's test
   * card rules and, when it passes, saves it to the intent's customer. A refused card leaves the
   * intent waiting for another card with last_setup_error set, as Stripe does.
   */
  async confirmSetupIntent(clientSecret: string, card: CardInput): Promise<SandboxSetupIntentView> {
    const now = this.clock();
    const delay = deliveryDelayMs();
    const outcome = await transact(this.db, async (trx): Promise<ConfirmOutcome> => {
      const intent = await trx
        .selectFrom('sandbox_setup_intents')
        .select(['id', 'customer_id', 'status'])
        .where('client_secret', '=', clientSecret)
        .forUpdate()
        .executeTakeFirst();
      if (!intent) throw SandboxApiError.missingBySecret('setupintent', clientSecret);
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        throw new SandboxApiError(400, {
          type: 'invalid_request_error',
          code: 'setup_intent_unexpected_state',
          message:
            intent.status === 'succeeded'
              ? 'This SetupIntent has already succeeded.'
              : 'This SetupIntent has been canceled.',
        });
      }
      const checked = evaluateCardForSetup(card, now);
      if (!checked.ok) {
        const { code, decline_code, message } = checked.error;
        await trx
          .updateTable('sandbox_setup_intents')
          .set({
            status: 'requires_payment_method',
            payment_method_id: null,
            last_error: JSON.stringify({ code, decline_code, message }),
          })
          .where('id', '=', intent.id)
          .execute();
        return { ok: false, error: checked.error };
      }
      const paymentMethodId = await insertCard(trx, checked.card, intent.customer_id, now);
      await trx
        .updateTable('sandbox_setup_intents')
        .set({ status: 'succeeded', payment_method_id: paymentMethodId, last_error: null })
        .where('id', '=', intent.id)
        .execute();
      const object = {
        id: intent.id,
        object: 'setup_intent',
        customer: intent.customer_id,
        payment_method: paymentMethodId,
        status: 'succeeded',
        usage: 'off_session',
        livemode: false,
      };
      await enqueueEvent(trx, now, 'setup_intent.succeeded', object, delay);
      return {
        ok: true,
        customerId: intent.customer_id,
        view: { id: intent.id, status: 'succeeded', payment_method: paymentMethodId, last_setup_error: null },
      };
    });
    // The refusal is recorded on the intent (committed above) before the caller hears of it.
    if (!outcome.ok) throw SandboxApiError.card(outcome.error);
    this.deliverer?.nudge(delay);
    await this.onEvent?.({
      type: 'setup_intent.succeeded',
      setupIntentId: outcome.view.id,
      customerId: outcome.customerId,
      paymentMethodId: outcome.view.payment_method!,
    });
    return outcome.view;
  }

  createPaymentIntent(params: CreatePaymentIntentParams): Promise<GatewayPaymentIntentRef> {
    return createIntent(this.intents, params);
  }

  async retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent> {
    return retrieveLapsingIntent(this.intents, id);
  }

  /** Off-session confirmation with a saved card, as Stripe's server-side confirm: card refusals are UNPROCESSABLE. */
  async confirmOffSession(id: string, paymentMethodId: string): Promise<GatewayPaymentIntent> {
    const row = await this.db
      .selectFrom('sandbox_payment_intents')
      .select('client_secret')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('UNPROCESSABLE', `No such payment_intent: '${id}'`);
    try {
      await confirmIntent(this.intents, row.client_secret, { payment_method: paymentMethodId });
    } catch (err) {
      if (err instanceof SandboxApiError) throw new AppError('UNPROCESSABLE', err.message);
      throw err;
    }
    return retrieveIntent(this.db, id);
  }

  capture(id: string, amount?: number): Promise<GatewayPaymentIntent> {
    return captureIntent(this.intents, id, amount);
  }

  cancel(id: string): Promise<GatewayPaymentIntent> {
    return cancelIntent(this.intents, id);
  }

  refund(paymentIntentId: string, amount?: number, idempotencyKey?: string): Promise<string> {
    return refundIntent(this.intents, paymentIntentId, amount, idempotencyKey);
  }

  /** The browser's confirmation of a payment (Stripe.js's confirmCardPayment), with a saved card or a new one. */
  confirmPaymentIntent(clientSecret: string, source: ConfirmSource): Promise<SandboxPaymentIntentView> {
    return confirmIntent(this.intents, clientSecret, source);
  }

  /** Checks Sandbox-Signature exactly as Stripe's library checks Stripe-Signature, against the app's clock. */
  constructEvent(rawBody: Buffer, signatureHeader: string | undefined): GatewayWebhookEvent {
    const check = verifySignature(
      this.webhookSecret,
      rawBody,
      signatureHeader,
      Math.floor(this.clock().getTime() / 1000),
    );
    if (!check.ok) throw new WebhookSignatureError(check.reason);
    let event: { id?: unknown; type?: unknown; created?: unknown; data?: { object?: unknown } };
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new WebhookSignatureError('malformed');
    }
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number')
      throw new WebhookSignatureError('malformed');
    return {
      id: event.id,
      type: event.type,
      created: event.created,
      objectId: eventObjectId(event.type, event.data?.object),
      payload: event,
    };
  }
}
