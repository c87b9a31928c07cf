import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/discounts/apply: a coupon code; a refused code is a 422 naming field 'code'. */
export const applyDiscount = (platformId: string, code: string) =>
  api<{ reservation: Reservation; stripe: PaymentSecrets | null }>('/api/v1/discounts/apply', {
    method: 'POST',
    body: { code, platform_id: platformId },
  });
