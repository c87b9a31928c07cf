import { cancelOffer } from '@ampere/domain/cancellation';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatInstant } from '@ampere/domain/format';

type Offered = Pick<Reservation, 'status' | 'can_cancel' | 'free_cancellation_until' | 'created_at'> & {
  pickup_location: Pick<Reservation['pickup_location'], 'timezone'>;
};

/**
 * What Review & Pay promises about cancelling a new booking (spec 2's free-cancellation card,
 * decision 053): the deadline while it is ahead, and plainly that there is none when pickup is
 * already less than a day away — never "free until" a time that has passed.
 */
export function payPageCancelWords(r: Offered): { title: string; text: string; closed: boolean } {
  const offer = cancelOffer(r);
  const at = (iso: string) => formatInstant(iso, r.pickup_location.timezone);
  if (offer.kind === 'free')
    return {
      title: 'Free cancellation',
      text: `Cancel for free until ${at(offer.until)}, one day before pickup.`,
      closed: false,
    };
  const ended = offer.kind === 'closed' ? ` (it ended ${at(offer.endedAt)})` : '';
  return {
    title: 'No free cancellation',
    closed: true,
    text: `This booking can't be cancelled for free: pickup is less than a day away, and free cancellation ends one day before pickup${ended}.`,
  };
}

/**
 * Why the trip page offers no Cancel (decision 053), worded for the renter; null while it does
 * (or for a trip already cancelled, which says why elsewhere).
 */
export function noCancelReason(r: Offered): string | null {
  const offer = cancelOffer(r);
  const at = (iso: string) => formatInstant(iso, r.pickup_location.timezone);
  switch (offer.kind) {
    case 'free':
    case 'cancelled':
      return null;
    case 'closed':
      return offer.atBooking
        ? `This trip was booked less than a day before pickup, so it can't be cancelled for free (free cancellation ends one day before pickup, ${at(offer.endedAt)}).`
        : `Free cancellation ended on ${at(offer.endedAt)} (one day before pickup), so this trip can no longer be cancelled.`;
    case 'on_rent':
      return 'Your trip has started, so it can no longer be cancelled. To come back early, end the trip when you return the car.';
    case 'returned':
      return 'This trip has ended, so there is nothing to cancel.';
  }
}
