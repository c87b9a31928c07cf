import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { simulatedFleetDevRoutes } from '../features/vehicle-access/dev-routes.ts';
import type { VehicleAccess } from '../features/vehicle-access/provider.ts';
import { SimulatedFleet } from '../features/vehicle-access/simulated-fleet.ts';
import { SmartcarAccess } from '../features/vehicle-access/smartcar.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Locking and reading the cars: Smartcar when configured, else the simulated fleet. */
    vehicleAccess: VehicleAccess;
  }
}

/** The cars, or the access a test brings (Deps.vehicleAccess); with the development clock, the simulated fleet's own routes. */
export const vehicleAccessPlugin = fp<Deps>(
  async (app, deps) => {
    const access =
      deps.vehicleAccess ??
      (deps.config.smartcar
        ? new SmartcarAccess(deps.config.smartcar, deps.clock)
        : new SimulatedFleet(deps.db, deps.clock));
    app.decorate('vehicleAccess', access);
    if (deps.testClock && access instanceof SimulatedFleet) simulatedFleetDevRoutes(app, access);
  },
  { name: 'vehicle-access' },
);
