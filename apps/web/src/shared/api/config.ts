import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientConfig as ServedConfig } from '@ampere/domain/contract/system';
import { api } from './client.ts';

/** What the server serves, except that realtime is null until the server has said (nothing connects). */
export type ClientConfig = Omit<ServedConfig, 'realtime'> & { realtime: ServedConfig['realtime'] | null };

export const FALLBACK_CONFIG: ClientConfig = {
  productName: 'Ampere',
  supportPhone: '',
  supportEmail: '',
  conciergePhone: '',
  marketingSiteUrl: '/',
  mapStyleUrl: null,
  realtime: null,
};

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => api<ClientConfig>('/api/v1/config', { signal }),
    staleTime: Infinity,
  });

export function useClientConfig(): ClientConfig {
  return useQuery(configQueryOptions()).data ?? FALLBACK_CONFIG;
}

/** A page of the marketing site: '{marketingSiteUrl}/terms', with exactly one slash between. */
export function marketingLink(config: ClientConfig, path: string): string {
  return `${config.marketingSiteUrl.replace(/\/+$/, '')}${path}`;
}
