import type { Kysely } from 'kysely';
import type { EndTripPreview } from '@ampere/domain/contract/end-trip';
import type { CarState } from '@ampere/domain/contract/verification';
import {
  LATE_RETURN_GRACE_MINUTES,
  chargingMinimum,
  returnChargeNeeded,
  includedMiles,
  milesDriven,
  minutesLate,
} from '@ampere/domain/end-trip';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { CarUnreachableError, type VehicleAccess } from '../vehicle-access/provider.ts';
import { notOnRent } from './end-trip.ts';
import * as repo from './repository.ts';
import { quoteReturn } from './return-quote.ts';
import { carOf } from './return-repository.ts';
import { TRIP_NOT_FOUND } from './serializer.ts';

const NO_READING =
  "We couldn't read the car just now. You can still end your trip: any battery or mileage fee is worked out from the car's readings when you do.";

/**
 * GET /api/v1/reservations/{id}/end/preview (decision 054): the car read now, and the fees End
 * Trip would charge if the renter ended the trip at this moment, split against the deposit hold
 * as End Trip splits them. Nothing is written and no key changes: only the car is asked.
 */
export async function previewEndTrip(
  deps: { db: Kysely<Database>; clock: Clock; access: VehicleAccess },
  userId: string,
  platformId: string,
): Promise<EndTripPreview> {
  const row = await repo.findReservation(deps.db, userId, platformId);
  if (!row) throw notFound(TRIP_NOT_FOUND, 'platform_id');
  if (row.status !== 'On Rent') throw notOnRent(row.status);
  let reading: CarState | null = null;
  try {
    reading = await deps.access.state(await carOf(deps.db, row.vehicle_id));
  } catch (err) {
    if (!(err instanceof CarUnreachableError)) throw err;
  }
  const now = deps.clock();
  const quote = await quoteReturn(deps.db, row, reading, now);
  const parts = (list: typeof quote.split.fromDeposit, kind: string) =>
    list.filter((p) => p.fee.kind === kind).reduce((sum, p) => sum + p.amount, 0);
  const total = quote.fees.reduce((sum, f) => sum + f.amount, 0);
  const mileageOut = quote.ride?.mileage_out ?? null;
  const chargeNeeded = returnChargeNeeded(quote.prepaidCharging, quote.ride?.battery_out ?? null);
  return {
    as_of: now.toISOString(),
    return_at: new Date(row.return_at).toISOString(),
    timezone: row.timezone,
    minutes_late: minutesLate(new Date(row.return_at), now),
    grace_minutes: LATE_RETURN_GRACE_MINUTES,
    car: reading && {
      battery_level: reading.battery_level,
      charging_minimum: chargeNeeded,
      low_at_pickup: chargeNeeded < chargingMinimum(quote.prepaidCharging),
      miles_driven: mileageOut === null ? null : milesDriven(mileageOut, reading.odometer_miles),
      included_miles: quote.unlimitedMiles
        ? null
        : includedMiles(new Date(row.pickup_at), new Date(row.return_at), row.timezone),
    },
    car_message: reading ? null : NO_READING,
    fees: quote.fees.map((f) => ({
      kind: f.kind,
      description: f.description,
      amount: f.amount,
      from_deposit: parts(quote.split.fromDeposit, f.kind),
      due: parts(quote.split.due, f.kind),
      waived: parts(quote.split.waived, f.kind),
    })),
    total,
    deposit: quote.hold && {
      held: quote.hold.amount,
      kept: quote.split.capture,
      released: quote.hold.amount - quote.split.capture,
    },
    due: quote.split.due.reduce((sum, p) => sum + p.amount, 0),
    waived: quote.split.waived.reduce((sum, p) => sum + p.amount, 0),
  };
}
