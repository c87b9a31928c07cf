import type { Kysely, Transaction } from 'kysely';
import { ageOn } from '@ampere/domain/account';
import {
  type LineItem,
  UNDERAGE_FEE_DESCRIPTION,
  addonItem,
  dayDiscountCents,
  isBeforePickup,
  isUnderage,
  taxItem,
  taxOn,
  underageFeeItem,
} from '@ampere/domain/booking';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { PricedAddon } from '@ampere/domain/pricing';
import { rentalDaysBetween } from '@ampere/domain/rental';
import { toLocal } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { signedOut, unprocessable } from '../../http/errors.ts';
import { addonsOfModel, requireAddonPeriod } from '../addons/service.ts';
import { deleteClaim, giveBackClaim } from '../discounts/repository.ts';
import { chargesRetiredIn, retireOpenCharges } from '../payments/repository.ts';
import * as items from './line-items-repository.ts';
import * as repo from './repository.ts';
import { reservationById } from './serializer.ts';
import { lockOwnReservation } from './service.ts';

/**
 * A trip's line items as they change before it starts: add-ons, a coupon's discount, the underage
 * fee, and the tax that follows them. Every change runs under the reservation's lock and retires
 * the unpaid charge for the old items (decision 018).
 */

export interface LineItemDeps {
  db: Kysely<Database>;
  clock: Clock;
}

type Trx = Transaction<Database>;

/** Add-on ids as chosen (duplicates dropped), each an active add-on offered for this car (of model `modelId`). */
export async function pricedAddons(
  db: repo.Db,
  ids: readonly string[],
  modelId: number,
  pickupAt: Date,
  returnAt: Date,
  field: string,
): Promise<PricedAddon[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  requireAddonPeriod({ pickupAt: pickupAt.toISOString(), returnAt: returnAt.toISOString() });
  const offered = new Map((await addonsOfModel(db as Kysely<Database>, modelId)).map((a) => [a.id, a]));
  return wanted.map((id) => {
    const addon = offered.get(id);
    if (!addon) throw unprocessable(`${id} is not an add-on available for this vehicle.`, field);
    return { id: addon.id, type: addon.type, amount: addon.amount, frequency: addon.charge_frequency };
  });
}

/** What the reservation's unpaid line items are, to tell whether a change changed them. */
async function pendingFingerprint(trx: Trx, reservationId: string): Promise<string> {
  const rows = await items.pendingRows(trx, reservationId);
  return rows
    .map((t) => `${t.id}:${t.amount}:${t.discount_amount}`)
    .sort()
    .join(',');
}

/**
 * Runs a change to the reservation's line items inside the caller's transaction (which holds the
 * reservation row). When the unpaid items changed, the unpaid charge for the old ones is retired
 * in the same transaction (decision 018): its client secret can no longer settle anything, and the
 * payments feature cancels it at the provider after commit; a coupon it claimed is given back
 * (decision 052). Returns whether anything changed. `surely`: the caller knows the change adds or
 * cancels an unpaid item, so the items need not be compared before and after.
 */
export async function changingLineItems(
  trx: Trx,
  reservationId: string,
  now: Date,
  change: () => Promise<void>,
  surely = false,
): Promise<boolean> {
  if (surely) await change();
  else {
    const before = await pendingFingerprint(trx, reservationId);
    await change();
    if ((await pendingFingerprint(trx, reservationId)) === before) return false;
  }
  await pendingItemsChanged(trx, reservationId, now);
  return true;
}

/**
 * The reservation's unpaid items changed, inside the caller's transaction (which holds the
 * reservation row): the unpaid charge for the old ones is retired (decision 018) and a coupon it
 * claimed is given back (decision 052). For a change known to alter them (items added); otherwise
 * `changingLineItems` tells.
 */
export async function pendingItemsChanged(trx: Trx, reservationId: string, now: Date): Promise<void> {
  // The coupon claimed for the retired charge is given back, in the same statement; the next
  // payment step claims it again.
  await retireOpenCharges(trx, reservationId, now, giveBackClaim(trx, reservationId));
}

function requireChangeable(row: repo.ReservationRow, what: string): void {
  if (!isBeforePickup(row.status))
    throw unprocessable(`${what} can only be changed before the trip starts.`, 'platform_id');
}

/**
 * Replaces the reservation's pending Tax row by one on all its pending taxable rows net of
 * discounts (paid rows were taxed when paid). Leaves the row alone when the amount is unchanged.
 * The pickup location's tax rate is read here unless the caller has just read it (`pricingFacts`).
 */
