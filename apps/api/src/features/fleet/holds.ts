import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Hold, HoldEdit, NewHold } from '@ampere/domain/contract/ops-fleet';
import { MAX_HOLD_DAYS } from '@ampere/domain/fleet';
import { formatInstantInZone } from '@ampere/domain/format';
import type { Database } from '../../db/schema.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { CAR_NOT_FOUND, type FleetDeps } from './cars.ts';
import * as holdsRepo from './holds-repository.ts';
import * as repo from './repository.ts';

/**
 * Holds (decision 083): a car blocked for a period, for service, cleaning, charging or other.
 * car_blocks' exclusion constraint keeps every hold apart from every booking; a clash is a 409
 * naming the trip by the reference its renter sees.
 */

export const HOLD_NOT_FOUND = 'We could not find that hold.';

const iso = (d: Date | string) => new Date(d).toISOString();

function holdOut(h: holdsRepo.HoldRow): Hold {
  return {
    id: h.id,
    carId: h.vehicle_id,
    reason: h.reason,
    note: h.note,
    startsAt: iso(h.starts_at),
    endsAt: iso(h.ends_at),
    canceledAt: h.canceled_at ? iso(h.canceled_at) : null,
    createdBy: h.created_by,
  };
}

/** What is wrong with a hold's period, or null: it ends after it starts, in the future, within MAX_HOLD_DAYS. */
function periodProblem(from: Date, to: Date, now: Date): { message: string; field: string } | null {
  if (to <= from) return { message: 'A hold must end after it starts.', field: 'endsAt' };
  if (to <= now) return { message: 'A hold must end in the future.', field: 'endsAt' };
  if (to.getTime() - from.getTime() > MAX_HOLD_DAYS * 86_400_000)
    return {
      message: `A hold lasts at most ${MAX_HOLD_DAYS} days; retire the car or add another hold later.`,
      field: 'endsAt',
    };
  return null;
}

/** The 409 naming what the period clashes with: the renters' trips first, else another hold. */
async function clash(db: Kysely<Database>, vehicleId: number, from: Date, to: Date, exceptHold?: string) {
  const trips = await holdsRepo.clashingTrips(db, vehicleId, from, to);
  if (trips.length > 0)
    return new AppError(
      'CONFLICT',
      `The car is booked then: trip ${trips.map((t) => t.platform_id).join(', ')} (its turnaround included). Choose other hours or move the trip first.`,
      'startsAt',
    );
  const holds = await holdsRepo.clashingHolds(db, vehicleId, from, to, exceptHold);
  if (holds.length > 0)
    return new AppError(
      'CONFLICT',
      `The car is already on hold then (${holds[0]!.reason}, ${formatInstantInZone(holds[0]!.starts_at, holds[0]!.timezone)} to ${formatInstantInZone(holds[0]!.ends_at, holds[0]!.timezone)}); change that hold instead.`,
      'startsAt',
    );
  return null;
}

const isBlockClash = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '23P01' &&
  (err as { constraint?: unknown }).constraint === 'car_blocks_no_overlap';

/**
 * Runs a hold's write; when the exclusion constraint refuses it (a booking committed between our
 * check and our write, on another API process), answers the same 409, naming the trip.
 */
async function guarded<T>(
  deps: FleetDeps,
  vehicleId: number,
  period: () => { from: Date; to: Date },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isBlockClash(err)) throw err;
    const { from, to } = period();
    throw (
      (await clash(deps.db, vehicleId, from, to)) ??
      new AppError('CONFLICT', 'The car was just booked for part of those hours; choose other hours.', 'startsAt')
    );
  }
}

export async function createHold(
  deps: FleetDeps,
  ops: OpsContext,
  carId: number,
  body: z.output<typeof NewHold>,
): Promise<Hold> {
  const car = await repo.findCar(deps.db, carId, ops.now);
  if (!car) throw notFound(CAR_NOT_FOUND);
  ops.requireInScope(String(car.location_id), CAR_NOT_FOUND);
  if (car.retired_at) throw new AppError('CONFLICT', 'This car is retired; it needs no hold.');
  const from = new Date(body.startsAt);
  const to = new Date(body.endsAt);
  const problem = periodProblem(from, to, ops.now);
  if (problem) throw unprocessable(problem.message, problem.field);
  const id = await guarded(
    deps,
    carId,
    () => ({ from, to }),
    () =>
      transact(deps.db, async (trx) => {
        // The lock bookings of the car take: a booking racing us runs before or after, never between.
        await repo.lockCar(trx, carId);
        const refusal = await clash(trx, carId, from, to);
        if (refusal) throw refusal;
        const holdId = await holdsRepo.insertHold(trx, {
          vehicleId: carId,
          reason: body.reason,
          note: body.note,
          startsAt: from,
          endsAt: to,
          createdBy: ops.staff.id,
          now: ops.now,
        });
        const after = holdOut((await holdsRepo.findHold(trx, holdId))!);
        await ops.audit(trx, { target: { type: 'hold', id: holdId }, locationId: String(car.location_id), after });
        await afterCommit(trx, () => deps.searchIndex.markStale());
        return holdId;
      }),
  );
  return holdOut((await holdsRepo.findHold(deps.db, id))!);
}

