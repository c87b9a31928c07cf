import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SavedCard } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';

export const cardKeys = {
  all: ['credit-cards'] as const,
  list: () => ['credit-cards', 'list'] as const,
  /** One setup intent per opening of the Add New Card modal. */
  setupIntent: (attempt: string) => ['credit-cards', 'setup-intent', attempt] as const,
};

export const getCreditCards = async (signal?: AbortSignal) =>
  (await api<{ cards: SavedCard[] }>('/api/v1/users/credit-cards', { signal })).cards;

export const creditCardsQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.list(), queryFn: ({ signal }) => getCreditCards(signal), retry: false });

export const useCreditCards = () => useQuery(creditCardsQueryOptions());
