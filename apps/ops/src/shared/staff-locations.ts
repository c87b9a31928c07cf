import { queryOptions } from '@tanstack/react-query';
import type { LocationsList } from '@ampere/domain/contract/ops-fleet';
import type { z } from 'zod';
import { api } from './api.ts';

export type StaffLocation = z.infer<typeof LocationsList>['locations'][number];

/** The locations the signed-in staff member works at (every one for an owner), with their clocks and instructions. */
export const staffLocationsQuery = queryOptions({
  queryKey: ['ops-locations'],
  queryFn: async () => (await api<z.infer<typeof LocationsList>>('/locations')).locations,
  staleTime: 60_000,
});
