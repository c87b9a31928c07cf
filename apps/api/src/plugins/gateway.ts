import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { createGateway } from '../features/payments/create-gateway.ts';
import type { PaymentGateway } from '../features/payments/gateway.ts';
import { connectSandboxWebhooks, sandboxGatewayRoutes } from '../features/payments/sandbox-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card-payment gateway: Stripe when configured, else the built-in sandbox. */
    gateway: PaymentGateway;
  }
}

/**
 * The gateway, or the one a test brings (Deps.gateway). When it is the sandbox, its browser-facing
 * routes (standing in for Stripe.js) and its webhook outbox come with it.
 */
export const gatewayPlugin = fp<Deps>(
  async (app, deps) => {
    const gateway = deps.gateway ?? createGateway(deps.config, deps.db, deps.clock);
    app.decorate('gateway', gateway);
    sandboxGatewayRoutes(app, gateway);
    const outbox = connectSandboxWebhooks(app, gateway, deps.clock);
    if (outbox) app.webhookOutboxes.push(outbox);
  },
  { name: 'gateway', dependencies: ['webhook-outboxes'] },
);