async function holdInScope(db: Kysely<Database>, ops: OpsContext, holdId: string) {
  const hold = await holdsRepo.findHold(db, holdId);
  if (!hold) throw notFound(HOLD_NOT_FOUND);
  ops.requireInScope(String(hold.location_id), HOLD_NOT_FOUND);
  return hold;
}

export async function changeHold(
  deps: FleetDeps,
  ops: OpsContext,
  holdId: string,
  body: z.output<typeof HoldEdit>,
): Promise<Hold> {
  const found = await holdInScope(deps.db, ops, holdId);
  let period = { from: new Date(found.starts_at), to: new Date(found.ends_at) };
  await guarded(
    deps,
    found.vehicle_id,
    () => period,
    () =>
      transact(deps.db, async (trx) => {
        await repo.lockCar(trx, found.vehicle_id);
        const hold = (await holdsRepo.findHold(trx, holdId, { lock: true }))!;
        const before = holdOut(hold);
        if (hold.canceled_at) throw new AppError('CONFLICT', 'This hold was cancelled; add a new one instead.');
        if (new Date(hold.ends_at) <= ops.now)
          throw new AppError('CONFLICT', 'This hold has already ended; add a new one instead.');
        const started = new Date(hold.starts_at) <= ops.now;
        if (body.endNow) {
          // Ending a hold that has not begun is cancelling it.
          await holdsRepo.updateHold(trx, holdId, started ? { ends_at: ops.now } : { canceled_at: ops.now });
        } else {
          const from = body.startsAt ? new Date(body.startsAt) : new Date(hold.starts_at);
          const to = body.endsAt ? new Date(body.endsAt) : new Date(hold.ends_at);
          if (started && body.startsAt && from.getTime() !== new Date(hold.starts_at).getTime())
            throw unprocessable('This hold has begun: change its end, not its start.', 'startsAt');
          const problem = periodProblem(from, to, ops.now);
          if (problem) throw unprocessable(problem.message, problem.field);
          period = { from, to };
          const refusal = await clash(trx, hold.vehicle_id, from, to, holdId);
          if (refusal) throw refusal;
          await holdsRepo.updateHold(trx, holdId, {
            ...(body.reason ? { reason: body.reason } : {}),
            ...(body.note !== undefined ? { note: body.note } : {}),
            starts_at: from,
            ends_at: to,
          });
        }
        const after = holdOut((await holdsRepo.findHold(trx, holdId))!);
        await ops.audit(trx, {
          target: { type: 'hold', id: holdId },
          locationId: String(hold.location_id),
          before,
          after,
        });
        await afterCommit(trx, () => deps.searchIndex.markStale());
      }),
  );
  return holdOut((await holdsRepo.findHold(deps.db, holdId))!);
}

export async function cancelHold(deps: FleetDeps, ops: OpsContext, holdId: string): Promise<Hold> {
  await holdInScope(deps.db, ops, holdId);
  await transact(deps.db, async (trx) => {
    const hold = (await holdsRepo.findHold(trx, holdId, { lock: true }))!;
    if (hold.canceled_at) throw new AppError('CONFLICT', 'This hold is already cancelled.');
    const before = holdOut(hold);
    await holdsRepo.updateHold(trx, holdId, { canceled_at: ops.now });
    const after = holdOut((await holdsRepo.findHold(trx, holdId))!);
    await ops.audit(trx, { target: { type: 'hold', id: holdId }, locationId: String(hold.location_id), before, after });
    await afterCommit(trx, () => deps.searchIndex.markStale());
  });
  return holdOut((await holdsRepo.findHold(deps.db, holdId))!);
}
