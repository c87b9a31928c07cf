import type { Kysely } from 'kysely';
import type { Reservation } from '@ampere/domain/contract/booking';
import type { CarState } from '@ampere/domain/contract/verification';
import type { EndTripFee } from '@ampere/domain/end-trip';
import { toLocal } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import { type MessageRecorder, recordMoneyMoved } from '../messages/record.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import { recordServerEvent } from '../analytics/service.ts';
import { revokeKeysOfReservation } from '../keys/service.ts';
import type { SyncDeps } from './sync.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import { discardLocked } from './change-dates.ts';
import * as repo from './repository.ts';
import * as lifecycle from './status-repository.ts';
import { quoteReturn } from './return-quote.ts';
import * as returns from './return-repository.ts';
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
  /** Spec 4: ending a trip emits its event (trip_ended), after commit. */
  analytics?: AnalyticsSink;
  /** The renter's trip messages: the trip's end, and the fees taken from the deposit (decision 070). */
  messages?: MessageRecorder;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

const UNREACHABLE =
  "We couldn't reach the car to record its return. Make sure it is parked and locked, then try again in a minute.";

/**
 * POST /api/v1/reservations/{id}/end (spec 4 'End-trip'): the renter ends a trip that is On Rent.
 * The car is read first (odometer, battery); then, in one transaction with the trip locked: the
 * ride is completed, the fees of the return are written (domain/end-trip.ts) — those the deposit
 * hold covers linked to it, the rest owed as a balance, or waived when below the provider's minimum
 * charge (decision 056) — the trip becomes Returned and its key is
 * revoked. The hold stays authorised through the review window (decision 092) and is settled
 * then; the trip_ended event is recorded (spec 4) with the fees charged, in cents.
 */
export async function endTrip(deps: EndTripDeps, userId: string, platformId: string): Promise<Reservation> {
  const own = await repo.findReservation(deps.db, userId, platformId);
  if (!own) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  if (own.status !== 'On Rent') throw notOnRent(own.status);
  let state: CarState;
  try {
    state = await deps.access.state(await returns.carOf(deps.db, own.vehicle_id));
  } catch (err) {
    if (err instanceof CarUnreachableError)
      throw new AppError('UNAVAILABLE', UNREACHABLE, undefined, { retryAfterSeconds: 30 });
    throw err;
  }
  const now = deps.clock();
  const fees = await transact(deps.db, async (trx) => {
    const row = await repo.findReservation(trx, userId, platformId, { lock: true });
    if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
    if (row.status !== 'On Rent') throw notOnRent(row.status);
    // An extension not paid for ends with the trip: its days were never the renter's.
    await discardLocked(trx, row, now);
    const { car, ride, hold, split } = await quoteReturn(trx, row, state, now);
    const reading = { mileage_in: state.odometer_miles, battery_in: state.battery_level, vehicle_return_at: now };
    if (ride) await returns.completeRide(trx, row.id, reading);
    else {
      // The car did not answer when the trip began: the return is recorded, the miles cannot be.
      await returns.insertRide(trx, {
        reservation_id: row.id,
        vehicle_id: car.id,
        vin: car.vin,
        mileage_out: null,
        battery_out: null,
        vehicle_pickup_at: row.on_rent_at ?? row.pickup_at,
        ...reading,
        created_at: now,
      });
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
    await returns.insertReturnFees(trx, rows);
    await lifecycle.markReturned(trx, row.id, now);
    await revokeKeysOfReservation(trx, row.id, now);
    const charged = [...split.fromDeposit, ...split.due].reduce((sum, part) => sum + part.amount, 0);
    const fromDeposit = split.fromDeposit.reduce((sum, part) => sum + part.amount, 0);
    if (deps.messages) {
      await deps.messages.record(trx, row.id, now, {
        kind: 'trip_ended',
        feesCents: charged,
        depositCents: hold?.amount ?? 0,
      });
      if (fromDeposit > 0)
        await recordMoneyMoved(
          deps.messages,
          trx,
          row.id,
          now,
          { kind: 'charge_made', amountCents: fromDeposit, description: 'the fees of your return' },
          'return-fees',
        );
    }
    return charged;
  });
  deps.searchIndex?.markStale();
  await deps.cancelRetired?.(userId);
  // The hold stays authorised for the review window (decision 092): charges found in the review
  // come from it first; staff settle it sooner, or the trip-status job when the window ends.
  if (deps.analytics)
    await recordServerEvent(deps.analytics, deps.log, {
      name: 'trip_ended',
      userId,
      properties: { platform_id: platformId, fees },
      now: deps.clock(),
    });
  return reservationById(deps.db, own.id, deps.clock());
}

export function notOnRent(status: string): AppError {
  if (status === 'Returned') return new AppError('CONFLICT', 'This trip has already ended.', 'platform_id');
  return new AppError('CONFLICT', 'Only a trip that is on rent can be ended.', 'platform_id');
}
