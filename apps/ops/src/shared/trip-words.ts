import type { ReservationStatus } from '@ampere/domain/constants';
import type { DayTrip } from '@ampere/domain/contract/ops-day';

/** A trip's status as the desk says it. */
export const TRIP_STATUS_WORDS: Record<ReservationStatus, string> = {
  Started: 'Booking not paid',
  Pending: 'Booked',
  'On Rent': 'On rent',
  Returned: 'Returned',
  Canceled: 'Cancelled',
};

export const TRIP_STATUS_COLOURS: Record<ReservationStatus, string> = {
  Started: '#a63e00',
  Pending: 'blue.8',
  'On Rent': 'ampere',
  Returned: 'gray.7',
  Canceled: 'gray.7',
};

/** What must be done before a pickup. */
export const PROBLEM_WORDS: Record<DayTrip['problems'][number], string> = {
  unpaid: 'Not paid',
  unverified: 'Renter not verified',
};

/** '2024 Tesla Model 3, white' */
export const carWords = (car: DayTrip['car']): string => `${car.year} ${car.model}, ${car.color.toLowerCase()}`;
