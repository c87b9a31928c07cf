import fp from 'fastify-plugin';
import type { SandboxWebhookDeliverer } from '../features/payments/sandbox-deliverer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The built-in providers' webhook outboxes (the sandbox gateway's, the identity and insurance
     * twins'): each plugin that makes a built-in provider adds its own; the job queue delivers them
     * when delivery is automatic (decision 025).
     */
    webhookOutboxes: SandboxWebhookDeliverer[];
  }
}

export const webhookOutboxesPlugin = fp(
  async (app) => {
    app.decorate('webhookOutboxes', []);
  },
  { name: 'webhook-outboxes' },
);
