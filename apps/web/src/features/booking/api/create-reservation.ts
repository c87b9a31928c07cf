import type { Reservation, ReservationCreateBody } from '@ampere/domain/contract/booking';
import { ApiError, authHeaders, noteAuthFailure } from '../../../shared/api/client.ts';

/**
 * POST /api/v1/reservations. The Idempotency-Key makes a repeated visit (a reload, React's double
 * effects) answer with the reservation the first call made instead of booking the car twice.
 * (The shared client takes no extra headers, so this one call is made here, the same way.)
 */
export async function createReservation(body: ReservationCreateBody, idempotencyKey: string): Promise<Reservation> {
  const res = await fetch('/api/v1/reservations', {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey, ...authHeaders() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    noteAuthFailure(res.status);
    const err = (data ?? {}) as { message?: string; code?: string; field?: string };
    throw new ApiError(res.status, err.message ?? res.statusText, err.code, err.field, data);
  }
  return (data as { reservation: Reservation }).reservation;
}
