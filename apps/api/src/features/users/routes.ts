import type { FastifyInstance } from 'fastify';
import { ProfilePatchBody, RecentInsurance, UserResult } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { requireRenter } from '../../http/session.ts';
import type { CancelRetiredCharges } from '../trips/checkout.ts';
import { syncUnderageFeesOfRenter } from '../trips/service.ts';
import * as service from './service.ts';

/** Every call here acts on the renter the session names; no id is ever taken from the request. */
export function userRoutes(
  app: FastifyInstance,
  { db, clock, cancelRetired }: Deps & { cancelRetired: CancelRetiredCharges },
): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/users',
    tag: 'users',
    summary: 'The signed-in renter',
    response: UserResult,
    handler: async (_input, request) => service.getUser(db, (await requireRenter(db, clock, request)).id),
  });
  route(app, {
    method: 'PATCH',
    url: '/api/v1/users/profile',
    tag: 'users',
    summary:
      "Updates the signed-in renter's profile; fields left out stay as they are, null or '' clears an address field",
    body: ProfilePatchBody,
    response: UserResult,
    handler: async ({ body }, request) => {
      const userId = (await requireRenter(db, clock, request)).id;
      const now = clock();
      // A new birthday brings each open trip's underage fee in line, with the profile, in one transaction.
      const result = await service.updateProfile(db, userId, body, now, (trx) =>
        syncUnderageFeesOfRenter(trx, userId, now),
      );
      await cancelRetired(userId);
      return result;
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/users/insurance/recent',
    tag: 'users',
    summary: "The signed-in renter's latest insurance connections (newest first, at most 10)",
    response: RecentInsurance,
    handler: async (_input, request) => service.recentInsurance(db, (await requireRenter(db, clock, request)).id),
  });
}
