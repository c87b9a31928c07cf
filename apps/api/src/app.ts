import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from './clock.ts';
import type { Deps } from './deps.ts';
import type { Database } from './db/schema.ts';
import { addonRoutes } from './features/addons/routes.ts';
import { agreementRoutes } from './features/agreements/routes.ts';
import { addressRoutes } from './features/addresses/routes.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { createAnalyticsSink } from './features/analytics/sink.ts';
import { authRoutes } from './features/auth/routes.ts';
import { createSmsSender } from './features/auth/create-sms-sender.ts';
import { discountRoutes } from './features/discounts/routes.ts';
import { docsRoutes } from './features/docs/routes.ts';
import { flagRoutes } from './features/flags/routes.ts';
import { locationRoutes } from './features/locations/routes.ts';
import { mediaRoutes } from './features/media/routes.ts';
import { createGateway } from './features/payments/create-gateway.ts';
import { type CancelRetiredCharges, cancelRetiredCharges } from './features/trips/checkout.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { type SyncDeps, makeDueRefunds } from './features/trips/sync.ts';
import { connectSandboxWebhooks, sandboxGatewayRoutes } from './features/payments/sandbox-routes.ts';
import type { SandboxWebhookDeliverer } from './features/payments/sandbox-deliverer.ts';
import { realtimeRoutes } from './features/realtime/routes.ts';
import { receiptRoutes } from './features/receipts/routes.ts';
import { reservationRoutes } from './features/trips/routes.ts';
import { type Realtime, createRealtime } from './features/realtime/service.ts';
import { pruneSocketSessions } from './features/realtime/repository.ts';
import { SESSION_TTL_MINUTES } from '@ampere/domain/account';
import { searchRoutes } from './features/search/routes.ts';
import { systemRoutes, webRoutes } from './features/system/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { vehicleRoutes } from './features/vehicles/routes.ts';
import { SearchIndex } from './features/vehicles/search-index.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { identityRoutes, identityTwinRoutes } from './features/identity/routes.ts';
import type { IdentityProvider } from './features/identity/provider.ts';
import { TwinIdentityProvider } from './features/identity/twin.ts';
import { VeriffIdentityProvider } from './features/identity/veriff-provider.ts';
import { SIGNATURE_HEADER as VERIFF_SIGNATURE_HEADER, sign as veriffSign } from './features/identity/veriff-webhook.ts';
import { AxleInsuranceProvider } from './features/insurance/axle-provider.ts';
import type { InsuranceProvider } from './features/insurance/provider.ts';
import { WEBHOOK_SECRET_HEADER as AXLE_SECRET_HEADER } from './features/insurance/provider.ts';
import { insuranceRoutes, insuranceTwinRoutes } from './features/insurance/routes.ts';
import { TwinInsuranceProvider } from './features/insurance/twin.ts';
import { keyRoutes } from './features/keys/routes.ts';
import { issueKeyIfReady, issueKeysOfRenter } from './features/keys/service.ts';
import type { VehicleAccess } from './features/vehicle-access/provider.ts';
import { simulatedFleetDevRoutes } from './features/vehicle-access/dev-routes.ts';
import { SimulatedFleet } from './features/vehicle-access/simulated-fleet.ts';
import { SmartcarAccess } from './features/vehicle-access/smartcar.ts';
import { twinAssetRoutes } from './features/twins/page.ts';
import { TwinOutbox } from './features/twins/outbox.ts';
import { installErrorHandler } from './http/errors.ts';
import { installIdempotency, pruneIdempotencyKeys } from './http/idempotency.ts';
import { type Job, JobRunner } from './jobs/queue.ts';
import { expireUnpaidHolds } from './features/trips/expire-holds.ts';
import { advanceTripStatus } from './features/trips/trip-status.ts';
import { recordRideStarts, settleReturnedDeposits } from './features/trips/end-trip.ts';
import { expireUnpaidChanges } from './features/trips/change-dates.ts';
import { reauthorizeDepositHolds } from './features/trips/reauthorize.ts';
import { settleMoneyOwed } from './features/trips/outbox-sweep.ts';
import { installInputGuard } from './http/route.ts';
import { installSessions } from './http/session.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { pruneRateLimitWindows } from './http/rate-limit-windows.ts';

