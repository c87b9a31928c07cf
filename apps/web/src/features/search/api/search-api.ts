import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { City, SearchOption, VehicleSearchResult } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

export const searchKeys = {
  cities: ['search', 'cities'] as const,
  option: (id: number) => ['search', 'option', id] as const,
  landmarks: (id: number) => ['search', 'landmarks', id] as const,
  autocomplete: (text: string) => ['search', 'autocomplete', text] as const,
  nearestCities: (lat: number, lng: number) => ['locations', 'cities', lat, lng] as const,
  vehicles: (params: VehicleSearchParams) => ['vehicles', 'search', params] as const,
};

export const citiesQueryOptions = () =>
  queryOptions({
    queryKey: searchKeys.cities,
    queryFn: async ({ signal }) => (await api<{ options: SearchOption[] }>('/api/v1/search/cities', { signal })).options,
    staleTime: 10 * 60_000,
  });

export const searchOptionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: searchKeys.option(id),
    queryFn: ({ signal }) => api<SearchOption>(`/api/v1/search/${id}`, { signal }),
    staleTime: 10 * 60_000,
  });

export const landmarksQueryOptions = (id: number) =>
  queryOptions({
    queryKey: searchKeys.landmarks(id),
    queryFn: async ({ signal }) => (await api<{ options: SearchOption[] }>(`/api/v1/search/landmarks-near/${id}`, { signal })).options,
    staleTime: 10 * 60_000,
  });

export const autocompleteQueryOptions = (text: string) =>
  queryOptions({
    queryKey: searchKeys.autocomplete(text),
    queryFn: async ({ signal }) => (await api<{ options: SearchOption[] }>('/api/v1/search/autocomplete', { query: { query: text, limit: 5 }, signal })).options,
    staleTime: 60_000,
  });

export const nearestCitiesQueryOptions = (lat: number, lng: number) =>
  queryOptions({
    queryKey: searchKeys.nearestCities(lat, lng),
    queryFn: async ({ signal }) => (await api<{ cities: City[] }>('/api/v1/locations/cities', { query: { latitude: lat, longitude: lng }, signal })).cities,
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
        query: { pickupDate: p.pickupDate, returnDate: p.returnDate, pickupTime: p.pickupTime, returnTime: p.returnTime, model: p.model, color: p.color, limit: 100 },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
