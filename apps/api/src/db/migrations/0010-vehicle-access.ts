import { type Kysely, sql } from 'kysely';

/**
 * Digital keys and the cars they open (decision 023).
 *
 * digital_keys: one row per key a trip was given. The token the renter holds is an HMAC of the
 * key's id under the server's 'digital-key' secret, so it is never stored; its SHA-256 is, to find
 * the key from the token. At most one live (active or paused) key per trip.
 *
 * simulated_cars: the built-in fleet's cars as a connected-car API would report them (lock state,
 * odometer, battery), made on first use from the vehicle's odometer.
 *
 * car_commands: every lock and unlock asked through a key, and how it ended.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table digital_keys (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      token_hash text not null unique,
      status text not null check (status in ('active', 'paused', 'revoked')),
      valid_from timestamptz not null,
      valid_until timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create unique index digital_keys_one_live_idx on digital_keys (reservation_id) where status <> 'revoked'`.execute(
    db,
  );
  await sql`
    create table simulated_cars (
      vehicle_id integer primary key references vehicles(id),
      locked boolean not null,
      odometer_miles numeric(10, 1) not null,
      battery_level numeric(4, 3) not null check (battery_level between 0 and 1),
      updated_at timestamptz not null
    )`.execute(db);
  await sql`
    create table car_commands (
      id bigint generated always as identity primary key,
      key_id uuid not null references digital_keys(id),
      vehicle_id integer not null references vehicles(id),
      command text not null,
      result text not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index car_commands_key_idx on car_commands (key_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists car_commands`.execute(db);
  await sql`drop table if exists simulated_cars`.execute(db);
  await sql`drop table if exists digital_keys`.execute(db);
}
