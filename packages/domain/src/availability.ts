import { TIME_STEP_MINUTES, TURNAROUND_MINUTES } from './constants.ts';
import { TIME_OPTIONS } from './dates.ts';
import { type LocalDate, type LocalDateTime, MS_PER_MINUTE, addDays, toInstant, toLocal } from './time.ts';

/**
 * Decision 015: one availability rule for search, the vehicle page and booking. A car is held by
 * each active booking from its pickup until its return plus the turnaround; a new period
 * [pickup, return) is free when it, plus its own turnaround, overlaps none of those stretches.
 * The database's exclusion constraint compares exactly these ranges (pickup_at, blocked_until).
 */

export const TURNAROUND_MS = TURNAROUND_MINUTES * MS_PER_MINUTE;
const STEP_MS = TIME_STEP_MINUTES * MS_PER_MINUTE;

/** A stretch the car is held, in milliseconds since the epoch, half-open: [from, until). */
export interface Busy {
  from: number;
  until: number;
}

/** When a booking returning at `returnAt` frees the car: what reservations.blocked_until stores. */
export function blockedUntil(returnAt: Date): Date {
  return new Date(returnAt.getTime() + TURNAROUND_MS);
}

/** Rule (decision 015): [pickup, return) clashes with the held stretch [busyFrom, busyUntil). */
export function clashes(busyFrom: number, busyUntil: number, pickupMs: number, returnMs: number): boolean {
  return pickupMs < busyUntil && busyFrom < returnMs + TURNAROUND_MS;
}

/** Rule (decision 015): the period is free when it clashes with none of the car's held stretches. */
export function isPeriodFree(busy: readonly Busy[], pickupMs: number, returnMs: number): boolean {
  for (const b of busy) if (clashes(b.from, b.until, pickupMs, returnMs)) return false;
  return true;
}

/**
 * Which time a list is choosing: a pickup, or a return (after a chosen pickup when there is one).
 */
export type TimeKind = { kind: 'pickup' } | { kind: 'return'; pickupMs: number | null };

/**
 * Rule (decision 015), for the time lists: a pickup time clashes when even the shortest trip
 * (one 15-minute step) starting then is not free; a return time clashes when the trip from the
 * chosen pickup to it is not free, or, with no usable pickup, when even the shortest trip ending
 * then is not.
 */
export function instantClashes(busy: readonly Busy[], at: number, kind: TimeKind): boolean {
  if (kind.kind === 'pickup') return !isPeriodFree(busy, at, at + STEP_MS);
  if (kind.pickupMs !== null && kind.pickupMs < at && isPeriodFree(busy, kind.pickupMs, kind.pickupMs + STEP_MS))
    return !isPeriodFree(busy, kind.pickupMs, at);
  return !isPeriodFree(busy, at - STEP_MS, at);
}

export function timeClashes(busy: readonly Busy[], at: LocalDateTime, timeZone: string, kind: TimeKind): boolean {
  return instantClashes(busy, toInstant(at, timeZone).getTime(), kind);
}

/** A day is taken (for picking a pickup, or a return) when every time on it clashes. */
export function isDayTaken(busy: readonly Busy[], date: LocalDate, timeZone: string, kind: TimeKind): boolean {
  if (busy.length === 0) return false;
  return TIME_OPTIONS.every((time) => timeClashes(busy, { date, time }, timeZone, kind));
}

/** The local dates on which some time could clash with the car's held stretches. */
export function touchedDays(busy: readonly Busy[], timeZone: string): LocalDate[] {
  const days = new Set<LocalDate>();
  for (const b of busy) {
    const last = toLocal(new Date(b.until + STEP_MS), timeZone).date;
    for (let d = toLocal(new Date(b.from - TURNAROUND_MS - STEP_MS), timeZone).date; d <= last; d = addDays(d, 1))
      days.add(d);
  }
  return [...days].sort();
}

/** The dates among `dates` that are taken for this kind of pick. */
export function takenDays(
  busy: readonly Busy[],
  timeZone: string,
  dates: Iterable<LocalDate>,
  kind: TimeKind,
): Set<LocalDate> {
  const taken = new Set<LocalDate>();
  for (const d of dates) if (isDayTaken(busy, d, timeZone, kind)) taken.add(d);
  return taken;
}

/**
 * The vehicle's day map (spec: availability, date to boolean) for `count` days from `today`: a
 * date is false only when it is fully taken, with no pickup and no return time left on it. A
 * partly taken date stays true; its time lists say which times clash.
 */
export function availabilityByDate(
  busy: readonly Busy[],
  timeZone: string,
  today: LocalDate,
  count: number,
): Record<LocalDate, boolean> {
  const result: Record<LocalDate, boolean> = {};
  for (let i = 0; i < count; i++) result[addDays(today, i)] = true;
  for (const d of touchedDays(busy, timeZone)) {
    if (!(d in result)) continue;
    const noPickup = isDayTaken(busy, d, timeZone, { kind: 'pickup' });
    result[d] = !(noPickup && isDayTaken(busy, d, timeZone, { kind: 'return', pickupMs: null }));
  }
  return result;
}

/** Held stretches from their ISO form (as the vehicle response carries them). */
export function busyFromIso(list: readonly { from: string; until: string }[]): Busy[] {
  return list.map((b) => ({ from: Date.parse(b.from), until: Date.parse(b.until) }));
}
