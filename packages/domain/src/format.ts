import { type LocalDate, type LocalTime, toLocal, zoneShortName } from './time.ts';

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function parts(date: LocalDate): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

/** Rule (spec 2): dates in the date picker are shown MM/DD/YYYY. */
export function formatDateUs(date: LocalDate): string {
  const [y, m, d] = parts(date);
  return `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`;
}

/** Rule (spec 9): dates formatted en-US short month, day, year, e.g. 'Dec 1, 2026'. */
export function formatDateShort(date: LocalDate): string {
  const [y, m, d] = parts(date);
  return `${MONTHS_SHORT[m - 1]} ${d}, ${y}`;
}

/** 'Tuesday, December 1, 2026', for screen readers. */
export function formatDateLong(date: LocalDate): string {
  const [y, m, d] = parts(date);
  return `${WEEKDAYS[weekday(date)]}, ${MONTHS_LONG[m - 1]} ${d}, ${y}`;
}

export function monthTitle(year: number, month: number): string {
  return `${MONTHS_LONG[month - 1]} ${year}`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: LocalDate): number {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** '14:15' → '2:15 PM'. */
export function formatTime12(time: LocalTime): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const suffix = h < 12 ? 'AM' : 'PM';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}

/** 'Dec 1, 2026, 10:00 AM' on the clock of the zone (spec 9: en-US short month, in the location's zone). */
export function formatInstant(iso: string | Date, timeZone: string): string {
  const local = toLocal(new Date(iso), timeZone);
  return `${formatDateShort(local.date)}, ${formatTime12(local.time)}`;
}

/** An instant as the renter reads it where it happens: 'Nov 25, 2026, 9:30 AM CST'. */
export function formatInstantInZone(iso: string | Date, timeZone: string): string {
  return `${formatDateShort(toLocal(new Date(iso), timeZone).date)}, ${formatTimeInZone(iso, timeZone)}`;
}

/** The time of an instant where it happens, with the zone's short name: '9:30 AM CST'. */
export function formatTimeInZone(iso: string | Date, timeZone: string): string {
  return `${formatTime12(toLocal(new Date(iso), timeZone).time)} ${zoneAbbreviation(iso, timeZone)}`;
}

/** An instant in a signed document, readable anywhere: 'Sun, Nov 29, 2026, 10:00 AM CST (America/Chicago)'. */
export function formatInstantForRecord(iso: string | Date, timeZone: string): string {
  const day = WEEKDAYS[weekday(toLocal(new Date(iso), timeZone).date)]!.slice(0, 3);
  return `${day}, ${formatInstantInZone(iso, timeZone)} (${timeZone})`;
}

/** The zone's short name at that instant, e.g. 'CST' or 'MST'. */
export function zoneAbbreviation(iso: string | Date, timeZone: string): string {
  try {
    return zoneShortName(new Date(iso), timeZone);
  } catch {
    return '';
  }
}

/**
 * Rule (spec 2, Profile): a saved card, or a driver's license, by the last four of its number:
 * 'ending in ...4242'. The one wording wherever one is shown.
 */
export function endingIn(number: string): string {
  return `ending in ...${number.trim().slice(-4)}`;
}

/**
 * Rule: a place's address on one line, as every page and document writes it:
 * '501 Broadway, Nashville, TN 37203'.
 */
export function addressLine(place: { street: string; city: string; state: string; zip_code: string }): string {
  return `${place.street}, ${place.city}, ${place.state} ${place.zip_code}`;
}
