import type { Reservation, ReservationCreateBody } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/**
 * POST /api/v1/reservations. The Idempotency-Key makes a repeated visit (a reload, React's double
 * effects) answer with the reservation the first call made instead of booking the car twice.
 */
export async function createReservation(body: ReservationCreateBody, idempotencyKey: string): Promise<Reservation> {
  const result = await api<{ reservation: Reservation }>('/api/v1/reservations', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return result.reservation;
}
