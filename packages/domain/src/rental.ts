import { type LocalDateTime, MS_PER_DAY, toLocal, wallClockMs } from './time.ts';

/**
 * Rule (spec 5, 9): rented days are 0 if either end is missing or the return is not after the
 * pickup, otherwise the difference in days rounded up. The difference is taken on the
 * location's wall clock, so a week across a daylight-saving change is still 7 days.
 */
export function rentalDays(pickup: LocalDateTime | null | undefined, ret: LocalDateTime | null | undefined): number {
  if (!pickup || !ret) return 0;
  const diff = wallClockMs(ret) - wallClockMs(pickup);
  if (diff <= 0) return 0;
  return Math.ceil(diff / MS_PER_DAY);
}

/** Rented days between two instants, read on the clock of the location's zone. */
export function rentalDaysBetween(pickupAt: Date, returnAt: Date, timeZone: string): number {
  return rentalDays(toLocal(pickupAt, timeZone), toLocal(returnAt, timeZone));
}

const NAMED_PERIODS: Record<number, string> = { 1: '1 day', 7: '1 week', 14: '2 weeks', 21: '3 weeks', 28: '1 month' };

/** Rule (spec 2, booking card): period labels 1 day, 1 week, 2 weeks, 3 weeks, 1 month; else 'N days'. */
export function periodLabel(days: number): string {
  return NAMED_PERIODS[days] ?? `${days} days`;
}

/** The quick period choices the booking card offers. */
export const PERIOD_CHOICES = [1, 7, 14, 21, 28] as const;
