import type { FastifyInstance } from 'fastify';
import {
  Vehicle,
  VehicleModelList,
  VehicleParams,
  VehicleSearchParams,
  VehicleSearchQuery,
  VehicleSearchResult,
} from '@ampere/domain/contract/catalog';
import type { Deps } from '../../deps.ts';
import { PreSerialized, route } from '../../http/route.ts';
import type { SearchIndex } from './search-index.ts';
import * as service from './service.ts';

export function vehicleRoutes(
  app: FastifyInstance,
  { db, clock, searchIndex }: Deps & { searchIndex: SearchIndex },
): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/vehicles/search/:searchQueryId',
    tag: 'vehicles',
    summary:
      'Vehicles free for the whole period near a search location (dates and times in that location’s zone), nearest first',
    params: VehicleSearchParams,
    query: VehicleSearchQuery,
    response: VehicleSearchResult,
    handler: async ({ params, query }) =>
      new PreSerialized(await service.searchVehiclesJson(searchIndex, params.searchQueryId, query, clock())),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/vehicles/:id',
    tag: 'vehicles',
    summary:
      "One vehicle by VIN, with its availability by date; signed in, the renter's own unpaid booking of it is not counted as taken and comes back as own_booking",
    params: VehicleParams,
    response: Vehicle,
    auth: 'optional',
    handler: ({ params, renter }, _request, reply) => {
      // An answer about one renter's bookings is theirs alone.
      if (renter) reply.header('cache-control', 'private, no-store');
      return service.getVehicle(db, params.id, clock(), renter?.id ?? null);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/vehicle_models',
    tag: 'vehicles',
    summary: 'The models in the fleet',
    response: VehicleModelList,
    handler: async () => ({ models: await service.listModels(db) }),
  });
}
