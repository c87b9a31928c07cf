import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { blockedUntil } from '@ampere/domain/availability';
import { addDays, toInstant, todayIn } from '@ampere/domain/time';
import type { Database } from '../src/db/schema.ts';

let counter = 0;

/** Puts a hold on a car for [pickupAt, returnAt), as a booking would. */
export async function reserve(db: Kysely<Database>, vin: string, pickupAt: string | Date, returnAt: string | Date, status = 'Pending') {
  const v = await db.selectFrom('vehicles').select(['id', 'location_id']).where('vin', '=', vin).executeTakeFirstOrThrow();
  const loc = await db.selectFrom('locations').select(['timezone']).where('id', '=', v.location_id).executeTakeFirstOrThrow();
  counter += 1;
  return db
    .insertInto('reservations')
    .values({
      platform_id: `TST-${process.pid}-${Date.now().toString(36)}-${counter}`,
      vehicle_id: v.id,
      user_id: null,
      status,
      pickup_at: new Date(pickupAt),
      return_at: new Date(returnAt),
      blocked_until: blockedUntil(new Date(returnAt)),
      timezone: loc.timezone,
      pickup_location_id: v.location_id,
      dropoff_location_id: v.location_id,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function optionId(db: Kysely<Database>, type: string, query: string): Promise<number> {
  const row = await db.selectFrom('search_options').select('id').where('type', '=', type).where('query', '=', query).executeTakeFirstOrThrow();
  return row.id;
}

export interface StartedTrip {
  id: string;
  platformId: string;
  /** Cents the charge should be: rack − discount + tax. */
  due: number;
}

let tripCounter = 0;

/**
 * A new booking as the reservations feature leaves it (status Started; Rack, Tax and Deposit
 * line items Pending), written straight into the database: `leadDays` after `now` for `days` days,
 * on a car nobody has booked, owned by `userId`.
 */
export async function startedTrip(db: Kysely<Database>, userId: string, now: Date, opts: { discount?: number; days?: number; leadDays?: number; timezone?: string } = {}): Promise<StartedTrip> {
  const days = opts.days ?? 3;
  const car = await db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['v.id', 'v.rack_rate', 'v.location_id', 'l.timezone'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('reservations as r').select('r.id').whereRef('r.vehicle_id', '=', 'v.id'))))
    .$if(opts.timezone !== undefined, (q) => q.where('l.timezone', '=', opts.timezone!))
    .orderBy('v.id', 'desc')
    .executeTakeFirstOrThrow();
  tripCounter += 1;
  const pickupDate = addDays(todayIn(now, car.timezone), opts.leadDays ?? 7);
  const platformId = `TST-${randomBytes(4).toString('hex').toUpperCase()}-${tripCounter}`;
  const reservation = await db
    .insertInto('reservations')
    .values({
      platform_id: platformId, vehicle_id: car.id, user_id: userId, status: 'Started',
      pickup_at: toInstant({ date: pickupDate, time: '10:00' }, car.timezone), return_at: toInstant({ date: addDays(pickupDate, days), time: '10:00' }, car.timezone),
      blocked_until: blockedUntil(toInstant({ date: addDays(pickupDate, days), time: '10:00' }, car.timezone)),
      timezone: car.timezone, pickup_location_id: car.location_id, dropoff_location_id: car.location_id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rack = car.rack_rate * days;
  const discount = opts.discount ?? 0;
  const tax = Math.round((rack - discount) * 0.0925);
  const line = { reservation_id: reservation.id, status: 'Pending', initiated_at: now, released_at: null, card_last_4: null, payment_id: null, reserve_applied_payment_id: null, effective_date: null, addon_id: null };
  await db
    .insertInto('transactions')
    .values([
      { ...line, category: 'Rack', description: 'Rental', cost: car.rack_rate, amount: rack, discount_amount: discount, number_of_days: days },
      { ...line, category: 'Tax', description: 'Sales tax', cost: tax, amount: tax, number_of_days: null },
      { ...line, category: 'Deposit', description: 'Security deposit', cost: 20_000, amount: 20_000, number_of_days: null },
    ])
    .execute();
  return { id: reservation.id, platformId, due: rack - discount + tax };
}
