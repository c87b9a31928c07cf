import type { Kysely } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import type { HoldReason } from '@ampere/domain/fleet';
import { HELD_FROM } from '../../db/reservation-holds.ts';
import type { Database } from '../../db/schema.ts';

/** A car's holds (decision 083): car_blocks, kept by triggers, keeps each apart from every booking. */
type Db = Kysely<Database>;

const HOLD_COLUMNS = [
  'h.id',
  'h.vehicle_id',
  'h.reason',
  'h.note',
  'h.starts_at',
  'h.ends_at',
  'h.canceled_at',
  'h.created_by',
  'v.location_id',
] as const;

export function findHold(db: Db, holdId: string, opts: { lock?: boolean } = {}) {
  let q = db
    .selectFrom('vehicle_holds as h')
    .innerJoin('vehicles as v', 'v.id', 'h.vehicle_id')
    .select(HOLD_COLUMNS)
    .where('h.id', '=', holdId);
  if (opts.lock) q = q.forUpdate('h');
  return q.executeTakeFirst();
}

export type HoldRow = NonNullable<Awaited<ReturnType<typeof findHold>>>;

export async function insertHold(
  db: Db,
  hold: {
    vehicleId: number;
    reason: HoldReason;
    note: string;
    startsAt: Date;
    endsAt: Date;
    createdBy: string;
    now: Date;
  },
): Promise<string> {
  const row = await db
    .insertInto('vehicle_holds')
    .values({
      vehicle_id: hold.vehicleId,
      reason: hold.reason,
      note: hold.note,
      starts_at: hold.startsAt,
      ends_at: hold.endsAt,
      created_by: hold.createdBy,
      created_at: hold.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateHold(
  db: Db,
  holdId: string,
  values: { reason?: HoldReason; note?: string; starts_at?: Date; ends_at?: Date; canceled_at?: Date },
) {
  return db.updateTable('vehicle_holds').set(values).where('id', '=', holdId).execute();
}

/** The car's active bookings taking it for part of [from, to): the trips a hold there would clash with. */
export function clashingTrips(db: Db, vehicleId: number, from: Date, to: Date) {
  return db
    .selectFrom('reservations')
    .select(['platform_id', HELD_FROM.as('held_from'), 'blocked_until'])
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where(HELD_FROM, '<', to)
    .where('blocked_until', '>', from)
    .orderBy('pickup_at')
    .execute();
}

/** The car's other live holds overlapping [from, to). */
export function clashingHolds(db: Db, vehicleId: number, from: Date, to: Date, exceptId?: string) {
  let q = db
    .selectFrom('vehicle_holds as h')
    .innerJoin('vehicles as v', 'v.id', 'h.vehicle_id')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['h.id', 'h.reason', 'h.starts_at', 'h.ends_at', 'l.timezone'])
    .where('h.vehicle_id', '=', vehicleId)
    .where('h.canceled_at', 'is', null)
    .where('h.starts_at', '<', to)
    .where('h.ends_at', '>', from);
  if (exceptId) q = q.where('h.id', '!=', exceptId);
  return q.execute();
}

/**
 * A retired car keeps no hold ahead: its holds not yet begun are cancelled and the one under way
 * ends now. Returns how many were changed.
 */
export async function endHoldsOfCar(db: Db, vehicleId: number, now: Date): Promise<number> {
  const cancelled = await db
    .updateTable('vehicle_holds')
    .set({ canceled_at: now })
    .where('vehicle_id', '=', vehicleId)
    .where('canceled_at', 'is', null)
    .where('starts_at', '>=', now)
    .executeTakeFirst();
  const ended = await db
    .updateTable('vehicle_holds')
    .set({ ends_at: now })
    .where('vehicle_id', '=', vehicleId)
    .where('canceled_at', 'is', null)
    .where('starts_at', '<', now)
    .where('ends_at', '>', now)
    .executeTakeFirst();
  return Number(cancelled.numUpdatedRows) + Number(ended.numUpdatedRows);
}
