import { queryOptions } from '@tanstack/react-query';
import type {
  DoNotRentList,
  DoNotRentListing,
  RenterPage,
  Review,
  ReviewBody,
  ReviewQueue,
} from '@ampere/domain/contract/ops-renters';
import type { ReviewSubject } from '@ampere/domain/renter-review';
import { api } from '../../shared/api.ts';

/** The console's renter calls (decisions 094 and 095), one query key factory for them. */
export const renterKeys = {
  all: ['renters'] as const,
  queue: () => [...renterKeys.all, 'review-queue'] as const,
  doNotRent: () => [...renterKeys.all, 'do-not-rent'] as const,
  renter: (id: string) => [...renterKeys.all, 'renter', id] as const,
};

export const reviewQueueQuery = queryOptions({
  queryKey: renterKeys.queue(),
  queryFn: () => api<ReviewQueue>('/renters/review-queue'),
  staleTime: 0,
});

export const doNotRentQuery = queryOptions({
  queryKey: renterKeys.doNotRent(),
  queryFn: () => api<DoNotRentList>('/renters/do-not-rent'),
  staleTime: 0,
});

export const renterQuery = (renterId: string) =>
  queryOptions({
    queryKey: renterKeys.renter(renterId),
    queryFn: () => api<RenterPage>(`/renters/${encodeURIComponent(renterId)}`),
    staleTime: 0,
    retry: false,
  });

export const reviewCheck = (subject: ReviewSubject, checkId: string, body: ReviewBody) =>
  api<Review>(`/renters/checks/${subject}/${encodeURIComponent(checkId)}/review`, { method: 'POST', body });

export const listRenter = (renterId: string, body: { reason: string; until: string | null }) =>
  api<DoNotRentListing>(`/renters/${encodeURIComponent(renterId)}/do-not-rent`, { method: 'POST', body });

export const liftRenter = (renterId: string, body: { reason: string | null }) =>
  api<DoNotRentListing>(`/renters/${encodeURIComponent(renterId)}/do-not-rent/lift`, { method: 'POST', body });

export const textRenter = (renterId: string, body: { text: string; tripId: string | null }) =>
  api<{ messageId: number; tripId: string; to: string }>(`/renters/${encodeURIComponent(renterId)}/texts`, {
    method: 'POST',
    body,
  });

/** The end of a date picked in the browser (YYYY-MM-DD), on the browser's clock, as an instant; null when empty. */
export function endOfDay(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const end = new Date(`${date}T23:59:59`);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}
