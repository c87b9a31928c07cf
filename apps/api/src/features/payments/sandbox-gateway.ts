import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Clock } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import type { GatewayEventListener, GatewaySetupIntent, GatewayUser, PaymentGateway } from './gateway.ts';
import { type CardError, type CardInput, brandName, evaluateCardForSetup } from './sandbox-cards.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomChars(length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** A Stripe-looking id: the prefix and random letters and digits ('pm_1Qx…'). */
function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomChars(length)}`;
}

/** The setup intent as the sandbox's browser call returns it (Stripe's SetupIntent, trimmed). */
export interface SandboxSetupIntentView {
  id: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'succeeded' | 'canceled';
  payment_method: string | null;
  last_setup_error: { code: string; decline_code: string | null; message: string } | null;
}

/**
 * An error the sandbox answers in Stripe's shape: a card error (402) or an invalid request (a
 * setup intent that is unknown, 404, or in the wrong state, 400).
 */
export class SandboxApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { type: 'card_error' | 'invalid_request_error'; code: string; decline_code?: string | null; message: string; param?: string },
  ) {
    super(body.message);
  }
  static card(error: CardError): SandboxApiError {
    return new SandboxApiError(402, error);
  }
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

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Where provider events go (setup_intent.succeeded today); webhook delivery comes next. */
    private readonly onEvent?: GatewayEventListener,
  ) {}

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
    const existing = await this.db.selectFrom('sandbox_customers').select('id').where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow();
    return existing.id;
  }

  async createSetupIntent(customerId: string): Promise<GatewaySetupIntent> {
    const id = newId('seti');
    const clientSecret = `${id}_secret_${randomChars(25)}`;
    await this.db
      .insertInto('sandbox_setup_intents')
      .values({ id, client_secret: clientSecret, customer_id: customerId, status: 'requires_payment_method', payment_method_id: null, last_error: null, created_at: this.clock() })
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
    return rows.map((r) => ({ id: r.id, card_brand: brandName(r.brand), last4: r.last4, exp_month: r.exp_month, exp_year: r.exp_year }));
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
    const outcome = await this.db.transaction().execute(async (trx): Promise<ConfirmOutcome> => {
      const intent = await trx
        .selectFrom('sandbox_setup_intents')
        .select(['id', 'customer_id', 'status'])
        .where('client_secret', '=', clientSecret)
        .forUpdate()
        .executeTakeFirst();
      if (!intent) {
        const id = clientSecret.split('_secret_')[0] ?? '';
        throw new SandboxApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such setupintent: '${id}'` });
      }
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        throw new SandboxApiError(400, {
          type: 'invalid_request_error',
          code: 'setup_intent_unexpected_state',
          message: intent.status === 'succeeded' ? 'This SetupIntent has already succeeded.' : 'This SetupIntent has been canceled.',
        });
      }
      const checked = evaluateCardForSetup(card, now);
      if (!checked.ok) {
        const { code, decline_code, message } = checked.error;
        await trx
          .updateTable('sandbox_setup_intents')
          .set({ status: 'requires_payment_method', payment_method_id: null, last_error: JSON.stringify({ code, decline_code, message }) })
          .where('id', '=', intent.id)
          .execute();
        return { ok: false, error: checked.error };
      }
      const paymentMethodId = newId('pm');
      const { brand, last4, exp_month, exp_year, behaviour } = checked.card;
      await trx
        .insertInto('sandbox_payment_methods')
        .values({ id: paymentMethodId, customer_id: intent.customer_id, brand, last4, exp_month, exp_year, behaviour, created_at: now, detached_at: null })
        .execute();
      await trx
        .updateTable('sandbox_setup_intents')
        .set({ status: 'succeeded', payment_method_id: paymentMethodId, last_error: null })
        .where('id', '=', intent.id)
        .execute();
      return { ok: true, customerId: intent.customer_id, view: { id: intent.id, status: 'succeeded', payment_method: paymentMethodId, last_setup_error: null } };
    });
    // The refusal is recorded on the intent (committed above) before the caller hears of it.
    if (!outcome.ok) throw SandboxApiError.card(outcome.error);
    // Stripe would now send setup_intent.succeeded (and payment_method.attached) to the webhook
    // endpoint; the next issue routes this hook into the same webhook handler.
    await this.onEvent?.({ type: 'setup_intent.succeeded', setupIntentId: outcome.view.id, customerId: outcome.customerId, paymentMethodId: outcome.view.payment_method! });
    return outcome.view;
  }
}
