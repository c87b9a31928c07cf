import type { FastifyInstance } from 'fastify';
import {
  LookupQuery,
  LookupResult,
  OPS_REALTIME_AUTH,
  StaffChannelAuth,
  StaffChannelAuthBody,
  TodayBoard,
  TodayQuery,
  TripIdParam,
  TripTimeline,
} from '@ampere/domain/contract/ops-day';
import { staffBoardLocation } from '@ampere/domain/day';
import type { Deps } from '../../deps.ts';
import { opsRoute } from '../../http/ops-route.ts';
import { channelAuth } from '../realtime/signature.ts';
import { lookupTrips, todayBoard, tripTimeline } from './service.ts';

/** The console's day (decision 086): the today board, the lookup and a trip's timeline. */
export function dayRoutes(scope: FastifyInstance, { db }: Deps): void {
  opsRoute(scope, {
    method: 'GET',
    url: '/today',
    summary: 'A location’s day: pickups, returns, overdue cars, low batteries and trips that need attention',
    action: 'today.read',
    query: TodayQuery,
    response: TodayBoard,
    handler: ({ query, ops }) => todayBoard(db, query.locationId, ops),
  });

  opsRoute(scope, {
    method: 'GET',
    url: '/lookup',
    summary: 'Find trips by trip id or reference, renter phone, name or email, or VIN',
    action: 'trips.read',
    auditRead: true,
    query: LookupQuery,
    response: LookupResult,
    handler: async ({ query, ops }) => {
      const result = await lookupTrips(db, query.q, ops);
      await ops.audit(db, { target: { type: 'lookup', id: query.q }, after: { found: result.items.length } });
      return result;
    },
  });

  opsRoute(scope, {
    method: 'GET',
    url: '/trips/:tripId/timeline',
    summary: 'A trip’s timeline: every event in order, with a link to the renter’s view',
    action: 'trips.read',
    auditRead: true,
    params: TripIdParam,
    response: TripTimeline,
    handler: async ({ params, ops }) => {
      const timeline = await tripTimeline(db, params.tripId, ops);
      await ops.audit(db, {
        target: { type: 'trip', id: timeline.trip.tripId },
        locationId: timeline.trip.location.id,
      });
      return timeline;
    },
  });

  // pusher-js posts its subscription as a form; only the channel auth below takes one.
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  opsRoute(scope, {
    method: 'POST',
    url: OPS_REALTIME_AUTH,
    summary: 'Sign a subscription to a location’s board channel (live updates of the today board)',
    action: 'today.read',
    body: StaffChannelAuthBody,
    response: StaffChannelAuth,
    handler: async ({ body, ops }) => {
      const locationId = staffBoardLocation(body.channel_name)!;
      ops.requireInScope(locationId, `No location ${locationId} in your locations.`);
      const { key, secret } = scope.realtime.transport;
      await ops.audit(db, {
        target: { type: 'location', id: locationId },
        locationId,
        after: { channel: body.channel_name },
      });
      return { auth: channelAuth(key, secret, body.socket_id, body.channel_name) };
    },
  });
}
