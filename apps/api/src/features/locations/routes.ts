import type { FastifyInstance } from 'fastify';
import {
  CitiesQuery,
  CityList,
  LocationList,
  LocationListQuery,
  LocationSearchQuery,
  LocationSearchResult,
} from '@ampere/domain/contract/catalog';
import type { Deps } from '../../deps.ts';
import { invalid } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

export function locationRoutes(app: FastifyInstance, { db }: Deps): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/locations/search',
    tag: 'locations',
    summary: 'Pickup locations matching text, optionally within a region',
    query: LocationSearchQuery,
    response: LocationSearchResult,
    handler: async ({ query }) => ({
      locations: await service.searchLocations(db, {
        text: query.query,
        regionId: query.region_id,
        limit: query.limit,
      }),
    }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/locations/cities',
    tag: 'locations',
    summary: 'Cities served, nearest first when coordinates are given',
    query: CitiesQuery,
    response: CityList,
    handler: async ({ query }) => {
      if ((query.latitude === undefined) !== (query.longitude === undefined)) {
        throw invalid(
          'latitude and longitude must be given together',
          query.latitude === undefined ? 'latitude' : 'longitude',
        );
      }
      const from =
        query.latitude !== undefined && query.longitude !== undefined
          ? { latitude: query.latitude, longitude: query.longitude }
          : undefined;
      return { cities: await service.cities(db, from) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/locations',
    tag: 'locations',
    summary: 'Pickup locations, a page at a time',
    query: LocationListQuery,
    response: LocationList,
    handler: async ({ query }) =>
      service.pageLocations(db, { regionId: query.region_id, page: query.page, size: query.size }),
  });
}
