import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export interface ClientConfig {
  productName: string;
  supportPhone: string;
  supportEmail: string;
  conciergePhone: string;
  marketingSiteUrl: string;
  mapStyleUrl: string | null;
}

export const FALLBACK_CONFIG: ClientConfig = {
  productName: 'Ampere',
  supportPhone: '',
  supportEmail: '',
  conciergePhone: '',
  marketingSiteUrl: '/',
  mapStyleUrl: null,
};

export const configQueryOptions = () => queryOptions({ queryKey: ['config'], queryFn: ({ signal }) => api<ClientConfig>('/api/v1/config', { signal }), staleTime: Infinity });

export function useClientConfig(): ClientConfig {
  return useQuery(configQueryOptions()).data ?? FALLBACK_CONFIG;
}

/** A page of the marketing site: '{marketingSiteUrl}/terms', with exactly one slash between. */
export function marketingLink(config: ClientConfig, path: string): string {
  return `${config.marketingSiteUrl.replace(/\/+$/, '')}${path}`;
}
