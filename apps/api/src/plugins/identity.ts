import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import type { IdentityProvider } from '../features/identity/provider.ts';
import { TwinIdentityProvider } from '../features/identity/twin.ts';
import { VeriffIdentityProvider } from '../features/identity/veriff-provider.ts';
import {
  SIGNATURE_HEADER as VERIFF_SIGNATURE_HEADER,
  sign as veriffSign,
} from '../features/identity/veriff-webhook.ts';
import { TwinOutbox } from '../features/twins/outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The driver's-license check: Veriff when configured, else the built-in twin. */
    identity: IdentityProvider;
  }
}

/** Veriff when configured, else the built-in twin (its webhooks signed as Veriff signs them). */
function createIdentityProvider(deps: Deps): IdentityProvider {
  if (deps.config.veriff) return new VeriffIdentityProvider(deps.config.veriff);
  return new TwinIdentityProvider(
    deps.db,
    deps.clock,
    new TwinOutbox(deps.db, 'identity', deps.config.identityTwinSecret),
  );
}

/** The license check, or the one a test brings (Deps.identity); the twin's webhook outbox comes with it. */
export const identityPlugin = fp<Deps>(
  async (app, deps) => {
    const identity = deps.identity ?? createIdentityProvider(deps);
    app.decorate('identity', identity);
    if (identity instanceof TwinIdentityProvider) {
      app.webhookOutboxes.push(
        identity.outbox.connect(app, deps.clock, {
          url: '/api/v1/webhooks/identity/twin',
          signatureHeader: VERIFF_SIGNATURE_HEADER,
          sign: (body) => veriffSign(identity.outbox.secret, body),
        }),
      );
    }
  },
  { name: 'identity', dependencies: ['webhook-outboxes'] },
);
