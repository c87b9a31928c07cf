import { queryOptions } from '@tanstack/react-query';
import type { CarCommand, StaffKeyVerb } from '@ampere/domain/car-actions';
import type { KeyAndCar } from '@ampere/domain/contract/ops-car';
import { api } from '../../shared/api.ts';

/** A trip's key and car calls (decision 096); every one answers with the whole panel, read now. */
export const keyCarKeys = {
  panel: (tripId: string) => ['key-car', tripId] as const,
};

const base = (tripId: string) => `/trips/${encodeURIComponent(tripId)}`;

export const keyCarQuery = (tripId: string) =>
  queryOptions({
    queryKey: keyCarKeys.panel(tripId),
    queryFn: () => api<KeyAndCar>(`${base(tripId)}/key-car`),
    // A reading is only as good as when it was taken: Refresh asks again, nothing is kept stale.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });

export const actOnKey = (tripId: string, verb: StaffKeyVerb) =>
  api<KeyAndCar>(`${base(tripId)}/key/${verb}`, { method: 'POST' });

export const commandCar = (tripId: string, command: CarCommand) =>
  api<KeyAndCar>(`${base(tripId)}/car/${command}`, { method: 'POST' });

export const closeNote = (tripId: string, noteId: string) =>
  api<KeyAndCar>(`${base(tripId)}/notes/${encodeURIComponent(noteId)}/resolve`, { method: 'POST' });
