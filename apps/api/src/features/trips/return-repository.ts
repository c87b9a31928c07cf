import type { Db } from './repository.ts';

/** The reads a trip's return is priced from (decision 026, 054); a transaction when the return is being written. */

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

/** The trip's deposit hold while it is authorised (the only hold fees can be taken from). */
export function liveHold(db: Db, reservationId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'amount'])
    .where('reservation_id', '=', reservationId)
    .where('kind', '=', 'DEPOSIT_HOLD')
    .where('status', '=', 'requires_capture')
    .executeTakeFirst();
}
