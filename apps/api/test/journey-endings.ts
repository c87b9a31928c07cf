import { expect } from 'vitest';
import type { Reservation } from '@ampere/domain/contract/booking';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { EndTripPreview } from '@ampere/domain/contract/end-trip';
import { MILEAGE_OVERAGE_CENTS_PER_MILE, isBelowCardMinimum } from '@ampere/domain/end-trip';
import { cancelRetiredCharges } from '../src/features/trips/checkout.ts';
import { expireUnpaidHolds } from '../src/features/trips/expire-holds.ts';
import type { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { call } from './renter-view.ts';
import type { SandboxContext } from './sandbox-context.ts';
import type { SignedIn } from './sessions.ts';

/** Two endings a generated journey (decision 055) can draw that need more than one request each. */

const MINUTE = 60_000;

/**
 * Drives on just far enough for the return's fees to pass the deposit hold by 1 to 35 cents, from
 * what End Trip's preview says they are without the extra miles; the preview then says that
 * remainder is waived, nothing left to pay by card (decision 056). A trip whose fees already pass
 * the hold, with Unlimited Miles, or without a hold or a ride reading, is returned as it is.
 */
export async function justPastDeposit(
  ctx: SandboxContext,
  who: SignedIn,
  platformId: string,
  fleet: SimulatedFleet,
  car: Parameters<SimulatedFleet['drive']>[0],
): Promise<void> {
  const url = `/api/v1/reservations/${platformId}/end/preview`;
  const read = async () =>
    (await call(ctx, 'previewing the return', { url, headers: who.headers })).json() as EndTripPreview;
  const before = await read();
  if (!before.deposit || before.car?.included_miles == null || before.car.miles_driven === null) return;
  const short = before.deposit.held + 1 - before.total;
  if (short <= 0) return;
  await fleet.drive(car, { miles: Math.ceil(short / MILEAGE_OVERAGE_CENTS_PER_MILE) });
  const after = await read();
  expect(isBelowCardMinimum(after.total - before.deposit.held), 'fees past the hold by under the minimum').toBe(true);
  expect({ due: after.due, waived: after.waived }, 'the preview waives the remainder').toEqual({
    due: 0,
    waived: after.total - before.deposit.held,
  });
}

/** An unpaid booking left past the 30-minute hold: the job's step lapses it, not a minute before. */
export async function lapse(ctx: SandboxContext, id: string, look: () => Promise<Reservation>): Promise<void> {
  const deps = { db: ctx.handle.db, gateway: ctx.gateway, clock: () => ctx.clock.now };
  const expire = () =>
    expireUnpaidHolds({
      ...deps,
      cancelRetired: async (userId) => void (await cancelRetiredCharges(deps, { userId })),
    });
  ctx.clock.now = new Date(ctx.clock.now.getTime() + (UNPAID_HOLD_MINUTES - 1) * MINUTE);
  expect(await expire(), 'lapsed before its 30 minutes').toEqual([]);
  ctx.clock.now = new Date(ctx.clock.now.getTime() + MINUTE);
  expect(await expire(), 'lapsed after its 30 minutes').toEqual([id]);
  const trip = await look();
  expect([trip.status, trip.cancel_reason], 'lapsed: the trip says why').toEqual(['Canceled', 'hold_expired']);
}
