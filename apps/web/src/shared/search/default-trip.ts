import type { SearchOption } from '@ampere/domain/contract/catalog';
import { type Trip, bumpToAllowed, defaultTrip, earliestSelectable } from '@ampere/domain/dates';

/** Default dates (spec 4) in the location's zone, with the pickup bumped past the lead time. */
export function defaultTripFor(option: Pick<SearchOption, 'timezone' | 'min_reservation_buffer_hours'>, now = new Date()): Trip {
  const trip = defaultTrip(now, option.timezone);
  const pickup = bumpToAllowed({ date: trip.pickupDate, time: trip.pickupTime }, earliestSelectable(now, option.timezone, option.min_reservation_buffer_hours));
  return { ...trip, pickupDate: pickup.date, pickupTime: pickup.time };
}
