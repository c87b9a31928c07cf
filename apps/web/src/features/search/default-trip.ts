import type { SearchOption } from '@ampere/domain/contract/catalog';
import { type Trip, defaultTripFor as defaultTripAt } from '@ampere/domain/dates';

/** Default dates (spec 4) in the chosen place's zone, the pickup past its own lead time (the domain's rule). */
export function defaultTripFor(
  option: Pick<SearchOption, 'timezone' | 'min_reservation_buffer_hours'>,
  now = new Date(),
): Trip {
  return defaultTripAt(now, option.timezone, option.min_reservation_buffer_hours);
}
