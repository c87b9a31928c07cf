import type { Kysely } from 'kysely';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { CarState } from '@ampere/domain/contract/verification';
import type { EndTripFee } from '@ampere/domain/end-trip';
import { toLocal } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { revokeKeysOfReservation } from '../keys/service.ts';
import type { SyncDeps } from './sync.ts';
import { syncPaymentIntent } from './sync.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import { discardLocked } from './change-dates.ts';
import * as repo from './repository.ts';
import { quoteReturn } from './return-quote.ts';
import { carOf } from './return-repository.ts';
import { TRIP_NOT_FOUND, reservationById } from './serializer.ts';

export interface EndTripDeps {
  db: Kysely<Database>;
  clock: Clock;
  access: VehicleAccess;
  /** The payments the deposit is captured or released through. */
  payments: SyncDeps;
  searchIndex?: { markStale(): void };
  /** After commit: the provider cancels a charge retired with a discarded extension. */
  cancelRetired?: (userId: string) => Promise<void>;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

const UNREACHABLE =
  "We couldn't reach the car to record its return. Make sure it is parked and locked, then try again in a minute.";

/**
 * The job's part (decision 026): each trip On Rent without a ride gets one, with the odometer and
 * battery the car reports as it goes out. A car that does not answer is asked again at the next
 * run; a ride is written once (its key is the trip). The renter of each trip given its ride is
 * told (`publish`): the page then shows Vehicle metrics.
 */
export async function recordRideStarts(
  deps: Pick<EndTripDeps, 'db' | 'clock' | 'access' | 'log'> & { publish?: (userId: string) => Promise<void> },
): Promise<number> {
  const due = await deps.db
    .selectFrom('reservations as r')
    .leftJoin('rides as d', 'd.reservation_id', 'r.id')
    .select(['r.id', 'r.user_id', 'r.vehicle_id', 'r.on_rent_at'])
    .where('r.status', '=', 'On Rent')
    .where('d.reservation_id', 'is', null)
    .limit(50)
    .execute();
  let n = 0;
  const told = new Set<string>();
  for (const trip of due) {
    const car = await carOf(deps.db, trip.vehicle_id);
    let state: CarState;
    try {
      state = await deps.access.state(car);
    } catch (err) {
      if (!(err instanceof CarUnreachableError)) throw err;
      deps.log?.warn(
        { err, reservationId: trip.id },
        'rides: the car did not answer at pickup; asked again at the next run',
      );
      continue;
    }
    const r = await deps.db
      .insertInto('rides')
      .values({
        reservation_id: trip.id,
        vehicle_id: car.id,
        vin: car.vin,
        mileage_out: state.odometer_miles,
        battery_out: state.battery_level,
        vehicle_pickup_at: trip.on_rent_at ?? deps.clock(),
        created_at: deps.clock(),
      })
      .onConflict((oc) => oc.column('reservation_id').doNothing())
      .executeTakeFirst();
    const inserted = Number(r.numInsertedOrUpdatedRows ?? 0);
    n += inserted;
    if (inserted > 0 && trip.user_id) told.add(trip.user_id);
  }
  for (const userId of told) await deps.publish?.(userId);
  return n;
}

/**
 * POST /api/v1/reservations/{id}/end (spec 4 'End-trip'): the renter ends a trip that is On Rent.
 * The car is read first (odometer, battery); then, in one transaction with the trip locked: the
 * ride is completed, the fees of the return are written (domain/end-trip.ts) — those the deposit
 * hold covers linked to it, the rest owed as a balance, or waived when below the provider's minimum
 * charge (decision 056) — the trip becomes Returned and its key is
 * revoked. After commit the hold is captured for the fees, or released when there are none.
 */
export async function endTrip(deps: EndTripDeps, userId: string, platformId: string): Promise<Reservation> {
  const own = await repo.findReservation(deps.db, userId, platformId);
  if (!own) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  if (own.status !== 'On Rent') throw notOnRent(own.status);
  let state: CarState;
  try {
    state = await deps.access.state(await carOf(deps.db, own.vehicle_id));
  } catch (err) {
    if (err instanceof CarUnreachableError)
      throw new AppError('UNAVAILABLE', UNREACHABLE, undefined, { retryAfterSeconds: 30 });
    throw err;
  }
  const now = deps.clock();
  await transact(deps.db, async (trx) => {
    const row = await repo.findReservation(trx, userId, platformId, { lock: true });
    if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
    if (row.status !== 'On Rent') throw notOnRent(row.status);
    // An extension not paid for ends with the trip: its days were never the renter's.
    await discardLocked(trx, row, now);
    const { car, ride, hold, split } = await quoteReturn(trx, row, state, now);
    if (ride) {
      await trx
        .updateTable('rides')
        .set({ mileage_in: state.odometer_miles, battery_in: state.battery_level, vehicle_return_at: now })
        .where('reservation_id', '=', row.id)
        .execute();
    } else {
      // The car did not answer when the trip began: the return is recorded, the miles cannot be.
      await trx
        .insertInto('rides')
        .values({
          reservation_id: row.id,
          vehicle_id: car.id,
          vin: car.vin,
          mileage_out: null,
          battery_out: null,
          vehicle_pickup_at: row.on_rent_at ?? row.pickup_at,
          mileage_in: state.odometer_miles,
          battery_in: state.battery_level,
          vehicle_return_at: now,
          created_at: now,
        })
        .execute();
    }
    const date = toLocal(now, row.timezone).date;
    const feeRow = (part: { fee: EndTripFee; amount: number }, paymentId: string | null, waived = false) => ({
      reservation_id: row.id,
      category: 'Incidental' as const,
      // A part too small for a card is written off as the return is settled (decision 056).
      status: waived ? ('Successful' as const) : ('Pending' as const),
      description: part.fee.description,
      cost: part.fee.cost,
      amount: part.amount,
      discount_amount: waived ? part.amount : 0,
      number_of_days: part.fee.kind === 'lateRack' ? part.fee.quantity : null,
      effective_date: date,
      initiated_at: now,
      created_at: now,
      payment_id: paymentId,
      reserve_applied_payment_id: paymentId,
    });
    const rows = [
      ...split.fromDeposit.map((p) => feeRow(p, hold!.id)),
      ...split.due.map((p) => feeRow(p, null)),
      ...split.waived.map((p) => feeRow(p, null, true)),
    ];
    if (rows.length > 0) await trx.insertInto('transactions').values(rows).execute();
    await trx
      .updateTable('reservations')
      .set({ status: 'Returned', returned_at: now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await revokeKeysOfReservation(trx, row.id, now);
  });
  deps.searchIndex?.markStale();
  await deps.cancelRetired?.(userId);
  try {
    await settleReturnedDeposit(deps.payments, own.id);
  } catch (err) {
    deps.log?.error(
      { err, reservationId: own.id },
      'the deposit could not be settled now; the trip-status job settles it',
    );
  }
  return reservationById(deps.db, own.id, deps.clock());
}

export function notOnRent(status: string): AppError {
  if (status === 'Returned') return new AppError('CONFLICT', 'This trip has already ended.', 'platform_id');
  return new AppError('CONFLICT', 'Only a trip that is on rent can be ended.', 'platform_id');
}

/**
 * The deposit hold of a Returned trip, settled at the provider: captured for the fees linked to it
 * (partial capture; the rest is released by the same call), or released when there are none. Reads
 * everything from the rows, so it is safe to call again after a crash or a failed call: the
 * trip-status job retries trips whose hold is still authorised. True when our record changed.
 */
export async function settleReturnedDeposit(deps: SyncDeps, reservationId: string): Promise<boolean> {
  const hold = await deps.db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.id', 'p.provider_intent_id'])
    .where('p.reservation_id', '=', reservationId)
    .where('r.status', '=', 'Returned')
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.status', '=', 'requires_capture')
    .executeTakeFirst();
  if (!hold?.provider_intent_id) return false;
  const fees = await deps.db
    .selectFrom('transactions')
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('discount_amount'))), eb.lit(0)).as('sum'),
    )
    .where('payment_id', '=', hold.id)
    .where('category', '!=', 'Deposit')
    .where('status', '=', 'Pending')
    .executeTakeFirstOrThrow();
  const amount = Number(fees.sum);
  const intent = await deps.gateway.retrievePaymentIntent(hold.provider_intent_id);
  if (intent.status === 'requires_capture') {
    if (amount > 0) await deps.gateway.capture(hold.provider_intent_id, amount);
    else await deps.gateway.cancel(hold.provider_intent_id);
  }
  return (await syncPaymentIntent(deps, hold.provider_intent_id)).changed;
}

/**
 * The job's recovery pass: Returned trips whose hold is still authorised (a settle that failed or
 * was cut off). The renter of each trip whose deposit it settled is told (`publish`), once.
 */
export async function settleReturnedDeposits(
  deps: SyncDeps,
  publish?: (userId: string) => Promise<void>,
): Promise<void> {
  const due = await deps.db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select(['p.reservation_id', 'r.user_id'])
    .where('r.status', '=', 'Returned')
    .where('p.kind', '=', 'DEPOSIT_HOLD')
    .where('p.status', '=', 'requires_capture')
    .limit(50)
    .execute();
  const told = new Set<string>();
  for (const { reservation_id, user_id } of due) {
    try {
      if ((await settleReturnedDeposit(deps, reservation_id)) && user_id) told.add(user_id);
    } catch (err) {
      deps.log?.error(
        { err, reservationId: reservation_id },
        'a returned trip’s deposit could not be settled; retried at the next run',
      );
    }
  }
  for (const userId of told) await publish?.(userId);
}
