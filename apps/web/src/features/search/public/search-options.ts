import { queryOptions } from '@tanstack/react-query';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import { api } from '../../../shared/api/client.ts';

/** The places a renter can search from: the search bar's list, and the pages that link into search. */
export const searchOptionKeys = {
  cities: ['search', 'cities'] as const,
  option: (id: number) => ['search', 'option', id] as const,
  landmarks: (id: number) => ['search', 'landmarks', id] as const,
  autocomplete: (text: string) => ['search', 'autocomplete', text] as const,
};

export const citiesQueryOptions = () =>
  queryOptions({
    queryKey: searchOptionKeys.cities,
    queryFn: async ({ signal }) =>
      (await api<{ options: SearchOption[] }>('/api/v1/search/cities', { signal })).options,
    staleTime: 10 * 60_000,
  });

export const searchOptionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: searchOptionKeys.option(id),
    queryFn: ({ signal }) => api<SearchOption>(`/api/v1/search/${id}`, { signal }),
    staleTime: 10 * 60_000,
  });

export const landmarksQueryOptions = (id: number) =>
  queryOptions({
    queryKey: searchOptionKeys.landmarks(id),
    queryFn: async ({ signal }) =>
      (await api<{ options: SearchOption[] }>(`/api/v1/search/landmarks-near/${id}`, { signal })).options,
    staleTime: 10 * 60_000,
  });

export const autocompleteQueryOptions = (text: string) =>
  queryOptions({
    queryKey: searchOptionKeys.autocomplete(text),
    queryFn: async ({ signal }) =>
      (
        await api<{ options: SearchOption[] }>('/api/v1/search/autocomplete', {
          query: { query: text, limit: 5 },
          signal,
        })
      ).options,
    staleTime: 60_000,
  });
