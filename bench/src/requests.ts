import { addDays, todayIn } from '@ampere/domain/time';

// Same seed, same requests: two runs load the server with the same mix.
export { seededRandom } from '@ampere/api/src/seed/vin.ts';

export interface SearchOptionRef {
  id: number;
  timezone: string;
}

/**
 * Search calls as renters make them: a search location, pickup 2 to 60 days ahead and a trip
 * of 1 to 14 days, dates local to the location (as the web app sends them).
 */
export function searchPaths(options: SearchOptionRef[], now: Date, count: number, random: () => number): string[] {
  if (options.length === 0) throw new Error('No search options to load.');
  return Array.from({ length: count }, () => {
    const option = options[Math.floor(random() * options.length)]!;
    const pickupDate = addDays(todayIn(now, option.timezone), 2 + Math.floor(random() * 59));
    const returnDate = addDays(pickupDate, 1 + Math.floor(random() * 14));
    const query = new URLSearchParams({ pickupDate, returnDate, pickupTime: '10:00', returnTime: '10:00' });
    return `/api/v1/vehicles/search/${option.id}?${query}`;
  });
}
