/**
 * The console's today board (issue 29 section 4, decision 086): a location's day, on its own clock.
 */
import { LATE_RETURN_GRACE_MINUTES } from './end-trip.ts';
import { addDays, toInstant, todayIn } from './time.ts';

/** A car below this charge, in percent, before its next pickup is flagged to be charged. */
export const LOW_BATTERY_PERCENT = 50;
/** A trip picking up within this many hours that is unpaid or unverified is flagged. */
export const PICKUP_SOON_HOURS = 24;
/** A return is overdue once it is this many minutes past its booked time (the late fee's grace, spec 3). */
export const OVERDUE_GRACE_MINUTES = LATE_RETURN_GRACE_MINUTES;

export interface DayWindows {
  /** The location's date today. */
  today: string;
  tomorrow: string;
  /** Midnight starting today, tomorrow and the day after, on the location's clock, as instants. */
  todayStart: Date;
  tomorrowStart: Date;
  dayAfterStart: Date;
  /** Returns booked before this and not ended are overdue. */
  overdueBefore: Date;
  /** Pickups before this are soon. */
  soonUntil: Date;
}

/** The instants that bound a location's today and tomorrow, and what counts as overdue and soon, at `now`. */
export function dayWindows(now: Date, timeZone: string): DayWindows {
  const today = todayIn(now, timeZone);
  const tomorrow = addDays(today, 1);
  const midnight = (date: string) => toInstant({ date, time: '00:00' }, timeZone);
  return {
    today,
    tomorrow,
    todayStart: midnight(today),
    tomorrowStart: midnight(tomorrow),
    dayAfterStart: midnight(addDays(today, 2)),
    overdueBefore: new Date(now.getTime() - OVERDUE_GRACE_MINUTES * 60_000),
    soonUntil: new Date(now.getTime() + PICKUP_SOON_HOURS * 3_600_000),
  };
}

/** Whether a car's charge is too low for its next pickup. */
export const isLowBattery = (percent: number): boolean => percent < LOW_BATTERY_PERCENT;

/** What the lookup box was given: a trip reference, a phone number, an email, a VIN (or part), or a name. */
export type LookupKind = 'trip' | 'phone' | 'email' | 'vin' | 'name';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The kinds of key a lookup text may be, most likely first: an email has an @; a trip id is a
 * UUID; digits and phone punctuation are a phone number (bare digits may also be a VIN's or a reference's);
 * letters and digits may be a trip's reference or a VIN or its part (no I, O or Q); one word may
 * be the start of an email; and anything may be a name.
 */
export function lookupKinds(text: string): LookupKind[] {
  const q = text.trim();
  if (q.includes('@')) return ['email'];
  if (UUID.test(q)) return ['trip'];
  const digits = q.replace(/\D/g, '');
  // Written with a phone's punctuation it is a phone number; bare digits may also be a VIN's or a reference's.
  if (/^[\d\s()+.-]+$/.test(q) && digits.length >= 7) return /^\d+$/.test(q) ? ['phone', 'vin', 'trip'] : ['phone'];
  const kinds: LookupKind[] = [];
  if (/^[A-Za-z0-9-]+$/.test(q)) {
    kinds.push('trip');
    if (/^[A-HJ-NPR-Za-hj-npr-z0-9]{4,17}$/.test(q) && /\d/.test(q)) kinds.push('vin');
  }
  if (!/\s/.test(q)) kinds.push('email');
  kinds.push('name');
  return kinds;
}

/**
 * The staff channel of a location's board on the realtime server: told (event REFRESH) when a
 * trip there is booked, paid, verified, keyed, started, ended or cancelled, or a car's battery
 * changes, so an open board reads itself again. Renters' channels are `private-{their id}`.
 */
export const staffBoardChannel = (locationId: string | number): string => `private-ops-location-${locationId}`;

/** The location a staff board channel is for, or null for any other channel. */
export function staffBoardLocation(channel: string): string | null {
  return /^private-ops-location-(\d{1,9})$/.exec(channel)?.[1] ?? null;
}
