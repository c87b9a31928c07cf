import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { addonRoutes } from './features/addons/routes.ts';
import { agreementRoutes } from './features/agreements/routes.ts';
import { addressRoutes } from './features/addresses/routes.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { createSmsSender } from './features/auth/create-sms-sender.ts';
import { docsRoutes } from './features/docs/routes.ts';
import { flagRoutes } from './features/flags/routes.ts';
import { keyRoutes } from './features/keys/routes.ts';
import { locationRoutes } from './features/locations/routes.ts';
import { mediaRoutes } from './features/media/routes.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { realtimeRoutes } from './features/realtime/routes.ts';
import { receiptRoutes } from './features/receipts/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { systemRoutes, webRoutes } from './features/system/routes.ts';
import { tripsPlugin } from './features/trips/plugin.ts';
import { userRoutes } from './features/users/routes.ts';
import { vehicleRoutes } from './features/vehicles/routes.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { twinAssetRoutes } from './features/twins/page.ts';
import { installErrorHandler } from './http/errors.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installInputGuard } from './http/route.ts';
import { installSessions } from './http/session.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { analyticsPlugin } from './plugins/analytics.ts';
import { gatewayPlugin } from './plugins/gateway.ts';
import { identityPlugin } from './plugins/identity.ts';
import { insurancePlugin } from './plugins/insurance.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { searchIndexPlugin } from './plugins/search-index.ts';
import { vehicleAccessPlugin } from './plugins/vehicle-access.ts';
import { webhookOutboxesPlugin } from './plugins/webhook-outboxes.ts';

/** Trust the nearest `hops` proxies' X-Forwarded-For entries, no further. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * The app, assembled: the HTTP guards, then one plugin per provider (each decorates the instance:
 * `app.gateway`, `app.searchIndex`, ...), the trips feature (`app.trips`, decision 057), the other
 * features' routes, and the background jobs. Tests and the benchmarks bring their own providers
 * and clock through `deps`.
 */
export async function buildApp(deps: Deps, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: deps.config.logLevel } : false,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 256 * 1024,
    // The per-address limits on sign-in codes need the renter's address, not the balancer's.
    trustProxy: typeof deps.config.trustProxy === 'number' ? trustHops(deps.config.trustProxy) : deps.config.trustProxy,
  });
  installErrorHandler(app);
  installInputGuard(app);
  installSessions(app, { db: deps.db, clock: deps.clock });
  installIdempotency(app, { db: deps.db, clock: deps.clock });
  await app.register(compress, { threshold: 1024 });
  await installSecurityHeaders(app, deps.config);
  // Before any route: it holds each route, as it is added, to its request limit (decision 038).
  await installRateLimits(app, deps);
  // Providers: the built-in ones unless configured, or what a test brings in deps.
  await app.register(webhookOutboxesPlugin);
  await app.register(searchIndexPlugin, deps);
  await app.register(gatewayPlugin, deps);
  await app.register(realtimePlugin, deps);
  await app.register(vehicleAccessPlugin, deps);
  await app.register(analyticsPlugin, deps);
  // The one door to a trip's life, and the routes that act on a trip.
  await app.register(tripsPlugin, deps);
  systemRoutes(app, deps);
  searchRoutes(app, deps);
  locationRoutes(app, deps);
  vehicleRoutes(app, { ...deps, searchIndex: app.searchIndex });
  addonRoutes(app, deps);
  mediaRoutes(app, deps);
  // Signing out closes the session's realtime sockets in every process (decision 039).
  const afterSignOut = (sessionId: string) => app.realtime.closeSessionSockets(sessionId);
  authRoutes(app, { ...deps, sms: deps.sms ?? createSmsSender(deps.config, deps.db, deps.clock), afterSignOut });
  userRoutes(app, deps);
  paymentRoutes(app, deps);
  keyRoutes(app, deps);
  agreementRoutes(app, deps);
  receiptRoutes(app, deps);
  await realtimeRoutes(app, { ...deps, realtime: app.realtime });
  addressRoutes(app, deps);
  flagRoutes(app, deps);
  analyticsRoutes(app, deps);
  // What the webhooks bring payments up to date with (the trips feature's payment sync).
  webhookRoutes(app, app.trips.payments);
  twinAssetRoutes(app);
  await app.register(identityPlugin, deps);
  await app.register(insurancePlugin, deps);
  docsRoutes(app);
  await webRoutes(app, deps);
  // Last: it gathers the webhook outboxes the providers added.
  await app.register(jobsPlugin, deps);
  return app;
}
