import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

/** One suggestion from GET /api/v1/addresses/suggest (spec 3 'Suggested address'). */
export interface SuggestedAddress {
  street_line: string;
  secondary: string;
  city: string;
  state: string;
  zipcode: string;
}

export const suggestAddresses = async (search: string, preferStates: readonly string[], signal?: AbortSignal) =>
  (await api<{ suggestions: SuggestedAddress[] }>('/api/v1/addresses/suggest', { query: { search, prefer_states: preferStates.join(',') }, signal })).suggestions;

export const addressSuggestionsQueryOptions = (search: string, preferStates: readonly string[]) =>
  queryOptions({ queryKey: ['addresses', 'suggest', search, preferStates.join(',')], queryFn: ({ signal }) => suggestAddresses(search, preferStates, signal), staleTime: 5 * 60_000, retry: false });

/** Spec 5: suggestions for input of at least 1 character; the last list stays while the next loads. */
export const useAddressSuggestions = (search: string, preferStates: readonly string[]) =>
  useQuery({ ...addressSuggestionsQueryOptions(search.trim(), preferStates), enabled: search.trim().length >= 1, placeholderData: keepPreviousData });
