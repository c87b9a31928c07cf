import type { ReceiptLink } from '@ampere/domain/contract/receipt';
import { api } from '../../../shared/api/client.ts';

/** POST /api/v1/reservations/{id}/receipt-token: a new receipt link (shown once); any earlier one stops working. */
export const createReceiptLink = (platformId: string) =>
  api<ReceiptLink>(`/api/v1/reservations/${encodeURIComponent(platformId)}/receipt-token`, { method: 'POST' });

/** DELETE /api/v1/reservations/{id}/receipt-token: the link stops working. */
export const revokeReceiptLink = (platformId: string) =>
  api<{ share_link: null }>(`/api/v1/reservations/${encodeURIComponent(platformId)}/receipt-token`, {
    method: 'DELETE',
  });
