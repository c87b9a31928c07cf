import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/payments: the charge for the pending line items (and the deposit hold on a new trip), as client secrets. */
export const createPayment = (platformId: string) =>
  api<{ reservation: Reservation; stripe: PaymentSecrets | null }>('/api/v1/payments', {
    method: 'POST',
    body: { platform_id: platformId },
  });
