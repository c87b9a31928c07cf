import type { FastifyInstance } from 'fastify';
import { CardIdParams, OkResult, SavedCardList, SetupIntentResult } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

/**
 * The renter's saved cards, through the app's `gateway`. Every call acts on the renter the session
 * names, never on an id from the request. (Paying for a trip is the trips feature's.)
 */
export function paymentRoutes(app: FastifyInstance, { db }: Deps): void {
  const deps = { db, gateway: app.gateway };
  route(app, {
    method: 'POST',
    url: '/api/v1/payments/setup-intent',
    tag: 'payments',
    summary:
      'A setup intent for saving a card to the signed-in renter; the browser confirms it with the gateway using client_secret',
    response: SetupIntentResult,
    auth: 'renter',
    handler: async ({ renter }) => ({ stripe: await service.createSetupIntent(deps, renter.id) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/users/credit-cards',
    tag: 'payments',
    summary: "The signed-in renter's saved cards, newest first",
    response: SavedCardList,
    auth: 'renter',
    handler: async ({ renter }) => ({ cards: await service.listSavedCards(deps, renter.id) }),
  });
  route(app, {
    method: 'DELETE',
    url: '/api/v1/users/credit-cards/:id',
    tag: 'payments',
    summary: "Removes one of the signed-in renter's saved cards",
    params: CardIdParams,
    response: OkResult,
    auth: 'renter',
    handler: async ({ params, renter }) => {
      await service.deleteSavedCard(deps, renter.id, params.id);
      return { ok: true as const };
    },
  });
}
