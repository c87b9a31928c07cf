import type { Insertable, Transaction } from 'kysely';
import type { Database, RideTable, TransactionTable } from '../../db/schema.ts';
import type { Db } from './repository.ts';

/**
 * A trip's return (decisions 026, 054): the reads it is priced from, and the ride and fees End Trip
 * writes. `db` is a transaction when the return is being written.
 */

export type CarFacts = { id: number; vin: string; odometer: number; rack_rate: number };

export function carOf(db: Db, vehicleId: number): Promise<CarFacts> {
  return db
    .selectFrom('vehicles')
    .select(['id', 'vin', 'odometer', 'rack_rate'])
    .where('id', '=', vehicleId)
    .executeTakeFirstOrThrow();
}

export function rideOf(db: Db, reservationId: string) {
  return db
    .selectFrom('rides')
    .select(['reservation_id', 'mileage_out', 'battery_out'])
    .where('reservation_id', '=', reservationId)
    .executeTakeFirst();
}

/** The add-on types the renter paid for on this trip. */
export async function paidAddonTypes(db: Db, reservationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions as t')
    .innerJoin('addons as a', 'a.id', 't.addon_id')
    .select(['a.type'])
    .where('t.reservation_id', '=', reservationId)
    .where('t.category', '=', 'Addon')
    .where('t.status', 'in', ['Successful', 'Captured'])
    .execute();
  return rows.map((r) => r.type);
}

/** Trips On Rent that have no ride yet (the car was not read as it went out), at most `limit`. */
export function onRentWithoutRide(db: Db, limit: number) {
  return db
    .selectFrom('reservations as r')
    .leftJoin('rides as d', 'd.reservation_id', 'r.id')
    .select(['r.id', 'r.user_id', 'r.vehicle_id', 'r.on_rent_at'])
    .where('r.status', '=', 'On Rent')
    .where('d.reservation_id', 'is', null)
    .limit(limit)
    .execute();
}

/** Writes the trip's ride unless it has one (its key is the trip); true when written. */
export async function insertRideOnce(db: Db, ride: Insertable<RideTable>): Promise<boolean> {
  const r = await db
    .insertInto('rides')
    .values(ride)
    .onConflict((oc) => oc.column('reservation_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The ride is completed with the car's reading as it came back. */
export async function completeRide(
  trx: Transaction<Database>,
  reservationId: string,
  reading: { mileage_in: number; battery_in: number; vehicle_return_at: Date },
): Promise<void> {
  await trx.updateTable('rides').set(reading).where('reservation_id', '=', reservationId).execute();
}

export async function insertRide(trx: Transaction<Database>, ride: Insertable<RideTable>): Promise<void> {
  await trx.insertInto('rides').values(ride).execute();
}

/** The return's fee rows, as End Trip decided them. */
export async function insertReturnFees(
  trx: Transaction<Database>,
  rows: readonly Insertable<TransactionTable>[],
): Promise<void> {
  if (rows.length > 0) await trx.insertInto('transactions').values(rows).execute();
}
