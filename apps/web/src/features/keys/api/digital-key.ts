import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { CarState, KeyPageResult } from '@ampere/domain/contract/verification';
import type { KeyAction } from '@ampere/domain/verification';
import { api } from '../../../shared/api/client.ts';

export const keyPageKeys = { detail: (token: string) => ['digital-key', token] as const };

/** GET /api/v1/keys/{token}: the key, its trip and the car (public: the token is the capability). */
export const getKeyPage = (token: string, signal?: AbortSignal) =>
  api<KeyPageResult>(`/api/v1/keys/${encodeURIComponent(token)}`, { signal });

export const keyPageQueryOptions = (token: string) =>
  queryOptions({
    queryKey: keyPageKeys.detail(token),
    queryFn: ({ signal }) => getKeyPage(token, signal),
    retry: false,
    refetchInterval: 30_000,
  });

export const useKeyPage = (token: string) => useQuery(keyPageQueryOptions(token));

/** POST /api/v1/keys/{token}/commands: lock or unlock the car; a key that cannot open it now is a 409 saying why. */
export const sendCarCommand = async (token: string, command: 'lock' | 'unlock') =>
  (
    await api<{ car: CarState }>(`/api/v1/keys/${encodeURIComponent(token)}/commands`, {
      method: 'POST',
      body: { command },
    })
  ).car;

/** POST /api/v1/reservations/{id}/key: pause, resume, replace or revoke the trip's key. */
export const actOnKey = async (platformId: string, action: KeyAction) =>
  (
    await api<{ reservation: Reservation }>(`/api/v1/reservations/${encodeURIComponent(platformId)}/key`, {
      method: 'POST',
      body: { action },
    })
  ).reservation;