/** Trust the nearest `hops` proxies' X-Forwarded-For entries, no further. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

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
  systemRoutes(app, deps);
  searchRoutes(app, deps);
  locationRoutes(app, deps);
  const searchIndex =
    deps.searchIndex ??
    new SearchIndex(deps.db, deps.clock, { maxStalenessMs: deps.config.searchMaxStalenessMs, fleetReloadMs: 60_000 });
  vehicleRoutes(app, { ...deps, searchIndex });
  const gateway = deps.gateway ?? createGateway(deps.config, deps.db, deps.clock);
  // Changing a trip's line items retires its unpaid charge; this cancels it at the provider after commit.
  const cancelRetired: CancelRetiredCharges = async (userId) =>
    void (await cancelRetiredCharges({ db: deps.db, gateway, clock: deps.clock, log: app.log }, { userId }));
  // Cancelling a trip refunds what it was charged, after commit, through the refund outbox (decision 018).
  const refundDue = async (reservationId: string) =>
    void (await makeDueRefunds({ db: deps.db, gateway, clock: deps.clock, searchIndex, log: app.log }, reservationId));
  discountRoutes(app, { ...deps, cancelRetired });
  addonRoutes(app, deps);
  mediaRoutes(app, deps);
  // Features that push to a renter's open pages (payments, insurance) take this `realtime`.
  const realtime = deps.realtime ?? createRealtime(deps.config, deps.db, app.log);
  // Signing out closes the session's realtime sockets in every process (decision 039).
  const afterSignOut = (sessionId: string) => realtime.closeSessionSockets(sessionId);
  authRoutes(app, { ...deps, sms: deps.sms ?? createSmsSender(deps.config, deps.db, deps.clock), afterSignOut });
  userRoutes(app, { ...deps, cancelRetired });
  agreementRoutes(app, deps);
  receiptRoutes(app, deps);
  await realtimeRoutes(app, { ...deps, realtime });
  addressRoutes(app, deps);
  flagRoutes(app, deps);
  analyticsRoutes(app, deps);
  // Server-side analytics events (decision 033): license approved, policy connected, trip paid and verified.
  const analytics = createAnalyticsSink(deps.db);
  const keyDeps = { db: deps.db, clock: deps.clock, analytics, log: app.log };
  // Payments confirm reservations (search must see it), tell the renter's open pages, and may complete what a key needs.
  const afterPayment = async (reservationId: string) => void (await issueKeyIfReady(keyDeps, reservationId));
  const paymentEffects = { searchIndex, publish: realtime.publish.bind(realtime), afterPayment };
  paymentRoutes(app, deps, gateway, paymentEffects);
  sandboxGatewayRoutes(app, gateway);
  // What the webhooks, End Trip and the payment jobs bring payments up to date with.
  const paymentSync: SyncDeps = { db: deps.db, gateway, clock: deps.clock, ...paymentEffects, log: app.log };
  webhookRoutes(app, paymentSync);
  // The built-in providers' webhook outboxes, delivered by the job queue when automatic (decision 025).
  const outboxes: SandboxWebhookDeliverer[] = [];
  const sandboxOutbox = connectSandboxWebhooks(app, gateway, deps.clock);
  if (sandboxOutbox) outboxes.push(sandboxOutbox);
  twinAssetRoutes(app);
  const afterVerification =
    deps.afterVerification ?? (async (userId: string) => void (await issueKeysOfRenter(keyDeps, userId)));
  const vehicleAccess =
    deps.vehicleAccess ??
    (deps.config.smartcar
      ? new SmartcarAccess(deps.config.smartcar, deps.clock)
      : new SimulatedFleet(deps.db, deps.clock));
  reservationRoutes(app, {
    ...deps,
    searchIndex,
    cancelRetired,
    refundDue,
    endTripDeps: {
      db: deps.db,
      clock: deps.clock,
      access: vehicleAccess,
      payments: paymentSync,
      searchIndex,
      cancelRetired,
      log: app.log,
    },
  });
  keyRoutes(app, { db: deps.db, clock: deps.clock, access: vehicleAccess, log: app.log });
  if (deps.testClock && vehicleAccess instanceof SimulatedFleet) simulatedFleetDevRoutes(app, vehicleAccess);
  const identity = deps.identity ?? createIdentityProvider(deps);
  identityRoutes(app, {
    db: deps.db,
    clock: deps.clock,
    provider: identity,
    publicUrl: deps.config.publicUrl,
    cancelRetired,
    afterVerification,
    analytics,
    log: app.log,
  });
  if (identity instanceof TwinIdentityProvider) {
    identityTwinRoutes(app, identity);
    outboxes.push(
      identity.outbox.connect(app, deps.clock, {
        url: '/api/v1/webhooks/identity/twin',
        signatureHeader: VERIFF_SIGNATURE_HEADER,
        sign: (body) => veriffSign(identity.outbox.secret, body),
      }),
    );
  }
  const insurance = deps.insurance ?? createInsuranceProvider(deps);
  insuranceRoutes(app, {
    db: deps.db,
    clock: deps.clock,
    provider: insurance,
    publicUrl: deps.config.publicUrl,
    realtime,
    afterVerification,
    analytics,
    log: app.log,
  });
  if (insurance instanceof TwinInsuranceProvider) {
    insuranceTwinRoutes(app, insurance);
    // Axle authenticates webhooks with a custom header holding a shared secret; the twin does the same.
    outboxes.push(
      insurance.outbox.connect(app, deps.clock, {
        url: '/api/v1/webhooks/insurance/twin',
        signatureHeader: AXLE_SECRET_HEADER,
        sign: () => insurance.outbox.secret,
      }),
    );
  }
  docsRoutes(app);
  await webRoutes(app, deps);
  // Background work (decision 025): in this process unless a separate worker runs it.
  const delivered = deps.config.sandbox.deliverWebhooks ? outboxes : [];
  const jobs = new JobRunner(
    deps.db,
    backgroundJobs({
      db: deps.db,
      clock: deps.clock,
      searchIndex,
      cancelRetired,
      realtime,
      access: vehicleAccess,
      payments: paymentSync,
      log: app.log,
      outboxes: delivered,
    }),
    app.log,
  );
  // A new event (or a retry falling due) asks the queue for a delivery pass that soon.
  for (const outbox of delivered) outbox.deliverAutomatically((delayMs) => jobs.wake(DELIVER_WEBHOOKS, delayMs));
  if (deps.config.jobs === 'in-process') {
    app.addHook('onReady', async () => {
      await jobs.start();
      // Events written before this start (a restart, another process) go out now, not at the next minute.
      if (delivered.length > 0) jobs.wake(DELIVER_WEBHOOKS, 0);
    });
    app.addHook('onClose', () => jobs.stop());
  }
  app.decorate('jobs', jobs);
  return app;
}

/** The job that delivers the built-in providers' webhooks: each minute, and when woken by a new event. */
const DELIVER_WEBHOOKS = 'deliver-webhooks';

