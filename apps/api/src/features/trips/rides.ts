import type { Kysely } from 'kysely';
import type { CarState } from '@ampere/domain/contract/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import * as returns from './return-repository.ts';

export interface RideDeps {
  db: Kysely<Database>;
  clock: Clock;
  access: VehicleAccess;
  log?: { warn(obj: object, msg: string): void };
  /** Tells the renter's open pages their trip changed (REFRESH). */
  publish?: (userId: string) => Promise<void>;
}

/**
 * The job's part (decision 026): each trip On Rent without a ride gets one, with the odometer and
 * battery the car reports as it goes out. A car that does not answer is asked again at the next
 * run; a ride is written once (its key is the trip). The renter of each trip given its ride is
 * told (`publish`): the page then shows Vehicle metrics.
 */
export async function recordRideStarts(deps: RideDeps): Promise<number> {
  const due = await returns.onRentWithoutRide(deps.db, 50);
  let n = 0;
  const told = new Set<string>();
  for (const trip of due) {
    const car = await returns.carOf(deps.db, trip.vehicle_id);
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
    const inserted = await returns.insertRideOnce(deps.db, {
      reservation_id: trip.id,
      vehicle_id: car.id,
      vin: car.vin,
      mileage_out: state.odometer_miles,
      battery_out: state.battery_level,
      vehicle_pickup_at: trip.on_rent_at ?? deps.clock(),
      created_at: deps.clock(),
    });
    if (!inserted) continue;
    n += 1;
    if (trip.user_id) told.add(trip.user_id);
  }
  for (const userId of told) await deps.publish?.(userId);
  return n;
}
