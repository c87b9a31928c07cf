import { queryOptions } from '@tanstack/react-query';
import type { Receipt } from '@ampere/domain/contract/receipt';
import { api } from '../../../shared/api/client.ts';

/**
 * Query keys for receipts. The owner's receipt sits under the trip's reservation key, so the
 * realtime refresh of ['reservations'] (a payment went through) refreshes it too.
 */
export const receiptKeys = {
  own: (platformId: string) => ['reservations', platformId, 'receipt'] as const,
  shared: (token: string) => ['receipts', 'shared', token] as const,
};

/** GET /api/v1/reservations/{id}/receipt: the renter's own trip's receipt (404 for anyone else's). */
export const getOwnReceipt = (platformId: string, signal?: AbortSignal) =>
  api<Receipt>(`/api/v1/reservations/${encodeURIComponent(platformId)}/receipt`, { signal });

/** GET /api/admin/v1/transactions/receipts?token=…: the receipt a shared link opens (spec 7). */
export const getSharedReceipt = (token: string, signal?: AbortSignal) =>
  api<Receipt>('/api/admin/v1/transactions/receipts', { query: { token }, signal });

export const ownReceiptQueryOptions = (platformId: string) =>
  queryOptions({
    queryKey: receiptKeys.own(platformId),
    queryFn: ({ signal }) => getOwnReceipt(platformId, signal),
    retry: false,
  });

export const sharedReceiptQueryOptions = (token: string) =>
  queryOptions({
    queryKey: receiptKeys.shared(token),
    queryFn: ({ signal }) => getSharedReceipt(token, signal),
    retry: false,
    staleTime: 60_000,
  });

/** Where each receipt's PDF is downloaded from. */
export const receiptPdfUrl = {
  own: (platformId: string) => `/api/v1/reservations/${encodeURIComponent(platformId)}/receipt/pdf`,
  shared: (token: string) => `/api/admin/v1/transactions/receipts/pdf?${new URLSearchParams({ token }).toString()}`,
};
