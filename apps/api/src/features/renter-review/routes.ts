import type { FastifyInstance } from 'fastify';
import {
  CheckParams,
  DoNotRentBody,
  DoNotRentList,
  DoNotRentListing,
  LiftBody,
  RenterIdParam,
  RenterPage,
  Review,
  ReviewBody,
  ReviewQueue,
  StaffTextBody,
  StaffTextSent,
} from '@ampere/domain/contract/ops-renters';
import { opsRoute } from '../../http/ops-route.ts';
import {
  type RenterReviewDeps,
  addToDoNotRent,
  decideCheck,
  doNotRentList,
  liftDoNotRent,
  renterPage,
  reviewQueue,
  sendStaffText,
} from './service.ts';

/** The console's renters (decisions 094 and 095): the review queue, the do-not-rent list, a renter's page and a text. */
export function renterReviewRoutes(scope: FastifyInstance, deps: RenterReviewDeps): void {
  const { db } = deps;

  opsRoute(scope, {
    method: 'GET',
    url: '/renters/review-queue',
    summary: 'License checks and insurance connections that did not pass, waiting for a staff decision',
    action: 'verifications.review',
    response: ReviewQueue,
    handler: ({ ops }) => reviewQueue(db, ops),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/renters/checks/:subject/:checkId/review',
    summary: 'Approve a flagged check, override a failed one with a reason, or uphold it',
    action: 'verifications.review',
    params: CheckParams,
    body: ReviewBody,
    response: Review,
    handler: ({ params, body, ops }) => decideCheck(deps, ops, params.subject, params.checkId, body),
  });

  opsRoute(scope, {
    method: 'GET',
    url: '/renters/do-not-rent',
    summary: 'The do-not-rent list: renters who cannot book until their listing expires or is lifted',
    action: 'trips.read',
    auditRead: true,
    response: DoNotRentList,
    handler: async ({ ops }) => {
      const list = await doNotRentList(db, ops);
      await ops.audit(db, { target: { type: 'do_not_rent', id: 'list' }, after: { listed: list.items.length } });
      return list;
    },
  });

  opsRoute(scope, {
    method: 'GET',
    url: '/renters/:renterId',
    summary: 'A renter’s page: trips, verifications with their reviews, messages, charges and do-not-rent status',
    action: 'trips.read',
    auditRead: true,
    params: RenterIdParam,
    response: RenterPage,
    handler: async ({ params, ops }) => {
      const page = await renterPage(db, ops, params.renterId);
      await ops.audit(db, { target: { type: 'renter', id: params.renterId } });
      return page;
    },
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/renters/:renterId/do-not-rent',
    summary: 'Put a renter on the do-not-rent list, with a reason and an expiry',
    action: 'donotrent.edit',
    params: RenterIdParam,
    body: DoNotRentBody,
    response: DoNotRentListing,
    handler: ({ params, body, ops }) => addToDoNotRent(db, ops, params.renterId, body),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/renters/:renterId/do-not-rent/lift',
    summary: 'Lift a renter off the do-not-rent list now',
    action: 'donotrent.edit',
    params: RenterIdParam,
    body: LiftBody,
    response: DoNotRentListing,
    handler: ({ params, body, ops }) => liftDoNotRent(db, ops, params.renterId, body),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/renters/:renterId/texts',
    summary: 'Send the renter a one-off text about one of their trips',
    action: 'renters.message',
    params: RenterIdParam,
    body: StaffTextBody,
    response: StaffTextSent,
    handler: ({ params, body, ops }) => sendStaffText(deps, ops, params.renterId, body),
  });
}
