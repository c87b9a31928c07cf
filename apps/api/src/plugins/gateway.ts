import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { createGateway } from '../features/payments/create-gateway.ts';
import type { PaymentGateway } from '../features/payments/gateway.ts';
import { connectSandboxWebhooks } from '../features/payments/sandbox-webhooks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card-payment gateway: Stripe when configured, else the built-in sandbox. */
    gateway: PaymentGateway;
  }
}

/** The gateway, or the one a test brings (Deps.gateway); when it is the sandbox, its webhook outbox comes with it. */
export const gatewayPlugin = fp<Deps>(
  async (app, deps) => {
    const gateway = deps.gateway ?? createGateway(deps.config, deps.db, deps.clock);
    app.decorate('gateway', gateway);
    const outbox = connectSandboxWebhooks(app, gateway, deps.clock);
    if (outbox) app.webhookOutboxes.push(outbox);
  },
  { name: 'gateway', dependencies: ['webhook-outboxes'] },
);
