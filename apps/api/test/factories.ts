import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { blockedUntil } from '@ampere/domain/availability';
import { addDays, toInstant, todayIn } from '@ampere/domain/time';
import type { Database } from '../src/db/schema.ts';
import { makeVin } from '../src/seed/vin.ts';
import type { ReservationStatus, SearchOptionType } from '@ampere/domain/constants';

let counter = 0;

/** Puts a hold on a car for [pickupAt, returnAt), as a booking would. */
export async function reserve(
  db: Kysely<Database>,
  vin: string,
  pickupAt: string | Date,
  returnAt: string | Date,
  status: ReservationStatus = 'Pending',
) {
  const v = await db
    .selectFrom('vehicles')
    .select(['id', 'location_id'])
    .where('vin', '=', vin)
    .executeTakeFirstOrThrow();
  const loc = await db
    .selectFrom('locations')
    .select(['timezone'])
    .where('id', '=', v.location_id)
    .executeTakeFirstOrThrow();
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

export async function optionId(db: Kysely<Database>, type: SearchOptionType, query: string): Promise<number> {
  const row = await db
    .selectFrom('search_options')
    .select('id')
    .where('type', '=', type)
    .where('query', '=', query)
    .executeTakeFirstOrThrow();
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
 * line items Pending), written straight into the database: `leadDays` after `now` for `days` days
 * (picked up at 10:00, returned at `returnTime` on the last day: 10:00 unless told, and `days` is
 * the rental days either way, so a return before 10:00 leaves part of the last day unused), on a
 * car nobody has booked, owned by `userId`.
 */
export async function startedTrip(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  opts: { discount?: number; days?: number; leadDays?: number; timezone?: string; returnTime?: string } = {},
): Promise<StartedTrip> {
  const days = opts.days ?? 3;
  const car = await db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['v.id', 'v.rack_rate', 'v.location_id', 'l.timezone'])
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('reservations as r').select('r.id').whereRef('r.vehicle_id', '=', 'v.id'))),
    )
    .$if(opts.timezone !== undefined, (q) => q.where('l.timezone', '=', opts.timezone!))
    .orderBy('v.id', 'desc')
    .executeTakeFirstOrThrow();
  tripCounter += 1;
  const pickupDate = addDays(todayIn(now, car.timezone), opts.leadDays ?? 7);
  const returnAt = toInstant({ date: addDays(pickupDate, days), time: opts.returnTime ?? '10:00' }, car.timezone);
  const platformId = `TST-${randomBytes(4).toString('hex').toUpperCase()}-${tripCounter}`;
  const reservation = await db
    .insertInto('reservations')
    .values({
      platform_id: platformId,
      vehicle_id: car.id,
      user_id: userId,
      status: 'Started',
      pickup_at: toInstant({ date: pickupDate, time: '10:00' }, car.timezone),
      return_at: returnAt,
      blocked_until: blockedUntil(returnAt),
      timezone: car.timezone,
      pickup_location_id: car.location_id,
      dropoff_location_id: car.location_id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rack = car.rack_rate * days;
  const discount = opts.discount ?? 0;
  const tax = Math.round((rack - discount) * 0.0925);
  const line = {
    reservation_id: reservation.id,
    status: 'Pending' as const,
    initiated_at: now,
    released_at: null,
    card_last_4: null,
    payment_id: null,
    reserve_applied_payment_id: null,
    effective_date: null,
    addon_id: null,
  };
  await db
    .insertInto('transactions')
    .values([
      {
        ...line,
        category: 'Rack',
        description: 'Rental',
        cost: car.rack_rate,
        amount: rack,
        discount_amount: discount,
        number_of_days: days,
      },
      { ...line, category: 'Tax', description: 'Sales tax', cost: tax, amount: tax, number_of_days: null },
      {
        ...line,
        category: 'Deposit',
        description: 'Security deposit',
        cost: 20_000,
        amount: 20_000,
        number_of_days: null,
      },
    ])
    .execute();
  return { id: reservation.id, platformId, due: rack - discount + tax };
}

/**
 * The renter as the verification steps leave them: driver's license approved (valid for years) and
 * an active insurance policy connected. With a paid trip and its deposit held, that is all a key needs.
 */
export async function verifiedRenter(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ license_status: 'approved', license_number: 'D1112223', license_expiration: '2031-01-01' })
    .where('id', '=', userId)
    .execute();
  await db
    .insertInto('insurance_verifications')
    .values({
      user_id: userId,
      reservation_id: null,
      status: 'ACTIVE',
      carrier: 'USAA',
      policy_number: 'US-1',
      created_at: now,
    })
    .execute();
}

