import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { tripDiscountRoutes } from './discount-routes.ts';
import { tripKeyRoutes } from './key-routes.ts';
import { tripPaymentRoutes } from './payment-routes.ts';
import { reservationRoutes } from './routes.ts';
import { type Trips, createTrips } from './trips.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one door to a trip's life (features/trips/trips.ts). */
    trips: Trips;
  }
}

/**
 * The trips feature: `app.trips`, made from the database, the clock and the providers the app
 * decorates before it, and the routes that act on a trip (their URLs are the API's since spec 7:
 * reservations, paying, the key's actions, a coupon).
 */
export const tripsPlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate(
      'trips',
      createTrips({
        db: deps.db,
        clock: deps.clock,
        gateway: app.gateway,
        searchIndex: app.searchIndex,
        access: app.vehicleAccess,
        realtime: app.realtime,
        analytics: app.analytics,
        log: app.log,
      }),
    );
    reservationRoutes(app);
    tripPaymentRoutes(app);
    tripKeyRoutes(app);
    tripDiscountRoutes(app);
  },
  { name: 'trips', dependencies: ['gateway', 'search-index', 'vehicle-access', 'realtime', 'analytics'] },
);
