import { queryOptions } from '@tanstack/react-query';
import { ApiError } from './api.ts';

export interface LocationOption {
  id: number;
  name: string;
  city: string;
  state: string;
}

/** The locations staff can be given (the renter API's list, read once). */
export const locationsQuery = queryOptions({
  queryKey: ['locations'],
  queryFn: async (): Promise<LocationOption[]> => {
    const res = await fetch('/api/v1/locations?size=100');
    if (!res.ok)
      throw new ApiError(res.status, 'The locations could not be loaded. Try again in a moment.', null, null);
    return ((await res.json()) as { locations: LocationOption[] }).locations;
  },
  staleTime: 5 * 60_000,
});
