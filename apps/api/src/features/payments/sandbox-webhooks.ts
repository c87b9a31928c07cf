import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { PaymentGateway } from './gateway.ts';
import { SandboxWebhookDeliverer, injectSender } from './sandbox-deliverer.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

/**
 * Connects the sandbox's outbox to this app's own webhook endpoint, delivered in-process with
 * app.inject (no network), signed as Stripe signs. The app's job queue drives the deliveries
 * (decision 025) when delivery is automatic; with SANDBOX_WEBHOOKS=off nothing is sent until
 * someone calls gateway.deliverPendingEvents() — tests that control the order and timing of events
 * do that. Returns the deliverer, or null when the gateway is not the sandbox.
 */
export function connectSandboxWebhooks(
  app: FastifyInstance,
  gateway: PaymentGateway,
  clock: Clock,
): SandboxWebhookDeliverer | null {
  if (!(gateway instanceof SandboxGateway)) return null;
  const send = injectSender(app, '/api/v1/webhooks/sandbox', 'sandbox-signature');
  const deliverer = new SandboxWebhookDeliverer(gateway.db, send, gateway.webhookSecret, clock, { log: app.log });
  gateway.useDeliverer(deliverer);
  return deliverer;
}
