import type { ReservationStatus } from './constants.ts';

/**
 * What a trip lets its renter do about cancelling, as the pages say it (decision 053). It reads
 * the server's answer — `can_cancel` and `free_cancellation_until`, both judged by `canCancel`
 * and `freeCancellationDeadline` on the server's clock — so the page never asks the browser's
 * clock and never repeats the rule:
 * - 'free': cancellable, free, until `until`;
 * - 'closed': not started, but the window ended at `endedAt` (one day before pickup);
 *   `atBooking` when it had already ended when the trip was booked (pickup was less than a day away);
 * - 'on_rent' / 'returned' / 'cancelled': the trip started, ended, or is already cancelled.
 */
export type CancelOffer =
  | { kind: 'free'; until: string }
  | { kind: 'closed'; endedAt: string; atBooking: boolean }
  | { kind: 'on_rent' }
  | { kind: 'returned' }
  | { kind: 'cancelled' };

export function cancelOffer(r: {
  status: ReservationStatus;
  can_cancel: boolean;
  free_cancellation_until: string;
  created_at: string;
}): CancelOffer {
  if (r.status === 'On Rent') return { kind: 'on_rent' };
  if (r.status === 'Returned') return { kind: 'returned' };
  if (r.status === 'Canceled') return { kind: 'cancelled' };
  if (r.can_cancel) return { kind: 'free', until: r.free_cancellation_until };
  return {
    kind: 'closed',
    endedAt: r.free_cancellation_until,
    atBooking: Date.parse(r.free_cancellation_until) <= Date.parse(r.created_at),
  };
}
