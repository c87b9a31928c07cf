import { type LineItem, addonItem, isOpenTrip, rackItem, underageFeeItem } from './booking.ts';
import type { ReservationStatus } from './constants.ts';
import { type TripProblem, tripLengthProblem, tripProblems } from './dates.ts';
import type { PricedAddon } from './pricing.ts';
import { rentalDays } from './rental.ts';
import { type LocalDateTime, addDays, compareLocal, toLocal } from './time.ts';

/**
 * Changing a paid trip's dates (spec 2 'modify-reservation area', 4 'moved-up pickup' and
 * 'extended return'; decision 027): the pickup may move earlier before the trip starts, the return
 * later until it ends. A shorter trip is not a change we take: the renter cancels (while free) or
 * ends the trip early.
 */

export interface TripDates {
  pickup: LocalDateTime;
  return: LocalDateTime;
}

/** Why the requested dates cannot be taken, or none; field names are the change body's. */
export function dateChangeProblems(input: {
  status: ReservationStatus;
  current: TripDates;
  requested: TripDates;
  now: Date;
  timeZone: string;
  bufferHours?: number | null;
}): TripProblem[] {
  const { status, current, requested } = input;
  if (!isOpenTrip(status)) {
    const why =
      status === 'Started' ? 'Pay for this trip before changing its dates.' : 'This trip can no longer be changed.';
    return [{ field: 'returnDate', message: why }];
  }
  const problems: TripProblem[] = [];
  const pickupMoved = compareLocal(requested.pickup, current.pickup) !== 0;
  if (status === 'On Rent' && pickupMoved)
    problems.push({ field: 'pickupDate', message: 'The trip has started: only the return can move.' });
  else if (compareLocal(requested.pickup, current.pickup) > 0)
    problems.push({
      field: 'pickupDate',
      message: 'The pickup can only move earlier. To start later, cancel while it is free and book again.',
    });
  if (compareLocal(requested.return, current.return) < 0)
    problems.push({
      field: 'returnDate',
      message: 'The return can only move later. To come back early, end the trip when you return the car.',
    });
  if (problems.length > 0) return problems;
  if (!pickupMoved && compareLocal(requested.return, current.return) === 0)
    return [{ field: 'returnDate', message: 'Choose a new pickup or return: these are the trip’s dates already.' }];
  if (pickupMoved) {
    // A moved pickup is held to the booking rules (not too soon, within a year, the 28-day range).
    return tripProblems(
      {
        pickupDate: requested.pickup.date,
        pickupTime: requested.pickup.time,
        returnDate: requested.return.date,
        returnTime: requested.return.time,
      },
      input.now,
      input.timeZone,
      input.bufferHours,
    );
  }
  const nowLocal = toLocal(input.now, input.timeZone);
  if (compareLocal(requested.return, nowLocal) <= 0)
    return [{ field: 'returnTime', message: 'The new return must be in the future.' }];
  const length = tripLengthProblem({
    pickupDate: requested.pickup.date,
    pickupTime: requested.pickup.time,
    returnDate: requested.return.date,
    returnTime: requested.return.time,
  });
  return length ? [length] : [];
}

export interface DateChangePricing {
  current: TripDates;
  requested: TripDates;
  rackRateCents: number;
  /** The trip's daily add-ons (paid or pending); each is charged for the added days too. */
  dailyAddons: readonly PricedAddon[];
  /** The trip carries the underage fee (per day). */
  underage: boolean;
}

/** How many rental days the change adds: those at the start (pickup earlier) and at the end. */
export function addedDays(p: Pick<DateChangePricing, 'current' | 'requested'>): { before: number; after: number } {
  const total = rentalDays(p.requested.pickup, p.requested.return) - rentalDays(p.current.pickup, p.current.return);
  if (total <= 0) return { before: 0, after: 0 };
  const before =
    compareLocal(p.requested.pickup, p.current.pickup) < 0
      ? Math.min(total, Math.max(1, rentalDays(p.requested.pickup, p.current.pickup)))
      : 0;
  return { before, after: total - before };
}

/**
 * The Pending line items a change adds, priced as a booking prices them: one Rack row per added
 * day — days before the pickup dated from the new pickup date, days after dated on from the
 * current last day (so the spec's moved-up pickup and extended return rules read them) — and the
 * daily add-ons and underage fee for the added days. The tax is recomputed on the pending items
 * by the caller. None when the change adds no rental day (a return moved within the last day).
 */
export function dateChangeItems(p: DateChangePricing): LineItem[] {
  const { before, after } = addedDays(p);
  const days = before + after;
  if (days === 0) return [];
  const items: LineItem[] = [];
  for (let i = 0; i < before; i++) items.push(rackItem(p.rackRateCents, addDays(p.requested.pickup.date, i)));
  const currentDays = rentalDays(p.current.pickup, p.current.return);
  for (let i = 0; i < after; i++)
    items.push(rackItem(p.rackRateCents, addDays(p.current.pickup.date, currentDays + i)));
  const date = before > 0 ? p.requested.pickup.date : addDays(p.current.pickup.date, currentDays);
  for (const addon of p.dailyAddons) items.push(addonItem(addon, days, date));
  if (p.underage) items.push(underageFeeItem(days, date));
  return items;
}
