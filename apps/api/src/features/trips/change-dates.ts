import type { Kysely, Transaction } from 'kysely';
import { UNDERAGE_FEE_DESCRIPTION, isOpenTrip, taxOn } from '@ampere/domain/booking';
import { type AddonType, UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { DateChangeBody, DateChangePreview, Reservation } from '@ampere/domain/contract/booking';
import { type ChargeFrequency, netCents, netTotalCents } from '@ampere/domain/line-items';
import type { PricedAddon } from '@ampere/domain/pricing';
import { toInstant, toLocal } from '@ampere/domain/time';
import { type TripDates, addedDays, dateChangeItems, dateChangeProblems } from '@ampere/domain/trip-change';
import { keyWindow } from '@ampere/domain/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { isDatabaseError, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import { moveKeyWindow } from '../keys/service.ts';
import { chargesRetiredIn } from '../payments/repository.ts';
import * as repo from './repository.ts';
import { TRIP_NOT_FOUND, lastReservationById, reservationById } from './serializer.ts';
import { changingLineItems, pendingItemsChanged, pendingTaxChange, recomputePendingTax } from './line-items.ts';
import * as dates from './change-dates-repository.ts';
import * as lineItems from './line-items-repository.ts';
import { lockOwnReservation } from './service.ts';

type Trx = Transaction<Database>;

export interface ChangeDeps {
  db: Kysely<Database>;
  clock: Clock;
  searchIndex: { markStale(): void };
  /** After commit: the provider cancels the charges the change retired. */
  cancelRetired: (userId: string) => Promise<void>;
  /** Tells the renter's open pages their trip changed (REFRESH). */
  publish?: (userId: string) => Promise<void>;
}

/** The 409 when the car is someone else's for part of the wider period. */
export const CHANGE_UNAVAILABLE =
  'The car is booked by someone else for part of those dates. Choose an earlier return or a later pickup.';

const currentDates = (row: repo.ReservationRow): TripDates => ({
  pickup: toLocal(new Date(row.pickup_at), row.timezone),
  return: toLocal(new Date(row.return_at), row.timezone),
});
const requestedDates = (b: DateChangeBody): TripDates => ({
  pickup: { date: b.pickupDate, time: b.pickupTime },
  return: { date: b.returnDate, time: b.returnTime },
});

/** What a change applied now records of the trip's dates before it (the confirmation reads what it did). */
const lastChange = (row: repo.ReservationRow, now: Date): dates.LastChange => ({
  changed_from_pickup_at: row.pickup_at,
  changed_from_return_at: row.return_at,
  dates_changed_at: now,
});

/** What a change of dates is checked and priced by, read with the trip (change-dates-repository). */
interface TripPricing {
  rack_rate: number;
  tax_rate_ppm: number;
  min_reservation_buffer_hours: number | null;
}

/** A trip read with its pricing, split into the trip's own row and the pricing. */
function splitPricing<R extends repo.ReservationRow & TripPricing>(found: R) {
  const { rack_rate, tax_rate_ppm, min_reservation_buffer_hours, ...row } = found;
  return { row, pricing: { rack_rate, tax_rate_ppm, min_reservation_buffer_hours } };
}

/** The requested dates, checked against the trip (domain rules); throws the first problem. */
function checkedDates(row: repo.ReservationRow, body: DateChangeBody, bufferHours: number | null, now: Date) {
  const current = currentDates(row);
  const requested = requestedDates(body);
  const problem = dateChangeProblems({
    status: row.status,
    current,
    requested,
    now,
    timeZone: row.timezone,
    bufferHours,
  })[0];
  if (problem) throw unprocessable(problem.message, problem.field);
  const { before, after } = addedDays({ current, requested });
  return {
    current,
    requested,
    addedDays: before + after,
    pickupAt: toInstant(requested.pickup, row.timezone),
    returnAt: toInstant(requested.return, row.timezone),
  };
}

/** A trip's live item as liveItemsQuery reads it, as far as pricing a change goes. */
interface LiveItem {
  description: string;
  addon_id: string | null;
  addon_type: AddonType | null;
  addon_amount: number | null;
  charge_frequency: ChargeFrequency | null;
}

/**
 * The items the change adds (none when it adds no rental day), priced as a booking prices them:
 * the car's rate, and the trip's daily add-ons (each once) and underage fee for each added day.
 */
function changeItems(change: ReturnType<typeof checkedDates>, rackRateCents: number, live: readonly LiveItem[]) {
  const dailyAddons = new Map<string, PricedAddon>();
  for (const t of live)
    if (t.addon_id !== null && t.charge_frequency === 'DAY' && !dailyAddons.has(t.addon_id))
      dailyAddons.set(t.addon_id, { id: t.addon_id, type: t.addon_type!, amount: t.addon_amount!, frequency: 'DAY' });
  return dateChangeItems({
    current: change.current,
    requested: change.requested,
    rackRateCents,
    dailyAddons: [...dailyAddons.values()],
    underage: live.some((t) => t.description === UNDERAGE_FEE_DESCRIPTION),
  });
}

/** POST /api/v1/reservations/{id}/change/preview: what the change would cost and whether the car is free for it; writes nothing. */
export async function previewDateChange(
  deps: Pick<ChangeDeps, 'db' | 'clock'>,
  userId: string,
  platformId: string,
  body: DateChangeBody,
): Promise<DateChangePreview> {
  const found = await dates.tripToPreview(deps.db, userId, platformId);
  if (!found) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  const { items: live, ...trip } = found;
  const { row, pricing } = splitPricing(trip);
  const change = checkedDates(row, body, pricing.min_reservation_buffer_hours, deps.clock());
  const items = changeItems(change, pricing.rack_rate, live);
  const from =
    change.pickupAt.getTime() < new Date(row.pickup_at).getTime() ? change.pickupAt : new Date(row.pickup_at);
  const conflicts = await repo.overlappingReservations(deps.db, row.vehicle_id, from, change.returnAt, row.platform_id);
  const tax = taxOn(items, pricing.tax_rate_ppm);
  const total = netTotalCents(items) + tax;
  return {
    is_available: conflicts.length === 0,
    added_days: change.addedDays,
    items: items.map((i) => ({ description: i.description, amount: netCents(i) })),
    tax,
    total,
  };
}

/**
 * POST /api/v1/reservations/{id}/change: in one transaction, with the trip locked, the requested
 * dates are checked (domain rules), the car is held for the wider period at once (the exclusion
 * constraint refuses it when another trip is in the way: 409), and the added rental days are
 * written as Pending items priced as a booking prices them, the tax following. An earlier unpaid
 * change is replaced. A change that adds no rental day takes effect at once; otherwise the trip's
 * dates move when the items are paid (the payment step, applyPaidDateChange), and an unpaid
 * change lapses after UNPAID_HOLD_MINUTES.
 *
 * The car's rate and tax come with the locked trip, its items are read once, and the tax is
 * worked out on them and the added items before anything is written: the items and their tax go
 * in one statement, and the answer shows the row the update returned.
 */
export async function requestDateChange(
  deps: ChangeDeps,
  userId: string,
  platformId: string,
  body: DateChangeBody,
): Promise<Reservation> {
  const now = deps.clock();
  let reservation: Reservation;
  let retired = false;
  try {
    reservation = await transact(deps.db, async (trx) => {
      const found = await dates.lockTripToChange(trx, userId, platformId);
      if (!found) throw notFound(TRIP_NOT_FOUND, 'platform_id');
      const { row: locked, pricing } = splitPricing(found);
      // An earlier unpaid change is replaced: it is dropped first, its items and its hold with it.
      const row = await discardLocked(trx, locked, now);
      const change = checkedDates(row, body, pricing.min_reservation_buffer_hours, now);
      let changed: repo.ReservationRow;
      if (change.addedDays === 0) {
        const moved = { pickup_at: change.pickupAt, return_at: change.returnAt };
        changed = await dates.moveDates(trx, row.id, moved, lastChange(row, now), now);
        await moveKeyWindow(trx, { id: row.id, ...moved }, now);
      } else {
        const live = await lineItems.liveItemsOf(trx, row.id);
        const items = changeItems(change, pricing.rack_rate, live);
        const pending = live.filter((t) => t.status === 'Pending');
        const { cancel, tax } = pendingTaxChange(pending, items, row, pricing.tax_rate_ppm);
        const pickupMoved = change.pickupAt.getTime() !== new Date(row.pickup_at).getTime();
        await lineItems.cancelTransactions(trx, cancel);
        changed = await dates.requestDates(
          trx,
          row.id,
          { pickup_at: pickupMoved ? change.pickupAt : null, return_at: change.returnAt },
          tax ? [...items, tax] : items,
          now,
        );
        // Rows were added: the unpaid items changed, and the charge for the old ones goes.
        await pendingItemsChanged(trx, row.id, now);
      }
      retired = chargesRetiredIn(trx) > 0;
      return lastReservationById(trx, changed.id, now);
    });
  } catch (err) {
    if (isDatabaseError(err, '23P01')) throw new AppError('CONFLICT', CHANGE_UNAVAILABLE, 'returnDate');
    throw err;
  }
  deps.searchIndex.markStale();
  // Only a charge this change retired is canceled at the provider now; one left by an earlier
  // failure is the next payment step's or the sweep's.
  if (retired) await deps.cancelRetired(userId);
  return reservation;
}

/** DELETE /api/v1/reservations/{id}/change: the renter keeps the trip's dates; the unpaid change and its items go. */
export async function discardDateChange(deps: ChangeDeps, userId: string, platformId: string): Promise<Reservation> {
  const now = deps.clock();
  const { reservation, retired } = await transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, platformId);
    if (!row.requested_pickup_at && !row.requested_return_at)
      throw new AppError('CONFLICT', 'This trip has no unpaid change of dates.', 'platform_id');
    const discarded = await discardLocked(trx, row, now);
    return { reservation: await reservationById(trx, discarded.id, now), retired: chargesRetiredIn(trx) > 0 };
  });
  deps.searchIndex.markStale();
  if (retired) await deps.cancelRetired(userId);
  return reservation;
}

