import type { FastifyInstance } from 'fastify';
import { AcceptedResult, AnalyticsBatchBody } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

/** 50 events with their properties fit easily; the browser's keepalive send is capped at 64 KB anyway. */
export const EVENTS_BODY_LIMIT = 32 * 1024;

export function analyticsRoutes(app: FastifyInstance, { clock }: Deps): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/events',
    tag: 'analytics',
    status: 202,
    limit: 'events',
    bodyLimit: EVENTS_BODY_LIMIT,
    summary:
      'Records analytics events, linked to the renter when signed in (an unknown or expired session records them anonymously)',
    body: AnalyticsBatchBody,
    response: AcceptedResult,
    auth: 'optional',
    handler: ({ body, renter }) => service.recordBatch(app.analytics, body, renter?.id ?? null, clock()),
  });
}
