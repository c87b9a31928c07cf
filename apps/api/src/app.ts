import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { addonRoutes } from './features/addons/routes.ts';
import { agreementRoutes } from './features/agreements/routes.ts';
import { addressRoutes } from './features/addresses/routes.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { docsRoutes } from './features/docs/routes.ts';
import { flagRoutes } from './features/flags/routes.ts';
import { identityRoutes, identityTwinRoutes } from './features/identity/routes.ts';
import { TwinIdentityProvider } from './features/identity/twin.ts';
import { insuranceRoutes, insuranceTwinRoutes } from './features/insurance/routes.ts';
import { TwinInsuranceProvider } from './features/insurance/twin.ts';
import { keyRoutes } from './features/keys/routes.ts';
import { locationRoutes } from './features/locations/routes.ts';
import { mediaRoutes } from './features/media/routes.ts';
import { carPhotoFileRoutes, photoRoutes } from './features/photos/routes.ts';
import { carActionRoutes } from './features/car-actions/routes.ts';
import { dayRoutes } from './features/day/routes.ts';
import { renterReviewRoutes } from './features/renter-review/routes.ts';
import { messageDevRoutes } from './features/messages/routes.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { sandboxGatewayRoutes } from './features/payments/sandbox-routes.ts';
import { realtimeRoutes } from './features/realtime/routes.ts';
import { receiptRoutes } from './features/receipts/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { systemRoutes, webRoutes } from './features/system/routes.ts';
import { tripDiscountRoutes } from './features/trips/discount-routes.ts';
import { tripKeyRoutes } from './features/trips/key-routes.ts';
import { tripPaymentRoutes } from './features/trips/payment-routes.ts';
import { reservationRoutes } from './features/trips/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { vehicleRoutes } from './features/vehicles/routes.ts';
import { simulatedFleetDevRoutes } from './features/vehicle-access/dev-routes.ts';
import { SimulatedFleet } from './features/vehicle-access/simulated-fleet.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { twinAssetRoutes } from './features/twins/page.ts';
import { installErrorHandler } from './http/errors.ts';
import { installReplyCompression } from './http/compress-replies.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installInputGuard } from './http/route.ts';
import { installSessions } from './http/session.ts';
import { installStaffSessions, opsRoutes } from './http/ops-route.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { staffRoutes } from './features/staff/routes.ts';
import { staffSignInRoutes } from './features/staff/sign-in-routes.ts';
import { opsDevRoutes, opsWebRoutes } from './features/staff/console-routes.ts';
import { fleetRoutes } from './features/fleet/routes.ts';
import { inspectionRoutes, opsInspectionRoutes } from './features/inspections/routes.ts';
import { moneyRoutes } from './features/money/routes.ts';
import { renterChargeRoutes } from './features/money/renter-routes.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { analyticsPlugin } from './plugins/analytics.ts';
import { gatewayPlugin } from './plugins/gateway.ts';
import { identityPlugin } from './plugins/identity.ts';
import { insurancePlugin } from './plugins/insurance.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { messagesPlugin } from './plugins/messages.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { searchIndexPlugin } from './plugins/search-index.ts';
import { tripsPlugin } from './plugins/trips.ts';
import { vehicleAccessPlugin } from './plugins/vehicle-access.ts';
import { webhookOutboxesPlugin } from './plugins/webhook-outboxes.ts';

