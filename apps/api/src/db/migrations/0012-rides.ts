import { type Kysely, sql } from 'kysely';

/**
 * Ending a trip (decision 026). rides: the car as it went out and came back — odometer (miles)
 * and battery (fraction) read from the vehicle-access provider when the trip went On Rent and when
 * the renter ended it (spec 3's ride: mileage_out/battery_out at pickup, mileage_in/battery_in at
 * return). One ride per trip. reservations.returned_at: when the renter ended the trip.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rides (
      reservation_id uuid primary key references reservations(id),
      vehicle_id integer not null references vehicles(id),
      vin text not null,
      mileage_out numeric(10, 1),
      battery_out numeric(4, 3) check (battery_out between 0 and 1),
      vehicle_pickup_at timestamptz not null,
      mileage_in numeric(10, 1),
      battery_in numeric(4, 3) check (battery_in between 0 and 1),
      vehicle_return_at timestamptz,
      created_at timestamptz not null
    )`.execute(db);
  await sql`alter table reservations add column returned_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations drop column if exists returned_at`.execute(db);
  await sql`drop table if exists rides`.execute(db);
}
