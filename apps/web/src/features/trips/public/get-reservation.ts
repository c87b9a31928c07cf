import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Reservation } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/**
 * Query keys for reservations. Every key starts with 'reservations' and a trip's with its platform
 * id, so the realtime helper's invalidation of ['reservations'] (a payment succeeded) refreshes
 * every trip on screen.
 */
export const reservationKeys = {
  all: ['reservations'] as const,
  detail: (platformId: string) => ['reservations', platformId] as const,
  lists: () => ['reservations', 'lists'] as const,
};

/** GET /api/v1/reservations/{platform_id}: one of the renter's trips (404 for anyone else's). */
export const getReservation = async (platformId: string, signal?: AbortSignal) =>
  (await api<{ reservation: Reservation }>(`/api/v1/reservations/${encodeURIComponent(platformId)}`, { signal }))
    .reservation;

export const reservationQueryOptions = (platformId: string) =>
  queryOptions({
    queryKey: reservationKeys.detail(platformId),
    queryFn: ({ signal }) => getReservation(platformId, signal),
    staleTime: 10_000,
    retry: false,
  });

export const useReservation = (platformId: string) => useQuery(reservationQueryOptions(platformId));

/** GET /api/v1/reservations: the renter's trips by section. */
export interface ReservationLists {
  upcoming: Reservation[];
  active: Reservation[];
  past: Reservation[];
  canceled: Reservation[];
}

export const getReservations = (signal?: AbortSignal) => api<ReservationLists>('/api/v1/reservations', { signal });

export const reservationListsQueryOptions = () =>
  queryOptions({ queryKey: reservationKeys.lists(), queryFn: ({ signal }) => getReservations(signal), retry: false });
