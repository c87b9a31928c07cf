import { describe, expect, it } from 'vitest';
import { canCancel, freeCancellationDeadline } from './booking.ts';
import { cancelOffer } from './cancellation.ts';
import type { ReservationStatus } from './constants.ts';
import { toInstant } from './time.ts';

const chicago = 'America/Chicago';
const at = (date: string, time: string) => toInstant({ date, time }, chicago);

/** A trip as the server sends it at `now`: can_cancel and the deadline from the domain's own rule. */
function served(status: ReservationStatus, pickup: Date, bookedAt: Date, now: Date) {
  return {
    status,
    can_cancel: canCancel({ status, pickup_at: pickup.toISOString(), timezone: chicago }, now),
    free_cancellation_until: freeCancellationDeadline(pickup, chicago).toISOString(),
    created_at: bookedAt.toISOString(),
  };
}

describe('cancelOffer (spec 4 and 9, decision 053: what the renter is told about cancelling)', () => {
  const pickup = at('2027-03-13', '10:00');

  it('rule: booked at 10:10 PM for 10 AM tomorrow, the window closed before booking — never "free until" a past time', () => {
    const booked = at('2027-03-12', '22:10');
    expect(cancelOffer(served('Started', pickup, booked, booked))).toEqual({
      kind: 'closed',
      endedAt: at('2027-03-12', '10:00').toISOString(),
      atBooking: true,
    });
  });

  it('rule: booked days ahead, free until one day before pickup on the place’s clock, then closed (not at booking)', () => {
    const booked = at('2027-03-01', '09:00');
    expect(cancelOffer(served('Pending', pickup, booked, at('2027-03-12', '09:59')))).toEqual({
      kind: 'free',
      until: at('2027-03-12', '10:00').toISOString(),
    });
    expect(cancelOffer(served('Pending', pickup, booked, at('2027-03-12', '10:00')))).toEqual({
      kind: 'closed',
      endedAt: at('2027-03-12', '10:00').toISOString(),
      atBooking: false,
    });
  });

  it('rule: a trip started, ended or cancelled says so instead of a deadline', () => {
    const booked = at('2027-03-01', '09:00');
    const early = at('2027-03-02', '09:00');
    expect(cancelOffer(served('On Rent', pickup, booked, early))).toEqual({ kind: 'on_rent' });
    expect(cancelOffer(served('Returned', pickup, booked, early))).toEqual({ kind: 'returned' });
    expect(cancelOffer(served('Canceled', pickup, booked, early))).toEqual({ kind: 'cancelled' });
  });
});
