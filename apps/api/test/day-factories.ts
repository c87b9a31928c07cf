import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ReservationStatus } from '@ampere/domain/constants';
import type { Database } from '../src/db/schema.ts';
import { makeVin } from '../src/seed/vin.ts';
import { reserve } from './factories.ts';

let serial = randomBytes(2).readUInt16BE(0) * 10;

/** Another car at a location (the first model, white), with a battery reading (in percent) when given. */
export async function carAt(
  db: Kysely<Database>,
  locationId: number,
  opts: { battery?: number; now?: Date } = {},
): Promise<{ id: number; vin: string }> {
  serial += 1;
  const model = await db.selectFrom('vehicle_models').select('id').orderBy('id').executeTakeFirstOrThrow();
  const vin = makeVin('5YJ', '3E1E', 2024, 'F', 100_000 + (serial % 600_000));
  const car = await db
    .insertInto('vehicles')
    .values({
      vin,
      platform_id: `VEH-DAY-${vin}`,
      model_id: model.id,
      location_id: locationId,
      year: 2024,
      color: 'WHITE',
      odometer: 8_000,
      rack_rate: 9_900,
      is_self_serve_booking_allowed: true,
      battery_type: 'LR',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (opts.battery !== undefined)
    await db
      .insertInto('simulated_cars')
      .values({
        vehicle_id: car.id,
        locked: true,
        odometer_miles: 8_000,
        battery_level: opts.battery / 100,
        updated_at: opts.now ?? new Date(),
      })
      .execute();
  return { id: car.id, vin };
}

/** A renter with a name, phone and email; verified (license approved, insurance active) when told. */
export async function renter(
  db: Kysely<Database>,
  who: { first: string; last: string; phone: string; email: string; verified?: boolean },
): Promise<string> {
  const user = await db
    .insertInto('users')
    .values({
      stytch_user_id: `user-test-${randomBytes(8).toString('hex')}`,
      phone: who.phone,
      first_name: who.first,
      last_name: who.last,
      email: who.email,
      ...(who.verified
        ? { license_status: 'approved', license_number: 'D1234567', license_expiration: '2035-01-01' }
        : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (who.verified)
    await db
      .insertInto('insurance_verifications')
      .values({ user_id: user.id, reservation_id: null, status: 'ACTIVE', carrier: 'USAA', policy_number: 'P-1' })
      .execute();
  return user.id;
}

/** A trip of `userId` on the car (its location's zone), in a status, as the booking flow would leave it. */
export async function tripOf(
  db: Kysely<Database>,
  vin: string,
  userId: string | null,
  pickupAt: string,
  returnAt: string,
  status: ReservationStatus,
): Promise<{ id: string; platformId: string }> {
  const { id } = await reserve(db, vin, pickupAt, returnAt, status);
  const row = await db
    .updateTable('reservations')
    .set({ user_id: userId, on_rent_at: status === 'On Rent' ? new Date(pickupAt) : null })
    .where('id', '=', id)
    .returning(['id', 'platform_id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, platformId: row.platform_id };
}
