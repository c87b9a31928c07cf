import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { type Trips, createTrips } from '../features/trips/trips.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one door to a trip's life (features/trips/trips.ts, decision 057). */
    trips: Trips;
  }
}

/** `app.trips`, made from the database, the clock and the providers decorated before it. */
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
        messages: app.messages,
        log: app.log,
      }),
    );
  },
  { name: 'trips', dependencies: ['gateway', 'search-index', 'vehicle-access', 'realtime', 'analytics', 'messages'] },
);
