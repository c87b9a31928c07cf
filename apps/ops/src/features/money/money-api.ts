import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { OPS_API } from '@ampere/domain/contract/ops';
import type {
  CaptureDeposit,
  ChargePosted,
  DepositSettled,
  DepositsPage,
  DepositsQuery,
  DisputeDecided,
  DisputeQueue,
  DisputesQuery,
  Evidence,
  NewCharge,
  RefundIssued,
  TollImportResult,
  TripMoney,
} from '@ampere/domain/contract/ops-money';
import type { DepositStatus } from '@ampere/domain/charges';
import { ApiError, SESSION_ENDED_EVENT, api, sendRaw } from '../../shared/api.ts';

/**
 * The console's money calls (issue 30 §2–§3, contract ops-money): a trip's charges and payments,
 * the dispute queue, the deposit holds, refunds and the toll import. Writes invalidate
 * `moneyKeys.all`, so every open money view (and the trip page) reads again.
 */
export type DisputeQueueData = z.infer<typeof DisputeQueue>;
export type DisputeItem = DisputeQueueData['items'][number];
export type DepositsData = z.infer<typeof DepositsPage>;
export type TollAnswer = z.infer<typeof TollImportResult>;
export type NewChargeBody = z.input<typeof NewCharge>;
export type CaptureBody = z.input<typeof CaptureDeposit>;

export const moneyKeys = {
  all: ['money'] as const,
  trip: (tripId: string) => ['money', 'trip', tripId] as const,
  disputes: (filter: Partial<z.input<typeof DisputesQuery>>) => ['money', 'disputes', filter] as const,
  deposits: (filter: Partial<z.input<typeof DepositsQuery>>) => ['money', 'deposits', filter] as const,
};

const query = (filter: Record<string, string | number | boolean | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
};

export const tripMoneyQuery = (tripId: string) =>
  queryOptions({
    queryKey: moneyKeys.trip(tripId),
    queryFn: () => api<TripMoney>(`/trips/${encodeURIComponent(tripId)}/charges`),
  });

export const disputesQuery = (filter: { state: 'open' | 'decided'; limit: number; offset: number }) =>
  queryOptions({
    queryKey: moneyKeys.disputes(filter),
    queryFn: () => api<DisputeQueueData>(`/disputes?${query(filter)}`),
  });

export const depositsQuery = (filter: { status?: DepositStatus; limit: number; offset: number }) =>
  queryOptions({
    queryKey: moneyKeys.deposits(filter),
    queryFn: () => api<DepositsData>(`/deposits?${query(filter)}`),
  });

/**
 * Sends one evidence file as it is (fetch sends a File with its own type), so it can be named in a
 * charge's `evidenceIds`. A photo or a document; the label says what it shows.
 */
export async function uploadEvidence(
  tripId: string,
  file: File,
  kind: 'photo' | 'document',
  label: string,
): Promise<Evidence> {
  const path = `/trips/${encodeURIComponent(tripId)}/evidence?${query({ kind, label: label.trim().slice(0, 120) || undefined })}`;
  let res: Response;
  try {
    res = await fetch(`${OPS_API}${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      // A file the browser cannot type is sent as bytes; the server reads what it really is.
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch {
    throw new ApiError(0, 'The console could not reach the server. Check your connection and try again.', null, null);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    data = null;
  }
  if (res.ok) return data as Evidence;
  const body = (data ?? {}) as { message?: string; code?: string; field?: string };
  const message =
    body.message ??
    (res.status === 413
      ? `${file.name} is too large for the server to take.`
      : `The server answered ${res.status}. Try again in a moment.`);
  const error = new ApiError(res.status, message, body.code ?? null, body.field ?? null, body);
  if (res.status === 401) window.dispatchEvent(new CustomEvent(SESSION_ENDED_EVENT, { detail: message }));
  throw error;
}

/** Where the console shows an evidence file (the API gives the address; an older row may not). */
export const evidenceHref = (e: Pick<Evidence, 'id' | 'url'>): string =>
  e.url ?? `${OPS_API}/evidence/${encodeURIComponent(e.id)}`;

export const postCharge = (tripId: string, body: NewChargeBody) =>
  api<z.infer<typeof ChargePosted>>(`/trips/${encodeURIComponent(tripId)}/charges`, { method: 'POST', body });

export const refundPayment = (paymentId: string, body: { cents?: number; reason: string }) =>
  api<z.infer<typeof RefundIssued>>(`/payments/${encodeURIComponent(paymentId)}/refunds`, { method: 'POST', body });

export const acceptDispute = (disputeId: string, reason: string) =>
  api<z.infer<typeof DisputeDecided>>(`/disputes/${encodeURIComponent(disputeId)}/accept`, {
    method: 'POST',
    body: { reason },
  });

export const rejectDispute = (disputeId: string, reason: string) =>
  api<z.infer<typeof DisputeDecided>>(`/disputes/${encodeURIComponent(disputeId)}/reject`, {
    method: 'POST',
    body: { reason },
  });

export const releaseDeposit = (paymentId: string, reason: string) =>
  api<z.infer<typeof DepositSettled>>(`/deposits/${encodeURIComponent(paymentId)}/release`, {
    method: 'POST',
    body: { reason },
  });

export const captureDeposit = (paymentId: string, body: CaptureBody) =>
  api<z.infer<typeof DepositSettled>>(`/deposits/${encodeURIComponent(paymentId)}/capture`, {
    method: 'POST',
    body,
  });

export const importTolls = (csv: string, dryRun: boolean) =>
  sendRaw<TollAnswer>(`/tolls/import?dryRun=${String(dryRun)}`, { body: csv, contentType: 'text/csv' });

/** The field a refused write is about, when the server names one. */
export const fieldOf = (err: unknown): string | null => (err instanceof ApiError ? err.field : null);
