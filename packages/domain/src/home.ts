import type { ReservationStatus } from './constants.ts';
import { cityLabel } from './filters.ts';

/** Spec 9: the home page's loading skeletons, 7 model chips and 6 city cards. */
export const MODEL_SKELETONS = 7;
export const CITY_SKELETONS = 6;
/** Spec 9: the 'Rent Again' row shows at most 3 past trips. */
export const RENT_AGAIN_LIMIT = 3;

/**
 * Spec 2 (home): the greeting uses the first name when known. A renter with any trip behind them
 * (booked, taken or cancelled) is welcomed back; a brand-new one is simply welcomed (decision 030).
 */
export function homeGreeting(firstName: string | null | undefined, hasTrips: boolean): string {
  const name = firstName?.trim();
  const hello = hasTrips ? 'Welcome back' : 'Welcome';
  return name ? `${hello}, ${name}` : hello;
}

interface TripLike {
  status: ReservationStatus;
  vehicle: { model: { name: string } };
  pickup_location: { city: string; state: string };
}

export interface HomeLists<T extends TripLike> {
  upcoming: T[];
  active: T[];
  past: T[];
  canceled: T[];
}

export const hasAnyTrip = (lists: HomeLists<TripLike>) =>
  lists.upcoming.length + lists.active.length + lists.past.length + lists.canceled.length > 0;

/**
 * The trip the home page's reservation card shows (decision 030): the one on rent now, else the
 * next paid one (lists come soonest first). A booking still unpaid (Started) is not a reservation
 * to pick up yet; My Trips lists it.
 */
export function homeTrip<T extends TripLike>(lists: HomeLists<T>): T | null {
  return lists.active[0] ?? lists.upcoming.find((r) => r.status === 'Pending') ?? null;
}

/**
 * Spec 2 (home): the 'Rent Again' row, the first 3 past trips (newest first), each a search for
 * the same city and model. The same car in the same city twice is one tile (decision 030).
 */
export function rentAgain<T extends TripLike>(past: readonly T[]): { trip: T; city: string; model: string }[] {
  const seen = new Set<string>();
  const out: { trip: T; city: string; model: string }[] = [];
  for (const trip of past) {
    const { city, model } = searchAgain(trip);
    const key = `${city.toLowerCase()}|${model.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ trip, city, model });
    if (out.length === RENT_AGAIN_LIMIT) break;
  }
  return out;
}

/**
 * The search a past trip leads back to (home's Rent Again, the trip page's Book Again): the city it
 * was picked up in ('Austin, TX') and its model, so the renter lands on the same place and car.
 */
export function searchAgain(trip: Pick<TripLike, 'vehicle' | 'pickup_location'>): { city: string; model: string } {
  return { city: cityLabel(trip.pickup_location.city, trip.pickup_location.state), model: trip.vehicle.model.name };
}