/** The jobs and when they run. */
function backgroundJobs(deps: {
  db: Kysely<Database>;
  clock: Clock;
  searchIndex: SearchIndex;
  cancelRetired: CancelRetiredCharges;
  realtime: Realtime;
  access: VehicleAccess;
  payments: SyncDeps;
  log: FastifyInstance['log'];
  outboxes: readonly SandboxWebhookDeliverer[];
}): Job[] {
  // A job that changed a renter's trip tells their open pages to reload it.
  const refresh = (userId: string) => deps.realtime.publish(userId, 'REFRESH');
  return [
    {
      name: DELIVER_WEBHOOKS,
      cron: '* * * * *',
      run: async () => {
        for (const outbox of deps.outboxes) await outbox.deliverDuePass();
      },
    },
    {
      name: 'expire-unpaid-holds',
      cron: '* * * * *',
      run: async () => {
        await expireUnpaidHolds({ ...deps, publish: refresh });
        // Changes of dates not paid for lapse the same way (decision 027).
        await expireUnpaidChanges({ ...deps, publish: refresh });
      },
    },
    {
      name: 'advance-trip-status',
      cron: '* * * * *',
      run: async () => {
        // Each renter whose trip changed hears REFRESH once, after every step: the page it reloads
        // then shows the trip On Rent with its Vehicle metrics, or its deposit settled.
        const changed = new Set<string>();
        const note = async (userId: string) => void changed.add(userId);
        await advanceTripStatus({ ...deps, publish: note });
        // Trips gone On Rent get their ride (the car's reading as it goes out); returned trips
        // whose deposit was not settled (a failed or cut-off call) are settled.
        await recordRideStarts({ ...deps, publish: note });
        await settleReturnedDeposits(deps.payments, note);
        for (const userId of changed) await refresh(userId);
      },
    },
    // Refunds, and charge and hold cancellations, a request could not finish at the provider.
    {
      name: 'settle-money-owed',
      cron: '*/5 * * * *',
      run: async () => void (await settleMoneyOwed(deps.payments, refresh)),
    },
    // Deposit holds outlive no card network's authorisation window (decision 028).
    {
      name: 'reauthorize-deposit-holds',
      cron: '23 * * * *',
      run: async () => void (await reauthorizeDepositHolds(deps.payments, refresh)),
    },
    { name: 'prune-idempotency-keys', cron: '17 * * * *', run: () => pruneIdempotencyKeys(deps.db, deps.clock()) },
    // Request-limit windows that have ended (decision 038).
    { name: 'prune-rate-limit-windows', cron: '*/10 * * * *', run: () => pruneRateLimitWindows(deps.db, deps.clock()) },
    // Which session signed a socket matters only while sessions last (a day); decision 039.
    {
      name: 'prune-socket-sessions',
      cron: '41 * * * *',
      run: () => pruneSocketSessions(deps.db, new Date(deps.clock().getTime() - SESSION_TTL_MINUTES * 60_000)),
    },
  ];
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

/** Axle when configured, else the built-in twin. */
function createInsuranceProvider(deps: Deps): InsuranceProvider {
  if (deps.config.axle) return new AxleInsuranceProvider(deps.config.axle);
  return new TwinInsuranceProvider(
    deps.db,
    deps.clock,
    new TwinOutbox(deps.db, 'insurance', deps.config.insuranceTwinSecret),
  );
}
