import type { Kysely } from 'kysely';
import type { GatewayClientSecret, SavedCard } from '@ampere/domain/contract/account';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { PaymentGateway } from './gateway.ts';
import * as repo from './repository.ts';

export interface PaymentDeps {
  db: Kysely<Database>;
  gateway: PaymentGateway;
}

/** What the gateway needs to know about a renter to make their customer (`findCustomerOwner`). */
export type CustomerOwner = NonNullable<Awaited<ReturnType<typeof repo.findCustomerOwner>>>;

/** Said for a card that is not the renter's, whether or not it exists for someone else. */
export const CARD_NOT_FOUND = 'No saved card with that id.';

/**
 * The renter's gateway customer, made on first need. The provider call is made with an
 * idempotency key per user, so racing first calls get one customer from the provider; the id is
 * then recorded only where none is (`setCustomerIdIfNone`), so the first writer's id stands. The
 * call is made before anything is written, not under a lock: a row lock must not wait on the
 * network, and on the embedded database an open transaction would hold the only connection the
 * sandbox provider needs. `owner` is the renter as `findCustomerOwner` reads them, when the caller
 * has just read that.
 */
export async function ensureCustomer(
  { db, gateway }: PaymentDeps,
  userId: string,
  owner?: CustomerOwner,
): Promise<string> {
  const user = owner ?? (await repo.findCustomerOwner(db, userId));
  if (!user) throw notFound('No renter with that id.');
  if (user.gateway_customer_id) return user.gateway_customer_id;
  const created = await gateway.createCustomer(
    { id: user.id, phone: user.phone, email: user.email },
    `customer-for-user-${user.id}`,
  );
  if (await repo.setCustomerIdIfNone(db, userId, created)) return created;
  // Another request recorded the renter's customer meanwhile: that one stands.
  return (await repo.findCustomerOwner(db, userId))?.gateway_customer_id ?? created;
}

/** Spec 7, POST /api/v1/payments/setup-intent: what the browser needs to save a card. */
export async function createSetupIntent(deps: PaymentDeps, userId: string): Promise<GatewayClientSecret> {
  const customerId = await ensureCustomer(deps, userId);
  const intent = await deps.gateway.createSetupIntent(customerId);
  return {
    provider: deps.gateway.kind,
    client_secret: intent.clientSecret,
    publishable_key: deps.gateway.publishableKey,
  };
}

/** Spec 7, GET /api/v1/users/credit-cards: the renter's saved cards, newest first. */
export async function listSavedCards({ db, gateway }: PaymentDeps, userId: string): Promise<SavedCard[]> {
  const user = await repo.findCustomerOwner(db, userId);
  if (!user?.gateway_customer_id) return [];
  return gateway.listCards(user.gateway_customer_id);
}

/** Removes one of the renter's saved cards; any other id is a 404 that says nothing more. */
export async function deleteSavedCard({ db, gateway }: PaymentDeps, userId: string, cardId: string): Promise<void> {
  const user = await repo.findCustomerOwner(db, userId);
  if (!user?.gateway_customer_id) throw notFound(CARD_NOT_FOUND, 'id');
  if (!(await gateway.detachCard(user.gateway_customer_id, cardId))) throw notFound(CARD_NOT_FOUND, 'id');
}
