import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { WebhookReceipt } from '@ampere/domain/contract/booking';
import { rawBodyAndHeader, rawBodyRoutes, route } from '../../http/route.ts';
import type { SyncDeps } from '../trips/sync.ts';
import { receiveWebhook } from './service.ts';

const WebhookParams = z.object({ provider: z.string().max(20) });

/**
 * POST /api/v1/webhooks/{provider}: the active payment provider's signed events ('stripe' or
 * 'sandbox'; the other one is a 404). The signature covers the exact bytes sent, so this route,
 * alone, keeps the body raw: its own content-type parsers live inside this encapsulated plugin and
 * every other route still parses JSON as usual.
 */
export function webhookRoutes(app: FastifyInstance, deps: SyncDeps): void {
  rawBodyRoutes(app, (scope) => {
    route(scope, {
      method: 'POST',
      url: '/api/v1/webhooks/:provider',
      tag: 'webhooks',
      limit: false,
      summary:
        "The payment provider's signed events (Stripe-Signature, or Sandbox-Signature for the built-in sandbox); each event id is applied once",
      params: WebhookParams,
      response: WebhookReceipt,
      handler: ({ params }, request) => {
        const { raw, header } = rawBodyAndHeader(request, deps.gateway.signatureHeaderName);
        return receiveWebhook(deps, params.provider, raw, header);
      },
    });
  });
}
