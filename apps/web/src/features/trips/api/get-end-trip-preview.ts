import type { EndTripPreview } from '@ampere/domain/contract/end-trip';
import { api } from '../../../shared/api/client.ts';

/** GET /api/v1/reservations/{id}/end/preview: the car read now and what ending the trip now would charge. */
export const getEndTripPreview = (platformId: string, signal?: AbortSignal) =>
  api<EndTripPreview>(`/api/v1/reservations/${encodeURIComponent(platformId)}/end/preview`, { signal });
