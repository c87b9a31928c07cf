import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import type { VehicleAccess } from '../features/vehicle-access/provider.ts';
import { SimulatedFleet } from '../features/vehicle-access/simulated-fleet.ts';
import { SmartcarAccess } from '../features/vehicle-access/smartcar.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Locking and reading the cars: Smartcar when configured, else the simulated fleet. */
    vehicleAccess: VehicleAccess;
  }
}

/** The cars, or the access a test brings (Deps.vehicleAccess). */
export const vehicleAccessPlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate(
      'vehicleAccess',
      deps.vehicleAccess ??
        (deps.config.smartcar
          ? new SmartcarAccess(deps.config.smartcar, deps.clock)
          : new SimulatedFleet(deps.db, deps.clock)),
    );
  },
  { name: 'vehicle-access' },
);
