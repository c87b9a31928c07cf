import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RealtimeClientConfig } from '@ampere/domain/realtime';
import { api } from './client.ts';

export interface ClientConfig {
  productName: string;
  supportPhone: string;
  supportEmail: string;
  conciergePhone: string;
  marketingSiteUrl: string;
  mapStyleUrl: string | null;
  /** How to reach the renter's realtime channel; null until the server has said (nothing connects). */
  realtime: RealtimeClientConfig | null;
}

export const FALLBACK_CONFIG: ClientConfig = {
  productName: 'Ampere',
  supportPhone: '',
  supportEmail: '',
  conciergePhone: '',
  marketingSiteUrl: '/',
  mapStyleUrl: null,
  realtime: null,
};

export const configQueryOptions = () => queryOptions({ queryKey: ['config'], queryFn: ({ signal }) => api<ClientConfig>('/api/v1/config', { signal }), staleTime: Infinity });

export function useClientConfig(): ClientConfig {
  return useQuery(configQueryOptions()).data ?? FALLBACK_CONFIG;
}

/** A page of the marketing site: '{marketingSiteUrl}/terms', with exactly one slash between. */
export function marketingLink(config: ClientConfig, path: string): string {
  return `${config.marketingSiteUrl.replace(/\/+$/, '')}${path}`;
}
