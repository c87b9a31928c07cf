import {
  DATE_RANGE_LIMIT_DAYS,
  DEFAULT_MIN_RESERVATION_BUFFER_HOURS,
  DEFAULT_RENTAL_DAYS,
  DEFAULT_RETURN_TIME,
  MAX_PICKUP_DAYS_AHEAD,
  MIN_DAYS_WITHOUT_TIMES,
  TIME_STEP_MINUTES,
} from './constants.ts';
import {
  type LocalDate,
  type LocalDateTime,
  type LocalTime,
  MS_PER_MINUTE,
  addDays,
  addMinutes,
  compareLocal,
  daysBetween,
  toLocal,
} from './time.ts';

/** Rule (spec 5): times come in 15-minute steps from 00:00 to 23:45. */
export const TIME_OPTIONS: readonly LocalTime[] = Array.from({ length: (24 * 60) / TIME_STEP_MINUTES }, (_, i) => {
  const minutes = i * TIME_STEP_MINUTES;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

const HOUR_MS = 60 * MS_PER_MINUTE;

/**
 * Rule (spec 9): the earliest selectable pickup is now rounded down to the hour, plus the
 * location's min_reservation_buffer_hours (default 4), plus 1 hour, read in the location's zone.
 */
export function earliestSelectable(
  now: Date,
  timeZone: string,
  bufferHours: number | null | undefined = DEFAULT_MIN_RESERVATION_BUFFER_HOURS,
): LocalDateTime {
  const hourFloor = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const buffer = bufferHours ?? DEFAULT_MIN_RESERVATION_BUFFER_HOURS;
  return toLocal(new Date(hourFloor + (buffer + 1) * HOUR_MS), timeZone);
}

/** Rule (spec 5): on the earliest day, times before the earliest selectable time are disabled. */
export function isTimeDisabled(date: LocalDate, time: LocalTime, earliest: LocalDateTime): boolean {
  return compareLocal({ date, time }, earliest) < 0;
}

/**
 * Rule (spec 5): a disabled time is bumped by 15-minute steps to the next allowed one. When no
 * time that day is allowed, the result moves to the earliest selectable date and time.
 */
export function bumpToAllowed(value: LocalDateTime, earliest: LocalDateTime): LocalDateTime {
  let current = value;
  while (compareLocal(current, earliest) < 0) {
    const next = addMinutes(current, TIME_STEP_MINUTES);
    if (next.date !== value.date) return roundUpToStep(earliest);
    current = next;
  }
  return current;
}

/** Rounds a local time up to the next 15-minute step (crossing midnight when needed). */
export function roundUpToStep(value: LocalDateTime): LocalDateTime {
  const [h, m] = value.time.split(':').map(Number) as [number, number];
  const minutes = h * 60 + m;
  const rounded = Math.ceil(minutes / TIME_STEP_MINUTES) * TIME_STEP_MINUTES;
  return addMinutes({ date: value.date, time: '00:00' }, rounded);
}

/** Rule (spec 9): the latest pickup date is 365 days from today. */
export function maxPickupDate(today: LocalDate): LocalDate {
  return addDays(today, MAX_PICKUP_DAYS_AHEAD);
}

export type DayBlock = 'past' | 'beyond-max' | 'unavailable' | 'outside-window' | 'before-min-return';

export interface DayRules {
  today: LocalDate;
  /** Dates that cannot be picked at all (vehicle-unavailable dates on the booking card). */
  unavailable?: ReadonlySet<LocalDate>;
  /** The chosen pickup while the return is being picked. */
  anchor?: LocalDate | null;
  /** Whether the return is being picked (minimum return is one day after pickup). */
  pickingReturn?: boolean;
}

/**
 * Rule (spec 5): days before today are disabled; days beyond the max pickup date are disabled;
 * listed unavailable dates are blocked; once a pickup is picked the other date must be within
 * 28 days before or after it; the minimum return date is one day after pickup.
 */
export function blockedReason(day: LocalDate, rules: DayRules): DayBlock | null {
  if (daysBetween(rules.today, day) < 0) return 'past';
  if (rules.unavailable?.has(day)) return 'unavailable';
  if (rules.anchor) {
    const distance = daysBetween(rules.anchor, day);
    if (Math.abs(distance) > DATE_RANGE_LIMIT_DAYS) return 'outside-window';
    if (rules.pickingReturn && distance === 0) return 'before-min-return';
    if (rules.pickingReturn && distance > 0) return null;
  }
  if (daysBetween(maxPickupDate(rules.today), day) > 0) return 'beyond-max';
  return null;
}

export const DAY_BLOCK_LABELS: Record<DayBlock, string> = {
  past: 'in the past',
  'beyond-max': 'more than a year ahead',
  unavailable: 'unavailable',
  'outside-window': 'more than 28 days from pickup',
  'before-min-return': 'return must be at least one day after pickup',
};

export interface DateRange {
  start: LocalDate | null;
  end: LocalDate | null;
}

/**
 * Rule (spec 4, range picking): the first click picks the pickup; the next later day picks the
 * return; picking a day before the pickup resets the range to that day with no return; a click
 * on a complete range starts a new one.
 */
export function pickRangeDay(range: DateRange, day: LocalDate): DateRange {
  if (!range.start || range.end) return { start: day, end: null };
  const distance = daysBetween(range.start, day);
  if (distance < 0) return { start: day, end: null };
  if (distance === 0) return range;
  return { start: range.start, end: day };
}

export interface Trip {
  pickupDate: LocalDate;
  pickupTime: LocalTime;
  returnDate: LocalDate;
  returnTime: LocalTime;
}

/** Rule (spec 4): setting a pickup on or after the return moves the return to keep the previous length. */
export function setPickupDate(trip: Trip, pickupDate: LocalDate): Trip {
  if (daysBetween(pickupDate, trip.returnDate) > 0) return { ...trip, pickupDate };
  const length = Math.max(1, daysBetween(trip.pickupDate, trip.returnDate));
  return { ...trip, pickupDate, returnDate: addDays(pickupDate, length) };
}

/**
 * Rule (spec 4): a return on the same day as the pickup with equal times pushes the return time
 * 2 hours later (and the return date one day on when that crosses midnight).
 */
export function setReturn(trip: Trip, returnDate: LocalDate, returnTime: LocalTime): Trip {
  if (returnDate === trip.pickupDate && returnTime === trip.pickupTime) {
    const pushed = addMinutes({ date: returnDate, time: returnTime }, 120);
    return { ...trip, returnDate: pushed.date, returnTime: pushed.time };
  }
  return { ...trip, returnDate, returnTime };
}

/**
 * Rule (spec 4): pickup date tomorrow; return 7 days after pickup; pickup time the current hour
 * rounded down; return time equal to the pickup time (10:00 when there is none).
 */
export function defaultTrip(now: Date, timeZone: string): Trip {
  const local = toLocal(now, timeZone);
  const pickupDate = addDays(local.date, 1);
  const pickupTime = `${local.time.slice(0, 2)}:00`;
  return {
    pickupDate,
    pickupTime,
    returnDate: addDays(pickupDate, DEFAULT_RENTAL_DAYS),
    returnTime: pickupTime || DEFAULT_RETURN_TIME,
  };
}

/**
 * Rule (spec 5, 9): a booking card given dates but no times counts at least 7 days; with times it
 * counts the ceiling of the time difference. The trip it books is the one it counts: the return
 * moves to 7 days after the pickup when it is nearer, and both times are the default 10:00.
 */
export function tripWithoutTimes(pickupDate: LocalDate, returnDate: LocalDate): Trip {
  const earliestReturn = addDays(pickupDate, MIN_DAYS_WITHOUT_TIMES);
  return {
    pickupDate,
    pickupTime: DEFAULT_RETURN_TIME,
    returnDate: returnDate < earliestReturn ? earliestReturn : returnDate,
    returnTime: DEFAULT_RETURN_TIME,
  };
}

/**
 * The default dates for a place (spec 4) with its pickup no earlier than the earliest selectable
 * time there (spec 9: the location's buffer, default 4 hours): what search and a car's page start from.
 */
export function defaultTripFor(now: Date, timeZone: string, bufferHours: number | null | undefined): Trip {
  const trip = defaultTrip(now, timeZone);
  const pickup = bumpToAllowed(
    { date: trip.pickupDate, time: trip.pickupTime },
    earliestSelectable(now, timeZone, bufferHours),
  );
  return setPickupDate({ ...trip, pickupTime: pickup.time }, pickup.date);
}

/**
 * A trip asked for with a pickup that is no longer selectable (a bookmarked search whose dates have
 * passed, or whose pickup time is now too soon): moved to the earliest valid pickup (spec 9's
 * earliest selectable time; the asked pickup time kept when that day allows it, else bumped as the
 * time dropdown bumps it, spec 5), keeping the trip's length in days (1 to 28) and its return time.
 * Null when the pickup is still selectable: nothing to move.
 */
export function moveToEarliestValid(trip: Trip, now: Date, timeZone: string, bufferHours?: number | null): Trip | null {
  const earliest = earliestSelectable(now, timeZone, bufferHours);
  if (compareLocal({ date: trip.pickupDate, time: trip.pickupTime }, earliest) >= 0) return null;
  const days = Math.min(DATE_RANGE_LIMIT_DAYS, Math.max(1, daysBetween(trip.pickupDate, trip.returnDate)));
  const pickup = bumpToAllowed({ date: earliest.date, time: trip.pickupTime }, earliest);
  return {
    pickupDate: pickup.date,
    pickupTime: pickup.time,
    returnDate: addDays(pickup.date, days),
    returnTime: trip.returnTime,
  };
}

/** Rule (spec 4): the dropdown default time is now + 3 hours rounded up to 15 minutes, capped at 23:45. */
export function dropdownDefaultTime(now: Date, timeZone: string): LocalTime {
  const local = toLocal(now, timeZone);
  const later = roundUpToStep(addMinutes(local, 180));
  return later.date !== local.date ? '23:45' : later.time;
}

/**
 * Rule (spec 4): a trip given by its dates alone (an address with dates and no times) takes the
 * dropdown default for the time it lacks: the pickup time is now + 3 hours rounded up to 15
 * minutes (capped at 23:45) in the place's zone, and the return time equals the pickup time.
 */
export function withDefaultTimes(
  dates: { pickupDate: LocalDate; returnDate: LocalDate; pickupTime?: LocalTime; returnTime?: LocalTime },
  now: Date,
  timeZone: string,
): Trip {
  const pickupTime = dates.pickupTime ?? dropdownDefaultTime(now, timeZone);
  return {
    pickupDate: dates.pickupDate,
    pickupTime,
    returnDate: dates.returnDate,
    returnTime: dates.returnTime ?? pickupTime,
  };
}

export type TripProblem = { field: keyof Trip; message: string };

/**
 * Rule (spec 5, the 28-day range): a period's return comes after its pickup and within 28 days of
 * it. Every period the server is asked about is held to this, availability checks included, so no
 * request can make it look at an unbounded stretch of time.
 */
export function tripLengthProblem(trip: Trip): TripProblem | null {
  const pickup = { date: trip.pickupDate, time: trip.pickupTime };
  const ret = { date: trip.returnDate, time: trip.returnTime };
  if (compareLocal(ret, pickup) <= 0) return { field: 'returnDate', message: 'The return must be after the pickup.' };
  if (daysBetween(trip.pickupDate, trip.returnDate) > DATE_RANGE_LIMIT_DAYS)
    return { field: 'returnDate', message: `The return must be within ${DATE_RANGE_LIMIT_DAYS} days of the pickup.` };
  return null;
}

/**
 * The checks the server repeats for any requested period: the return after the pickup, the
 * pickup not before the earliest selectable time, not more than 365 days ahead, and the range
 * not longer than 28 days.
 */
export function tripProblems(trip: Trip, now: Date, timeZone: string, bufferHours?: number | null): TripProblem[] {
  const problems: TripProblem[] = [];
  const pickup = { date: trip.pickupDate, time: trip.pickupTime };
  const length = tripLengthProblem(trip);
  if (length) problems.push(length);
  const today = toLocal(now, timeZone).date;
  if (daysBetween(today, trip.pickupDate) < 0)
    problems.push({ field: 'pickupDate', message: 'The pickup date is in the past.' });
  else if (compareLocal(pickup, earliestSelectable(now, timeZone, bufferHours)) < 0)
    problems.push({ field: 'pickupTime', message: 'The pickup time is too soon; choose a later time.' });
  if (daysBetween(maxPickupDate(today), trip.pickupDate) > 0)
    problems.push({
      field: 'pickupDate',
      message: `The pickup must be within ${MAX_PICKUP_DAYS_AHEAD} days from today.`,
    });
  return problems;
}
