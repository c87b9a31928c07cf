import { queryOptions } from '@tanstack/react-query';
import type { RenterCharge, RenterCharges as RenterChargesSchema } from '@ampere/domain/contract/charges';
import type { z } from 'zod';

type RenterCharges = z.infer<typeof RenterChargesSchema>;
import { api } from '../../../shared/api/client.ts';

/**
 * The renter's charges after a trip (issue 30 §2, contract charges.ts). Keys sit under the trip's
 * ['reservations', id] so a refresh of the trip (realtime, a payment) refreshes its charges too.
 */
export const chargeKeys = {
  trip: (platformId: string) => ['reservations', platformId, 'charges'] as const,
  one: (platformId: string, chargeId: string) => ['reservations', platformId, 'charges', chargeId] as const,
};

/** GET /api/v1/reservations/{id}/charges: the trip's charges (404 for someone else's trip). */
export const tripChargesQueryOptions = (platformId: string) =>
  queryOptions({
    queryKey: chargeKeys.trip(platformId),
    queryFn: ({ signal }) =>
      api<RenterCharges>(`/api/v1/reservations/${encodeURIComponent(platformId)}/charges`, { signal }),
    staleTime: 10_000,
    retry: false,
  });

/** GET /api/v1/charges/{chargeId}: one charge with its evidence and dispute. */
export const chargeQueryOptions = (platformId: string, chargeId: string) =>
  queryOptions({
    queryKey: chargeKeys.one(platformId, chargeId),
    queryFn: ({ signal }) => api<RenterCharge>(`/api/v1/charges/${encodeURIComponent(chargeId)}`, { signal }),
    staleTime: 10_000,
    retry: false,
  });

/** POST /api/v1/charges/{chargeId}/dispute: 422 after the window, 409 when already disputed. */
export const disputeCharge = (chargeId: string, reason: string) =>
  api<RenterCharge>(`/api/v1/charges/${encodeURIComponent(chargeId)}/dispute`, { method: 'POST', body: { reason } });