export async function recomputePendingTax(
  trx: Trx,
  row: repo.ReservationRow,
  now: Date,
  taxRatePpm?: number,
): Promise<void> {
  const tax_rate_ppm =
    taxRatePpm ?? (await repo.pricingFacts(trx, row.vehicle_id, row.pickup_location_id)).tax_rate_ppm;
  const { cancel, tax } = pendingTaxChange(await items.pendingRows(trx, row.id), [], row, tax_rate_ppm);
  await items.cancelTransactions(trx, cancel);
  if (tax) await items.insertLineItems(trx, row.id, [tax], now);
}

type PendingRow = { id: string; category: string; amount: number; discount_amount: number };

/**
 * The rule of `recomputePendingTax`, given the pending rows and the items about to be added to
 * them: the pending Tax rows to cancel and the Tax row to write, neither when the one Tax row
 * there is already the tax on the pending taxable rows, no new one when nothing is taxable.
 */
export function pendingTaxChange(
  pending: readonly PendingRow[],
  added: readonly LineItem[],
  row: Pick<repo.ReservationRow, 'pickup_at' | 'timezone'>,
  taxRatePpm: number,
): { cancel: string[]; tax: LineItem | null } {
  const taxRows = pending.filter((t) => t.category === 'Tax');
  const taxable = [...pending, ...added].filter((t) => t.category !== 'Tax' && t.category !== 'Deposit');
  const tax = taxOn(taxable, taxRatePpm);
  if (taxable.length > 0 && taxRows.length === 1 && taxRows[0]!.amount === tax) return { cancel: [], tax: null };
  return {
    cancel: taxRows.map((t) => t.id),
    tax: taxable.length > 0 ? taxItem(tax, toLocal(new Date(row.pickup_at), row.timezone).date) : null,
  };
}

const tripDays = (row: repo.ReservationRow) =>
  rentalDaysBetween(new Date(row.pickup_at), new Date(row.return_at), row.timezone);

/**
 * PATCH /api/v1/reservations/addons: the pending add-ons become exactly `addonIds` (missing ones
 * added, unlisted pending ones canceled; paid ones stay), and the tax follows, in one transaction.
 */
export async function setAddons(
  deps: LineItemDeps,
  userId: string,
  platformId: string,
  addonIds: readonly string[],
): Promise<Reservation> {
  return (await changeAddons(deps, userId, platformId, addonIds)).reservation;
}

/** `setAddons`, telling also whether the change retired an unpaid charge (to cancel after commit). */
export async function changeAddons(
  deps: LineItemDeps,
  userId: string,
  platformId: string,
  addonIds: readonly string[],
): Promise<{ reservation: Reservation; retired: boolean }> {
  const now = deps.clock();
  return transact(deps.db, async (trx) => {
    const row = await lockOwnReservation(trx, userId, platformId);
    requireChangeable(row, 'Add-ons');
    const wanted = new Set(addonIds);
    const existing = await items.pendingAndPaidAddonRows(trx, row.id);
    const have = new Set(existing.map((t) => t.addon_id));
    // The car's model and the lot's tax rate, read once: the add-ons' prices and the tax use them.
    const facts = await repo.pricingFacts(trx, row.vehicle_id, row.pickup_location_id);
    const added = await pricedAddons(
      trx,
      [...wanted].filter((id) => !have.has(id)),
      facts.model_id,
      new Date(row.pickup_at),
      new Date(row.return_at),
      'addon_ids',
    );
    const dropped = existing.filter((t) => t.status === 'Pending' && !wanted.has(t.addon_id ?? '')).map((t) => t.id);
    const date = toLocal(new Date(row.pickup_at), row.timezone).date;
    await changingLineItems(
      trx,
      row.id,
      now,
      async () => {
        await items.cancelTransactions(trx, dropped);
        await items.insertLineItems(
          trx,
          row.id,
          added.map((a) => addonItem(a, tripDays(row), date)),
          now,
        );
        await recomputePendingTax(trx, row, now, facts.tax_rate_ppm);
      },
      // An add-on added, or a pending one (read under the lock) canceled, changes the unpaid items.
      added.length > 0 || dropped.length > 0,
    );
    return { reservation: await reservationById(trx, row.id, now), retired: chargesRetiredIn(trx) > 0 };
  });
}

/**
 * Sets a PERCENTAGE-per-DAY discount on the pending Rack rows (replacing any earlier one),
 * recomputes the tax and records the code. For the discounts feature, inside its transaction.
 */
