import { expect } from 'vitest';
import { issueKeyIfReady } from '../src/features/trips/keys.ts';
import type { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { TEST_NOW } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { type SandboxContext, payTrip } from './sandbox-context.ts';
import type { SignedIn } from './sessions.ts';
import { keepSignedIn, pickUp } from './trips.ts';

export interface OnRent extends StartedTrip {
  pickupAt: Date;
  returnAt: Date;
  car: { id: number; vin: string; odometer: number; rack_rate: number };
}

/**
 * A paid trip, verified and keyed, whose pickup time has come: the job puts it On Rent and reads
 * the car as it goes out. Leaves the test clock a minute after pickup.
 */
export async function onRentTrip(
  ctx: SandboxContext,
  fleet: SimulatedFleet,
  who: SignedIn,
  opts: { days?: number; timezone?: string; now?: Date } = {},
): Promise<OnRent> {
  const db = ctx.handle.db;
  ctx.clock.now = opts.now ?? TEST_NOW;
  // The trip lives for days on the test clock; the renter stays signed in through it.
  await keepSignedIn(db, who.userId);
  const trip = await startedTrip(db, who.userId, ctx.clock.now, {
    days: opts.days,
    timezone: opts.timezone,
    leadDays: 2,
  });
  expect((await payTrip(ctx, who, trip.platformId)).status).toBe('Pending');
  await verifiedRenter(db, who.userId, ctx.clock.now);
  expect(await issueKeyIfReady({ db, clock: () => ctx.clock.now }, trip.id)).toBe(true);
  const row = await db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .select(['v.id', 'v.vin', 'v.odometer', 'v.rack_rate'])
    .where('r.id', '=', trip.id)
    .executeTakeFirstOrThrow();
  const { pickupAt, returnAt } = await pickUp(ctx, fleet, trip.id);
  return {
    ...trip,
    pickupAt,
    returnAt,
    car: { id: row.id, vin: row.vin, odometer: row.odometer, rack_rate: row.rack_rate },
  };
}
