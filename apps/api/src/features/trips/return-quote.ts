import type { CarState } from '@ampere/domain/contract/verification';
import { type DepositSplit, type EndTripFee, endTripFees, splitAgainstDeposit } from '@ampere/domain/end-trip';
import type { Db, ReservationRow } from './repository.ts';
import { liveHold } from '../payments/holds-repository.ts';
import { type CarFacts, carOf, paidAddonTypes, rideOf } from './return-repository.ts';

export interface ReturnQuote {
  car: CarFacts;
  ride: Awaited<ReturnType<typeof rideOf>>;
  unlimitedMiles: boolean;
  prepaidCharging: boolean;
  fees: EndTripFee[];
  hold: { id: string; amount: number } | null;
  split: DepositSplit;
}

/**
 * What returning the trip at `now` with the car reading `reading` costs, and how much of it the
 * deposit hold covers. End Trip writes exactly this (in its transaction, trip locked) and the
 * preview shows it (decision 054): one computation, so the preview cannot promise other fees. A
 * null reading charges only what the clock decides.
 */
export async function quoteReturn(
  db: Db,
  row: Pick<ReservationRow, 'id' | 'vehicle_id' | 'pickup_at' | 'return_at' | 'timezone'>,
  reading: CarState | null,
  now: Date,
): Promise<ReturnQuote> {
  // One after another: inside End Trip's transaction they share its one connection.
  const car = await carOf(db, row.vehicle_id);
  const ride = await rideOf(db, row.id);
  const addons = await paidAddonTypes(db, row.id);
  const hold = await liveHold(db, row.id);
  const unlimitedMiles = addons.includes('UNLIMITED_MILES');
  const prepaidCharging = addons.includes('PREPAID_EV_CHARGING');
  const fees = endTripFees({
    pickupAt: new Date(row.pickup_at),
    returnAt: new Date(row.return_at),
    timeZone: row.timezone,
    endedAt: now,
    rackRateCents: car.rack_rate,
    mileageOut: ride?.mileage_out ?? null,
    mileageIn: reading?.odometer_miles ?? null,
    batteryOut: ride?.battery_out ?? null,
    batteryIn: reading?.battery_level ?? null,
    unlimitedMiles,
    prepaidCharging,
  });
  return {
    car,
    ride,
    unlimitedMiles,
    prepaidCharging,
    fees,
    hold: hold ?? null,
    split: splitAgainstDeposit(fees, hold?.amount ?? 0),
  };
}