export async function applyPercentDiscount(
  trx: Trx,
  row: repo.ReservationRow,
  code: string | null,
  percent: number,
  now: Date,
): Promise<void> {
  await changingLineItems(trx, row.id, now, async () => {
    const rack = (await items.pendingRows(trx, row.id)).filter((t) => t.category === 'Rack');
    await items.setDiscountAmounts(
      trx,
      rack
        .map((t) => ({ id: t.id, discount_amount: dayDiscountCents(t.amount, percent) }))
        .filter((c, i) => c.discount_amount !== rack[i]!.discount_amount),
    );
    await recomputePendingTax(trx, row, now);
  });
  await repo.updateReservation(trx, row.id, { discount_code: code });
  if (row.discount_code !== code) await deleteClaim(trx, row.id);
}

/** Takes the discount code off a trip: its pending rental days at full price again, the tax follows. */
export function removeDiscount(trx: Trx, row: repo.ReservationRow, now: Date): Promise<void> {
  return applyPercentDiscount(trx, row, null, 0, now);
}

/**
 * Brings the Underage User Fee in line with the renter's birthday: a renter under 25 on the pickup
 * date gets the fee (per rental day) if the trip lacks it; a pending fee is canceled when the
 * renter is not (a corrected birthday). Only while the trip can change; the tax follows. The
 * booking adds the fee when the birthday is already known; the payment step calls this, inside
 * the transaction that has locked the reservation, before charging, for a birthday given after
 * booking (spec 5: "an extra payment creation adds an underage fee"). Returns whether anything changed.
 */
export async function syncUnderageFeeLocked(
  trx: Trx,
  reservationId: string,
  now: Date,
  /** The reservation's row as the caller read it under its lock, when it did. */
  locked?: repo.ReservationRow,
  /**
   * The renter's birthday and the trip's fee rows as the caller read them after the lock
   * (`underageFeeFacts`, null for no such renter), when it did.
   */
  known?: RenterFees | null,
): Promise<boolean> {
  const row = locked ?? (await repo.findReservationById(trx, reservationId));
  return row ? underageFeeIn(trx, row, now, known) : false;
}

/** The renter's birthday and the trip's live underage fee rows, as `birthdayWithFeeRows` reads them. */
type RenterFees = NonNullable<Awaited<ReturnType<typeof items.birthdayWithFeeRows>>>;

/**
 * What `syncUnderageFeeLocked` reads, as a JSON sub-select for a statement the caller sends anyway
 * after locking the trip (the payment's read of its payments and items).
 */
export function underageFeeFacts(trx: Trx, userId: string, reservationId: string) {
  return items.birthdayWithFeeRowsOf(trx, userId, reservationId, UNDERAGE_FEE_DESCRIPTION);
}

/**
 * The renter's trips that can still change, locked in id order, each with its underage fee brought
 * in line with a birthday just changed in the same transaction. Returns the ids of those changed.
 */
export async function syncUnderageFeesOfRenter(trx: Trx, userId: string, now: Date): Promise<string[]> {
  const changed: string[] = [];
  for (const row of await repo.lockChangeableReservations(trx, userId)) {
    if (await underageFeeIn(trx, row, now)) changed.push(row.id);
  }
  return changed;
}

async function underageFeeIn(
  trx: Trx,
  row: repo.ReservationRow,
  now: Date,
  known?: RenterFees | null,
): Promise<boolean> {
  if (!isBeforePickup(row.status)) return false;
  if (!row.user_id) return false;
  const renter =
    known !== undefined ? known : await items.birthdayWithFeeRows(trx, row.user_id, row.id, UNDERAGE_FEE_DESCRIPTION);
  // A session outliving its account.
  if (!renter) throw signedOut();
  const pickupDate = toLocal(new Date(row.pickup_at), row.timezone).date;
  const underage = isUnderage(renter.birthday ? ageOn(renter.birthday, pickupDate) : null);
  const fees = renter.fees;
  if (underage && fees.length === 0) {
    return changingLineItems(trx, row.id, now, async () => {
      await items.insertLineItems(trx, row.id, [underageFeeItem(tripDays(row), pickupDate)], now);
      await recomputePendingTax(trx, row, now);
    });
  }
  if (!underage && fees.some((f) => f.status === 'Pending')) {
    return changingLineItems(trx, row.id, now, async () => {
      await items.cancelTransactions(
        trx,
        fees.filter((f) => f.status === 'Pending').map((f) => f.id),
      );
      await recomputePendingTax(trx, row, now);
    });
  }
  return false;
}
