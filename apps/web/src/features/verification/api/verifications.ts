import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IdentityVerification, InsuranceIgnitionResult } from '@ampere/domain/contract/verification';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/verifications/license: a hosted license check (for a trip, or with none for trips to come). */
export const startLicenseVerification = async (platformId?: string) =>
  (
    await api<{ verification: IdentityVerification }>('/api/v1/verifications/license', {
      method: 'POST',
      body: platformId ? { platform_id: platformId } : {},
    })
  ).verification;

export const licenseKeys = { latest: () => ['verifications', 'license', 'latest'] as const };

/** GET /api/v1/verifications/license: the renter's latest check, to show "checking" until it is decided. */
export const getLatestLicenseVerification = async (signal?: AbortSignal) =>
  (await api<{ verification: IdentityVerification | null }>('/api/v1/verifications/license', { signal })).verification;

/** The latest check; polled every 1.5 s while `waiting` (a decision is on its way by webhook). */
export const useLatestLicenseVerification = (waiting: boolean) =>
  useQuery(
    queryOptions({
      queryKey: licenseKeys.latest(),
      queryFn: ({ signal }) => getLatestLicenseVerification(signal),
      retry: false,
      refetchInterval: waiting ? 1500 : false,
    }),
  );

/** POST /api/v1/verifications/insurance: where the renter connects a policy. */
export const startInsuranceConnection = (platformId?: string) =>
  api<InsuranceIgnitionResult>('/api/v1/verifications/insurance', {
    method: 'POST',
    body: platformId ? { platform_id: platformId } : {},
  });