/**
 * Drops a requested change inside the caller's transaction, which holds the trip's row: the items
 * it added (written at the moment it was asked) are canceled and any charge for them retired, the
 * tax follows, and the car's hold shrinks back to the trip's own dates. Returns the trip's row as
 * it then stands.
 */
export async function discardLocked(trx: Trx, row: repo.ReservationRow, now: Date): Promise<repo.ReservationRow> {
  if (!row.requested_pickup_at && !row.requested_return_at) return row;
  if (row.change_requested_at) {
    const added = await lineItems.unpaidItemsAddedAt(trx, row.id, row.change_requested_at);
    await changingLineItems(trx, row.id, now, async () => {
      await lineItems.cancelTransactions(trx, added);
      await recomputePendingTax(trx, row, now);
    });
  }
  return dates.clearRequestedDates(trx, row.id, new Date(row.return_at), now);
}

/**
 * The payment step's part, inside its transaction with the trip locked: a requested change whose
 * items are all paid becomes the trip's dates, and the key's window follows. True when applied.
 */
export async function applyPaidDateChange(
  trx: Trx,
  reservationId: string,
  now: Date,
  /** The reservation's row as the caller read it under its lock in this transaction, when it did. */
  locked?: repo.ReservationRow,
): Promise<boolean> {
  const row = locked ?? (await repo.findReservationById(trx, reservationId));
  if (!row || (!row.requested_pickup_at && !row.requested_return_at)) return false;
  if (!isOpenTrip(row.status)) return false;
  const pickupAt = row.requested_pickup_at ?? row.pickup_at;
  const returnAt = row.requested_return_at ?? row.return_at;
  const applied = { pickup_at: new Date(pickupAt), return_at: new Date(returnAt) };
  // Applied only once nothing is left to pay; the key's window moves with the dates.
  return dates.applyRequestedDatesIfPaid(trx, reservationId, applied, lastChange(row, now), keyWindow(applied), now);
}

