import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RenterInspections } from '@ampere/domain/contract/ops-inspections';
import { ApiError, api, authHeaders, noteAuthFailure } from '../../../shared/api/client.ts';

/** Whose inspection record: the renter's own trip (signed in), or the trip their key opens. */
export type InspectionSource = { kind: 'trip'; platformId: string } | { kind: 'key'; token: string };

const pathOf = (s: InspectionSource) =>
  s.kind === 'trip'
    ? `/api/v1/reservations/${encodeURIComponent(s.platformId)}/inspection`
    : `/api/v1/keys/${encodeURIComponent(s.token)}/inspection`;

export const inspectionKeys = {
  detail: (s: InspectionSource) => ['inspection-photos', s.kind, s.kind === 'trip' ? s.platformId : s.token] as const,
};

/** GET …/inspection: the photos in the trip's record (staff's and the renter's) and the window to add more. */
export const inspectionQueryOptions = (s: InspectionSource) =>
  queryOptions({
    queryKey: inspectionKeys.detail(s),
    queryFn: ({ signal }) => api<RenterInspections>(pathOf(s), { signal }),
    retry: false,
  });

export const useInspectionPhotos = (s: InspectionSource) => useQuery(inspectionQueryOptions(s));

/**
 * POST …/inspection/photos: one photo, sent as it is with its image type (the API takes the image
 * as the body, as the console's uploads do). A refusal carries the server's words.
 */
export async function addInspectionPhoto(s: InspectionSource, file: File): Promise<RenterInspections> {
  let res: Response;
  try {
    res = await fetch(`${pathOf(s)}/photos`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': file.type || 'application/octet-stream',
        ...authHeaders(),
      },
      body: file,
    });
  } catch {
    throw new ApiError(0, 'The photo could not be sent. Check your connection and try again.');
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    noteAuthFailure(res.status);
    const body = (data ?? {}) as { message?: string; code?: string; field?: string };
    const message =
      body.message ??
      (res.status === 413 ? 'This photo is too large to send.' : 'The photo could not be added. Try again.');
    throw new ApiError(res.status, message, body.code, body.field, data);
  }
  return data as RenterInspections;
}
