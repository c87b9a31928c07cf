import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/reservations/eligibility-check: the soft credit check (spec 5: must pass to pay). */
export const checkEligibility = async (platformId: string) =>
  (
    await api<{ is_eligible: boolean }>('/api/v1/reservations/eligibility-check', {
      method: 'POST',
      body: { platform_id: platformId },
    })
  ).is_eligible;
