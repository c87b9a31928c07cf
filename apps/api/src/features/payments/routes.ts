import type { FastifyInstance } from 'fastify';
import { CardIdParams, OkResult, SavedCardList, SetupIntentResult } from '@ampere/domain/contract/account';
import { PlatformIdBody, ReservationResult, ReservationWithSecret } from '@ampere/domain/contract/booking';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { requireRenter } from '../../http/session.ts';
import { confirmAfterPayment, payForReservation } from '../trips/checkout.ts';
import type { PaymentGateway } from './gateway.ts';
import * as service from './service.ts';
import type { SyncDeps } from '../trips/sync.ts';

/** Where the browser says it has confirmed its payments with the provider (spec 7 lists the call without a path). */
export const CONFIRM_RESERVATION_PATH = '/api/v1/reservations/confirm';

/**
 * Cards, and paying for a reservation. Every call acts on the renter the session names, never on
 * an id from the request.
 */
export function paymentRoutes(
  app: FastifyInstance,
  { db, clock }: Deps,
  gateway: PaymentGateway,
  extra: Pick<SyncDeps, 'searchIndex' | 'publish' | 'afterPayment'> = {},
): void {
  const deps = { db, gateway };
  const sync: SyncDeps = { db, gateway, clock, ...extra, log: app.log };
  route(app, {
    method: 'POST',
    url: '/api/v1/payments/setup-intent',
    tag: 'payments',
    summary:
      'A setup intent for saving a card to the signed-in renter; the browser confirms it with the gateway using client_secret',
    response: SetupIntentResult,
    handler: async (_input, request) => ({
      stripe: await service.createSetupIntent(deps, (await requireRenter(db, clock, request)).id),
    }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/users/credit-cards',
    tag: 'payments',
    summary: "The signed-in renter's saved cards, newest first",
    response: SavedCardList,
    handler: async (_input, request) => ({
      cards: await service.listSavedCards(deps, (await requireRenter(db, clock, request)).id),
    }),
  });
  route(app, {
    method: 'DELETE',
    url: '/api/v1/users/credit-cards/:id',
    tag: 'payments',
    summary: "Removes one of the signed-in renter's saved cards",
    params: CardIdParams,
    response: OkResult,
    handler: async ({ params }, request) => {
      await service.deleteSavedCard(deps, (await requireRenter(db, clock, request)).id, params.id);
      return { ok: true as const };
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/payments',
    tag: 'payments',
    summary:
      "Prepares paying for one of the signed-in renter's reservations: a charge of the pending line items (net of discounts) and, on a new reservation, the deposit hold; stripe carries their client secrets (null when there is nothing to confirm)",
    body: PlatformIdBody,
    response: ReservationWithSecret,
    handler: async ({ body }, request) =>
      payForReservation(sync, (await requireRenter(db, clock, request)).id, body.platform_id),
  });
  route(app, {
    method: 'POST',
    url: CONFIRM_RESERVATION_PATH,
    tag: 'payments',
    summary:
      'Called by the browser right after it confirmed the payments with the provider: reads every payment of the reservation from the provider now (rather than waiting for the webhook) and returns the reservation, Pending once paid and its deposit held',
    body: PlatformIdBody,
    response: ReservationResult,
    handler: async ({ body }, request) =>
      confirmAfterPayment(sync, (await requireRenter(db, clock, request)).id, body.platform_id),
  });
}
