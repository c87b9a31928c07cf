import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { City, VehicleSearchResult } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

export const searchKeys = {
  nearestCities: (lat: number, lng: number) => ['locations', 'cities', lat, lng] as const,
  vehicles: (params: VehicleSearchParams) => ['vehicles', 'search', params] as const,
};

export const nearestCitiesQueryOptions = (lat: number, lng: number) =>
  queryOptions({
    queryKey: searchKeys.nearestCities(lat, lng),
    queryFn: async ({ signal }) =>
      (await api<{ cities: City[] }>('/api/v1/locations/cities', { query: { latitude: lat, longitude: lng }, signal }))
        .cities,
  });

export interface VehicleSearchParams {
  searchQueryId: number;
  pickupDate: string;
  returnDate: string;
  pickupTime: string;
  returnTime: string;
  model?: string | undefined;
  color?: string | undefined;
}

export const vehicleSearchQueryOptions = (p: VehicleSearchParams) =>
  queryOptions({
    queryKey: searchKeys.vehicles(p),
    queryFn: ({ signal }) =>
      api<VehicleSearchResult>(`/api/v1/vehicles/search/${p.searchQueryId}`, {
        query: {
          pickupDate: p.pickupDate,
          returnDate: p.returnDate,
          pickupTime: p.pickupTime,
          returnTime: p.returnTime,
          model: p.model,
          color: p.color,
          limit: 100,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
