import { randomInt } from 'node:crypto';
import type { StaffRole } from '@ampere/domain/staff';
import { listAudit } from '../src/features/audit/repository.ts';
import { makeVin } from '../src/seed/vin.ts';
import { carAtNewLot, optionId } from './factories.ts';
import type { TestContext } from './harness.ts';
import { signedInStaff } from './staff.ts';

/** What the fleet's console tests share: calls as a staff member, new lots, fresh VINs, search. */

let serial = randomInt(0, 400_000);
/** A VIN with a good check digit, never the same twice in this test process. */
export function freshVin(): string {
  serial += 1;
  return makeVin('7GZ', 'TEST', 2025, 'K', serial % 1_000_000);
}

export interface Lot {
  vin: string;
  carId: number;
  locationId: number;
  lotName: string;
  timezone: string;
  optionId: number;
}

/** A new lot with one car of its own (and its own city), as the fleet tests use them. */
export async function newLot(ctx: TestContext, opts: { rackRate?: number } = {}): Promise<Lot> {
  const lot = await carAtNewLot(ctx.handle.db, 0, opts);
  const car = await ctx.handle.db
    .selectFrom('vehicles')
    .select('id')
    .where('vin', '=', lot.vin)
    .executeTakeFirstOrThrow();
  return { ...lot, carId: car.id, optionId: await optionId(ctx.handle.db, 'LOT', lot.lotName) };
}

export type Caller = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => Promise<{ statusCode: number; body: string; json(): any; headers: Record<string, unknown> }>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A signed-in staff member of `role` (at `locationIds`, or everywhere) and a way to call the console as them. */
export async function staffCaller(
  ctx: TestContext,
  role: StaffRole,
  locationIds?: (string | number)[],
): Promise<{ id: string; call: Caller }> {
  const staff = await signedInStaff(ctx.handle.db, {
    role,
    locationIds: locationIds ? locationIds.map(String) : null,
    now: ctx.clock.now,
  });
  const call: Caller = (method, url, payload, headers = {}) =>
    ctx.app.inject({
      method,
      url: `/api/ops/v1${url}`,
      headers: { cookie: staff.cookie, ...headers },
      ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
    });
  return { id: staff.id, call };
}

/** The staff member's latest audit records, newest first. */
export const auditOf = (ctx: TestContext, staffId: string) => listAudit(ctx.handle.db, { limit: 20, staffId });

/** The VINs a renter's search of the lot offers for these dates. */
export async function offeredVins(
  ctx: TestContext,
  lot: Pick<Lot, 'optionId'>,
  pickupDate: string,
  returnDate: string,
): Promise<{ vin: string; rack_rate: number }[]> {
  const res = await ctx.app.inject({
    url: `/api/v1/vehicles/search/${lot.optionId}`,
    query: { pickupDate, returnDate, limit: '50' },
  });
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
  return res.json().items.map((i: { vin: string; rack_rate: number }) => ({ vin: i.vin, rack_rate: i.rack_rate }));
}
