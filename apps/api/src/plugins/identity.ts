import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import type { IdentityProvider } from '../features/identity/provider.ts';
import { identityRoutes, identityTwinRoutes } from '../features/identity/routes.ts';
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

/**
 * The license check and its routes. A decision for the renter may change their trips (a birthday
 * read from the license, the key now due), so it reaches the trips door.
 */
export const identityPlugin = fp<Deps>(
  async (app, deps) => {
    const identity = deps.identity ?? createIdentityProvider(deps);
    app.decorate('identity', identity);
    identityRoutes(app, {
      db: deps.db,
      clock: deps.clock,
      provider: identity,
      publicUrl: deps.config.publicUrl,
      cancelRetired: app.trips.cancelRetired,
      afterVerification: deps.afterVerification ?? app.trips.issueKeysOfRenter,
      analytics: app.analytics,
      log: app.log,
    });
    if (identity instanceof TwinIdentityProvider) {
      identityTwinRoutes(app, identity);
      app.webhookOutboxes.push(
        identity.outbox.connect(app, deps.clock, {
          url: '/api/v1/webhooks/identity/twin',
          signatureHeader: VERIFF_SIGNATURE_HEADER,
          sign: (body) => veriffSign(identity.outbox.secret, body),
        }),
      );
    }
  },
  { name: 'identity', dependencies: ['trips', 'analytics', 'webhook-outboxes'] },
);
