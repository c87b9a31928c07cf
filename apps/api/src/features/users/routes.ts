import type { FastifyInstance } from 'fastify';
import { ProfilePatchBody, RecentInsurance, UserResult } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

/** Every call here acts on the renter the session names; no id is ever taken from the request. */
export function userRoutes(app: FastifyInstance, { db, clock }: Deps): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/users',
    tag: 'users',
    summary: 'The signed-in renter',
    response: UserResult,
    auth: 'renter',
    handler: ({ renter }) => service.getUser(db, renter.id),
  });
  route(app, {
    method: 'PATCH',
    url: '/api/v1/users/profile',
    tag: 'users',
    summary:
      "Updates the signed-in renter's profile; fields left out stay as they are, null or '' clears an address field",
    body: ProfilePatchBody,
    response: UserResult,
    auth: 'renter',
    handler: async ({ body, renter }) => {
      const now = clock();
      // A new birthday brings each open trip's underage fee in line, with the profile, in one
      // transaction. The trips feature sits above this one: it is reached at run time, as app.trips.
      // Only a fee that changed a trip's unpaid items retired its charge: then it is canceled after commit.
      let retired = false;
      const result = await service.updateProfile(db, renter.id, body, now, async (trx) => {
        retired = await app.trips.birthdayChanged(trx, renter.id, now);
      });
      if (retired) await app.trips.cancelRetired(renter.id);
      return result;
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/users/insurance/recent',
    tag: 'users',
    summary: "The signed-in renter's latest insurance connections (newest first, at most 10)",
    response: RecentInsurance,
    auth: 'renter',
    handler: ({ renter }) => service.recentInsurance(db, renter.id),
  });
}
