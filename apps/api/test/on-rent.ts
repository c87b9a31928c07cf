import { expect } from 'vitest';
import { issueKeyIfReady } from '../src/features/keys/service.ts';
import { recordRideStarts } from '../src/features/reservations/end-trip.ts';
import { advanceTripStatus } from '../src/features/reservations/trip-status.ts';
import type { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { TEST_NOW } from './harness.ts';
import { type StartedTrip, startedTrip, verifiedRenter } from './factories.ts';
import { type SandboxContext, payTrip } from './sandbox-context.ts';
import type { SignedIn } from './sessions.ts';

const MINUTE = 60_000;

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
  await db
    .updateTable('sessions')
    .set({ expires_at: new Date('2030-01-01T00:00:00Z') })
    .where('user_id', '=', who.userId)
    .execute();
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
    .select(['r.pickup_at', 'r.return_at', 'v.id', 'v.vin', 'v.odometer', 'v.rack_rate'])
    .where('r.id', '=', trip.id)
    .executeTakeFirstOrThrow();
  ctx.clock.now = new Date(row.pickup_at.getTime() + MINUTE);
  await advanceTripStatus({ db, clock: () => ctx.clock.now });
  await recordRideStarts({ db, clock: () => ctx.clock.now, access: fleet });
  return {
    ...trip,
    pickupAt: row.pickup_at,
    returnAt: row.return_at,
    car: { id: row.id, vin: row.vin, odometer: row.odometer, rack_rate: row.rack_rate },
  };
}
