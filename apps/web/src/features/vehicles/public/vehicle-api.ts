import { queryOptions } from '@tanstack/react-query';
import type { Addon, Location, Vehicle } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

export const vehicleKeys = {
  detail: (vin: string) => ['vehicles', 'detail', vin] as const,
  addons: (vin: string, pickupAt: string, returnAt: string) => ['addons', vin, pickupAt, returnAt] as const,
  returnLocations: (regionId: number) => ['locations', 'region', regionId] as const,
};

export const vehicleQueryOptions = (vin: string) =>
  queryOptions({
    queryKey: vehicleKeys.detail(vin),
    queryFn: ({ signal }) => api<Vehicle>(`/api/v1/vehicles/${encodeURIComponent(vin)}`, { signal }),
    retry: false,
  });

export const addonsQueryOptions = (vin: string, pickupAt: string, returnAt: string) =>
  queryOptions({
    queryKey: vehicleKeys.addons(vin, pickupAt, returnAt),
    queryFn: async ({ signal }) =>
      (
        await api<{ addons: Addon[] }>('/api/v1/addons/related', {
          method: 'POST',
          body: { vehicleVin: vin, pickupAt, returnAt },
          signal,
        })
      ).addons,
    staleTime: 5 * 60_000,
  });

export const returnLocationsQueryOptions = (regionId: number) =>
  queryOptions({
    queryKey: vehicleKeys.returnLocations(regionId),
    queryFn: async ({ signal }) =>
      (
        await api<{ locations: Location[] }>('/api/v1/locations/search', {
          query: { region_id: regionId, limit: 10 },
          signal,
        })
      ).locations,
    staleTime: 10 * 60_000,
  });