/**
 * The job's part (decision 027): a change not paid within UNPAID_HOLD_MINUTES lapses — its items
 * canceled, its charge retired, the car's extra hold released — each in its own transaction,
 * re-checked under the trip's lock (a payment applying it at that moment wins).
 */
export async function expireUnpaidChanges(
  deps: Omit<ChangeDeps, 'searchIndex'> & { searchIndex?: { markStale(): void } },
): Promise<string[]> {
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  const due = await dates.changesRequestedBefore(deps.db, cutoff, 100);
  const lapsed: { id: string; userId: string | null }[] = [];
  for (const id of due) {
    const userId = await transact(deps.db, async (trx) => {
      const row = await repo.findReservationById(trx, id, { lock: true });
      if (!row?.change_requested_at || row.change_requested_at.getTime() > cutoff.getTime()) return undefined;
      await discardLocked(trx, row, now);
      return row.user_id;
    });
    if (userId !== undefined) lapsed.push({ id, userId });
  }
  if (lapsed.length > 0) deps.searchIndex?.markStale();
  for (const userId of new Set(lapsed.map((l) => l.userId).filter((u): u is string => u !== null))) {
    await deps.cancelRetired(userId);
    await deps.publish?.(userId);
  }
  return lapsed.map((l) => l.id);
}
