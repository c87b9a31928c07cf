import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';

/** One insurance connection (contract: InsuranceVerification). */
export interface InsuranceVerification {
  id: string;
  status: string;
  created_at: string;
  policies: { axle_policy_carrier: string; axle_policy_number: string }[];
}

export const insuranceKeys = {
  all: ['insurance'] as const,
  recent: () => ['insurance', 'recent'] as const,
};

/** GET /api/v1/users/insurance/recent */
export const getRecentInsurance = (signal?: AbortSignal) =>
  api<{ insurance_verifications: InsuranceVerification[]; user: User }>('/api/v1/users/insurance/recent', { signal });

export const recentInsuranceQueryOptions = () =>
  queryOptions({ queryKey: insuranceKeys.recent(), queryFn: ({ signal }) => getRecentInsurance(signal), retry: false });

export const useRecentInsurance = () => useQuery(recentInsuranceQueryOptions());
