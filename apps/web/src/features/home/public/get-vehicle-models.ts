import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VehicleModel } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

export const vehicleModelKeys = { all: ['vehicle_models'] as const };

/** GET /api/v1/vehicle_models: the models in the fleet, each with a picture (spec 7). */
export const getVehicleModels = async (signal?: AbortSignal) =>
  (await api<{ models: VehicleModel[] }>('/api/v1/vehicle_models', { signal })).models;

export const vehicleModelsQueryOptions = () =>
  queryOptions({
    queryKey: vehicleModelKeys.all,
    queryFn: ({ signal }) => getVehicleModels(signal),
    staleTime: 10 * 60_000,
  });

export const useVehicleModels = () => useQuery(vehicleModelsQueryOptions());