let lotCounter = 0;

/** Where this process's made-up VINs start, so that lots made by one test never share a VIN. */
const VIN_SERIAL_BASE = randomBytes(3).readUIntBE(0, 3) % 100_000;

/**
 * A pickup lot of its own in a new city (Chicago's zone unless told), with its own notice for
 * pickups (its LOT search option's min_reservation_buffer_hours; the city's is left at the
 * default), and one self-serve car parked there, at $99.00 a day and 9 % tax unless told.
 */
export async function carAtNewLot(
  db: Kysely<Database>,
  bufferHours: number | null,
  opts: { timezone?: string; rackRate?: number; taxRatePpm?: number } = {},
): Promise<{ vin: string; locationId: number; regionId: number; lotName: string; timezone: string }> {
  lotCounter += 1;
  const tag = `${randomBytes(3).toString('hex')}${lotCounter}`;
  const timezone = opts.timezone ?? 'America/Chicago';
  const place = { state: 'TN', latitude: 36.0 + lotCounter / 100, longitude: -86.5, timezone };
  const region = await db
    .insertInto('regions')
    .values({ name: `Testville ${tag}`, ...place })
    .returning('id')
    .executeTakeFirstOrThrow();
  const lotName = `Testville ${tag} Lot`;
  await db
    .insertInto('search_options')
    .values([
      {
        region_id: region.id,
        type: 'CITY',
        query: `Testville ${tag}, TN`,
        ...place,
        min_reservation_buffer_hours: null,
      },
      { region_id: region.id, type: 'LOT', query: lotName, ...place, min_reservation_buffer_hours: bufferHours },
    ])
    .execute();
  const location = await db
    .insertInto('locations')
    .values({
      region_id: region.id,
      name: lotName,
      street: '1 Test Way',
      city: `Testville ${tag}`,
      zip_code: '37000',
      is_airport: false,
      tax_rate_ppm: opts.taxRatePpm ?? 90_000,
      pickup_instructions_html: '<p>Ask at the desk.</p>',
      return_instructions_html: '<p>Leave it in bay 1.</p>',
      ...place,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const model = await db.selectFrom('vehicle_models').select('id').orderBy('id').executeTakeFirstOrThrow();
  const vin = makeVin('5YJ', '3E1E', 2024, 'F', 800_000 + ((VIN_SERIAL_BASE + lotCounter) % 199_999));
  await db
    .insertInto('vehicles')
    .values({
      vin,
      platform_id: `VEH-${tag.toUpperCase()}`,
      model_id: model.id,
      location_id: location.id,
      year: 2024,
      color: 'WHITE',
      odometer: 12_000,
      rack_rate: opts.rackRate ?? 9_900,
      is_self_serve_booking_allowed: true,
      battery_type: 'LR',
    })
    .execute();
  return { vin, locationId: location.id, regionId: region.id, lotName, timezone };
}

/**
 * A car the seed put no holds on and that no earlier call handed out (`used` remembers them), so any
 * dates a test picks on it are free: self-serve, and in `timezone` when one is given.
 */
export async function unbookedCar(
  db: Kysely<Database>,
  used: Set<string>,
  opts: { timezone?: string } = {},
): Promise<{ vin: string; timezone: string }> {
  const rows = await db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['v.vin', 'l.timezone'])
    .where('v.is_self_serve_booking_allowed', '=', true)
    .$if(opts.timezone !== undefined, (q) => q.where('l.timezone', '=', opts.timezone!))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('reservations as r').select('r.id').whereRef('r.vehicle_id', '=', 'v.id'))),
    )
    .orderBy('v.id')
    .execute();
  const car = rows.find((r) => !used.has(r.vin))!;
  used.add(car.vin);
  return car;
}
