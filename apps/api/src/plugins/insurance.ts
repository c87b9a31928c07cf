import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { AxleInsuranceProvider } from '../features/insurance/axle-provider.ts';
import { type InsuranceProvider, WEBHOOK_SECRET_HEADER as AXLE_SECRET_HEADER } from '../features/insurance/provider.ts';
import { TwinInsuranceProvider } from '../features/insurance/twin.ts';
import { TwinOutbox } from '../features/twins/outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Insurance connections: Axle when configured, else the built-in twin. */
    insurance: InsuranceProvider;
  }
}

/** Axle when configured, else the built-in twin. */
function createInsuranceProvider(deps: Deps): InsuranceProvider {
  if (deps.config.axle) return new AxleInsuranceProvider(deps.config.axle);
  return new TwinInsuranceProvider(
    deps.db,
    deps.clock,
    new TwinOutbox(deps.db, 'insurance', deps.config.insuranceTwinSecret),
  );
}

/** Insurance connections, or the provider a test brings (Deps.insurance); the twin's webhook outbox comes with it. */
export const insurancePlugin = fp<Deps>(
  async (app, deps) => {
    const insurance = deps.insurance ?? createInsuranceProvider(deps);
    app.decorate('insurance', insurance);
    if (insurance instanceof TwinInsuranceProvider) {
      // Axle authenticates webhooks with a custom header holding a shared secret; the twin does the same.
      app.webhookOutboxes.push(
        insurance.outbox.connect(app, deps.clock, {
          url: '/api/v1/webhooks/insurance/twin',
          signatureHeader: AXLE_SECRET_HEADER,
          sign: () => insurance.outbox.secret,
        }),
      );
    }
  },
  { name: 'insurance', dependencies: ['webhook-outboxes'] },
);
