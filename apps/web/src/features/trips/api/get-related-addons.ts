import { queryOptions } from '@tanstack/react-query';
import type { Addon } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/addons/related: the extras offered for this car and period (the damage waiver among them). */
export const getRelatedAddons = async (
  input: { vehicleVin: string; pickupAt: string; returnAt: string },
  signal?: AbortSignal,
) => (await api<{ addons: Addon[] }>('/api/v1/addons/related', { method: 'POST', body: input, signal })).addons;

export const relatedAddonsQueryOptions = (input: { vehicleVin: string; pickupAt: string; returnAt: string }) =>
  queryOptions({
    queryKey: ['addons', input.vehicleVin, input.pickupAt, input.returnAt],
    queryFn: ({ signal }) => getRelatedAddons(input, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
