import { groupThousands } from './format-number.ts';

/** Rule (spec 2, vehicle detail): odometer rounded to the nearest 1000; under 1000 'Less than 1000 miles'. */
export function odometerLabel(miles: number): string {
  if (miles < 1000) return 'Less than 1000 miles';
  return `${groupThousands(Math.round(miles / 1000) * 1000)} miles`;
}

/** Rule (spec 2, vehicle detail): vehicle age in whole years from its model year. */
export function vehicleAgeLabel(modelYear: number, today: Date): string {
  const years = Math.max(0, today.getUTCFullYear() - modelYear);
  if (years === 0) return 'Less than 1 year old';
  return years === 1 ? '1 year old' : `${years} years old`;
}

/** Great-circle distance in miles (haversine). */
export function distanceMiles(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Rule (spec 5): a return location that differs from the pickup by coordinates makes a one-way trip. */
export function isOneWay(
  pickup: { latitude: number; longitude: number },
  dropoff: { latitude: number; longitude: number } | null | undefined,
): boolean {
  if (!dropoff) return false;
  return pickup.latitude !== dropoff.latitude || pickup.longitude !== dropoff.longitude;
}
