import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SuggestedAddress } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';

/** Spec 7: the search text, the states addresses may be in (include_only_states) and those listed first (prefer_states). */
export interface AddressStates {
  include: readonly string[];
  prefer: readonly string[];
}

export const suggestAddresses = async (search: string, states: AddressStates, signal?: AbortSignal) =>
  (
    await api<{ suggestions: SuggestedAddress[] }>('/api/v1/addresses/suggest', {
      query: { search, include_only_states: states.include.join(','), prefer_states: states.prefer.join(',') },
      signal,
    })
  ).suggestions;

export const addressSuggestionsQueryOptions = (search: string, states: AddressStates) =>
  queryOptions({
    queryKey: ['addresses', 'suggest', search, states.include.join(','), states.prefer.join(',')],
    queryFn: ({ signal }) => suggestAddresses(search, states, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Spec 5: suggestions for input of at least 1 character; the last list stays while the next loads. */
export const useAddressSuggestions = (search: string, states: AddressStates) =>
  useQuery({
    ...addressSuggestionsQueryOptions(search.trim(), states),
    enabled: search.trim().length >= 1,
    placeholderData: keepPreviousData,
  });
