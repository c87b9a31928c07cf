import type { FastifyInstance } from 'fastify';
import { CardIdParams, OkResult, SavedCardList, SetupIntentResult } from '@ampere/domain/contract/account';
import type { Deps } from '../../app.ts';
import { route } from '../../http/route.ts';
import { requireRenter } from '../../http/session.ts';
import type { PaymentGateway } from './gateway.ts';
import * as service from './service.ts';

/** Saving and removing cards. Every call acts on the renter the session names, never on an id from the request. */
export function paymentRoutes(app: FastifyInstance, { db, clock }: Deps, gateway: PaymentGateway): void {
  const deps = { db, gateway };
  route(app, {
    method: 'POST', url: '/api/v1/payments/setup-intent', tag: 'payments',
    summary: "A setup intent for saving a card to the signed-in renter; the browser confirms it with the gateway using client_secret",
    response: SetupIntentResult,
    handler: async (_input, request) => ({ stripe: await service.createSetupIntent(deps, (await requireRenter(db, clock, request)).id) }),
  });
  route(app, {
    method: 'GET', url: '/api/v1/users/credit-cards', tag: 'payments', summary: "The signed-in renter's saved cards, newest first",
    response: SavedCardList,
    handler: async (_input, request) => ({ cards: await service.listSavedCards(deps, (await requireRenter(db, clock, request)).id) }),
  });
  route(app, {
    method: 'DELETE', url: '/api/v1/users/credit-cards/:id', tag: 'payments', summary: "Removes one of the signed-in renter's saved cards",
    params: CardIdParams, response: OkResult,
    handler: async ({ params }, request) => {
      await service.deleteSavedCard(deps, (await requireRenter(db, clock, request)).id, params.id);
      return { ok: true as const };
    },
  });
}
