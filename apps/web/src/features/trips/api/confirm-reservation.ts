import type { Reservation } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/reservations/confirm: after the gateway took the card, the trip is booked (a Started one becomes Pending). */
export const confirmReservation = async (platformId: string) =>
  (
    await api<{ reservation: Reservation }>('/api/v1/reservations/confirm', {
      method: 'POST',
      body: { platform_id: platformId },
    })
  ).reservation;
