import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GatewayClientSecret } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';
import { cardKeys } from '../../payments/public/get-credit-cards.ts';

/** POST /api/v1/payments/setup-intent: what the card form needs to save a card with the gateway. */
export const createSetupIntent = async () =>
  (await api<{ stripe: GatewayClientSecret }>('/api/v1/payments/setup-intent', { method: 'POST' })).stripe;

/**
 * Held as a query, keyed by the modal's opening, so one opening makes exactly one setup intent
 * (React's development double effects included) and a new opening a fresh one.
 */
export const setupIntentQueryOptions = (attempt: string) =>
  queryOptions({
    queryKey: cardKeys.setupIntent(attempt),
    queryFn: createSetupIntent,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export const useSetupIntent = (attempt: string) => useQuery(setupIntentQueryOptions(attempt));