/** Trust the nearest `hops` proxies' X-Forwarded-For entries, no further. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * The app, assembled: the HTTP guards, one plugin per provider (each decorates the instance:
 * `app.gateway`, `app.searchIndex`, ...) and the trips feature's door (`app.trips`, decision 057),
 * then every feature's routes, and the background jobs. Only this file imports routes. Tests and
 * the benchmarks bring their own providers and clock through `deps`.
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
  installSessions(app, { db: deps.db, clock: deps.clock, production: deps.config.production });
  installStaffSessions(app, { db: deps.db, clock: deps.clock, production: deps.config.production });
  installIdempotency(app, { db: deps.db, clock: deps.clock });
  // Answers whole in memory are compressed in one call; streams are left to the plugin (decision 102).
  installReplyCompression(app, { threshold: 1024 });
  await app.register(compress, { threshold: 1024 });
  installSecurityHeaders(app, deps.config);
  // Before any route: it holds each route, as it is added, to its request limit (decision 038).
  await installRateLimits(app, deps);
  // One plugin per provider, each a decorator (app.gateway, app.searchIndex, ...): the built-in ones
  // unless configured, or what a test brings in deps; then the one door to a trip's life, app.trips.
  await app.register(webhookOutboxesPlugin);
  await app.register(searchIndexPlugin, deps);
  await app.register(gatewayPlugin, deps);
  await app.register(realtimePlugin, deps);
  await app.register(vehicleAccessPlugin, deps);
  await app.register(analyticsPlugin, deps);
  await app.register(identityPlugin, deps);
  await app.register(insurancePlugin, deps);
  await app.register(messagesPlugin, deps);
  await app.register(tripsPlugin, deps);
  // The routes, which read what they need from the instance.
  systemRoutes(app, deps);
  searchRoutes(app, deps);
  locationRoutes(app, deps);
  vehicleRoutes(app, { ...deps, searchIndex: app.searchIndex });
  reservationRoutes(app);
  tripPaymentRoutes(app);
  tripKeyRoutes(app);
  tripDiscountRoutes(app);
  addonRoutes(app, deps);
  mediaRoutes(app, deps);
  carPhotoFileRoutes(app, deps);
  inspectionRoutes(app, deps);
  // Signing out closes the session's realtime sockets in every process (decision 039).
  const afterSignOut = (sessionId: string) => app.realtime.closeSessionSockets(sessionId);
  authRoutes(app, { ...deps, sms: app.sms, afterSignOut });
  messageDevRoutes(app, deps);
  userRoutes(app, deps);
  paymentRoutes(app, deps);
  sandboxGatewayRoutes(app, app.gateway);
  keyRoutes(app, deps);
  if (deps.testClock && app.vehicleAccess instanceof SimulatedFleet) simulatedFleetDevRoutes(app, app.vehicleAccess);
  agreementRoutes(app, deps);
  receiptRoutes(app, deps);
  renterChargeRoutes(app, deps);
  await realtimeRoutes(app, { ...deps, realtime: app.realtime });
  addressRoutes(app, deps);
  flagRoutes(app, deps);
  analyticsRoutes(app, deps);
  // What the webhooks bring payments up to date with (the trips feature's payment sync).
  webhookRoutes(app, app.trips.payments);
  twinAssetRoutes(app);
  // A license or insurance decision may change the renter's trips (a birthday read from the
  // license, the key now due): through the trips door.
  const afterVerification = deps.afterVerification ?? app.trips.issueKeysOfRenter;
  const verificationDeps = { db: deps.db, clock: deps.clock, publicUrl: deps.config.publicUrl };
  identityRoutes(app, {
    ...verificationDeps,
    provider: app.identity,
    cancelRetired: app.trips.cancelRetired,
    afterVerification,
    analytics: app.analytics,
    log: app.log,
  });
  if (app.identity instanceof TwinIdentityProvider) identityTwinRoutes(app, app.identity);
  insuranceRoutes(app, {
    ...verificationDeps,
    provider: app.insurance,
    realtime: app.realtime,
    afterVerification,
    analytics: app.analytics,
    log: app.log,
  });
  if (app.insurance instanceof TwinInsuranceProvider) insuranceTwinRoutes(app, app.insurance);
  // Staff sign-in (a code, then a passkey), outside the console's door: the caller is not signed in yet.
  staffSignInRoutes(app, { db: deps.db, clock: deps.clock, config: deps.config, sms: app.sms });
  if (deps.testClock) opsDevRoutes(app, deps);
  // The operator console's calls, each checked against the staff permission matrix and audited.
  opsRoutes(app, (scope) => {
    auditRoutes(scope);
    staffRoutes(scope, { sms: app.sms, config: deps.config });
    fleetRoutes(scope, { db: deps.db, searchIndex: app.searchIndex });
    photoRoutes(scope, deps);
    dayRoutes(scope, deps);
    carActionRoutes(scope, deps);
    opsInspectionRoutes(scope, deps);
    renterReviewRoutes(scope, { db: deps.db, afterVerification, messages: app.messages });
    moneyRoutes(scope, deps);
  });
  docsRoutes(app);
  // The console's own build under /ops, before the renter app's catch-all.
  await opsWebRoutes(app, deps);
  await webRoutes(app, deps);
  // Last: it gathers the webhook outboxes the providers added.
  await app.register(jobsPlugin, deps);
  return app;
}
