import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/** PATCH /api/v1/reservations/addons: the add-ons the trip should have (the pending ones plus any added). */
export const updateReservationAddons = (platformId: string, addonIds: string[]) =>
  api<{ reservation: Reservation; stripe: PaymentSecrets | null }>('/api/v1/reservations/addons', {
    method: 'PATCH',
    body: { platform_id: platformId, addon_ids: addonIds },
  });
