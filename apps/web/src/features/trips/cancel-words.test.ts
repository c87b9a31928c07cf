import { describe, expect, it } from 'vitest';
import { noCancelReason, payPageCancelWords } from './cancel-words.ts';

const chicago = { timezone: 'America/Chicago' };
// Pickup Mar 13, 2027, 10:00 AM in Chicago: free cancellation ends Mar 12, 10:00 AM CST (16:00Z).
const deadline = '2027-03-12T16:00:00.000Z';
const trip = (over: Partial<Parameters<typeof noCancelReason>[0]>) => ({
  status: 'Started' as const,
  can_cancel: true,
  free_cancellation_until: deadline,
  created_at: '2027-03-01T15:00:00.000Z',
  pickup_location: chicago,
  ...over,
});

describe('what the pages promise about cancelling (decision 053)', () => {
  it('Review & Pay: the deadline while it is ahead, on the pickup place’s clock', () => {
    expect(payPageCancelWords(trip({}))).toEqual({
      title: 'Free cancellation',
      text: 'Cancel for free until Mar 12, 2027, 10:00 AM, one day before pickup.',
      closed: false,
    });
  });

  it('Review & Pay: booked at 10:10 PM for 10 AM tomorrow, no "free until" a time already gone', () => {
    const words = payPageCancelWords(trip({ can_cancel: false, created_at: '2027-03-13T04:10:00.000Z' }));
    expect(words.title).toBe('No free cancellation');
    expect(words.text).toBe(
      "This booking can't be cancelled for free: pickup is less than a day away, and free cancellation ends one day before pickup (it ended Mar 12, 2027, 10:00 AM).",
    );
    expect(words.closed).toBe(true);
  });

  it('trip page: why Cancel is not offered, for each reason; nothing while it is', () => {
    expect(noCancelReason(trip({ status: 'Pending' }))).toBeNull();
    expect(noCancelReason(trip({ status: 'Pending', can_cancel: false }))).toBe(
      'Free cancellation ended on Mar 12, 2027, 10:00 AM (one day before pickup), so this trip can no longer be cancelled.',
    );
    expect(
      noCancelReason(trip({ status: 'Pending', can_cancel: false, created_at: '2027-03-13T04:10:00.000Z' })),
    ).toMatch(/^This trip was booked less than a day before pickup, so it can't be cancelled for free/);
    expect(noCancelReason(trip({ status: 'On Rent', can_cancel: false }))).toMatch(/^Your trip has started/);
    expect(noCancelReason(trip({ status: 'Returned', can_cancel: false }))).toBe(
      'This trip has ended, so there is nothing to cancel.',
    );
    expect(noCancelReason(trip({ status: 'Canceled', can_cancel: false }))).toBeNull();
  });
});
