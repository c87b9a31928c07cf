import { type Kysely, sql } from 'kysely';

/**
 * A car's own photos and the console's day (issue 29, decisions 085 and 086).
 *
 * car_photos: one uploaded photo per car and view; it stands in for the model's drawing of that
 * view wherever the car is shown. `version` changes with every upload, so its addresses change
 * and no cache serves a replaced photo.
 * Indexes for the today board (a location's pickups and returns by time) and the lookup (a
 * renter's email, name and phone; a trip's reference; a VIN's end), and the timeline's reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table car_photos (
      vehicle_id integer not null references vehicles(id),
      view text not null check (view in ('MONEYSHOT', 'FRONT', 'L_SIDE', 'RR_CORNER', 'REAR', 'R_SIDE', 'DASH',
        'RF_INTERIOR', 'HEADLIGHT', 'WHEEL', 'TAILLIGHT')),
      version text not null,
      image_url text not null,
      width integer not null,
      height integer not null,
      bytes integer not null,
      uploaded_by uuid references staff(id),
      created_at timestamptz not null,
      primary key (vehicle_id, view)
    )`.execute(db);

  // Where the fleet's own migration keeps a fleet version for every API process's search index, a
  // car's photo moves it too, so every process's search shows a new photo at its next look.
  await sql`
    do $$ begin
      if exists (select 1 from pg_proc where proname = 'fleet_version_bump') then
        create trigger car_photos_fleet_version after insert or update or delete on car_photos
          for each statement execute function fleet_version_bump();
      end if;
    end $$`.execute(db);

  // The today board: a location's pickups and returns in a window of time.
  await sql`create index reservations_pickup_place on reservations (pickup_location_id, pickup_at)`.execute(db);
  await sql`create index reservations_return_place on reservations (dropoff_location_id, return_at)`.execute(db);
  // The lookup: a renter by email or name, a trip by its reference in any case, a car by its VIN's
  // start or end, and a car's trips.
  await sql`create index users_email_lower on users (lower(email) text_pattern_ops)`.execute(db);
  await sql`create index users_last_name_lower on users (lower(last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_first_name_lower on users (lower(first_name) text_pattern_ops)`.execute(db);
  await sql`create index reservations_vehicle on reservations (vehicle_id, pickup_at)`.execute(db);
  await sql`create index reservations_reference on reservations (upper(platform_id))`.execute(db);
  await sql`create index vehicles_vin_end on vehicles (reverse(vin) text_pattern_ops)`.execute(db);
  await sql`create index vehicles_vin_start on vehicles (vin bpchar_pattern_ops)`.execute(db);
  // The timeline: a trip's identity checks.
  await sql`create index identity_verifications_reservation on identity_verifications (reservation_id)`.execute(db);
  await boardNotifications(db);
}

/**
 * The today board's live updates (decision 086): the database tells each location's staff channel
 * when one of its trips or cars changes, whoever wrote the change. A NOTIFY on the realtime
 * fan-out's channel, shaped as a delivery of event REFRESH, reaches every API process's built-in
 * endpoint; several in one transaction for one location arrive once.
 */
async function boardNotifications(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ops_board_notify(location_ids integer[], reason text) returns void language plpgsql as $$
    declare loc integer;
    begin
      foreach loc in array location_ids loop
        if loc is not null then
          perform pg_notify('realtime', json_build_object(
            'c', 'private-ops-location-' || loc,
            'e', 'REFRESH',
            'd', json_build_object('locationId', loc::text, 'reason', reason)::text)::text);
        end if;
      end loop;
    end $$`.execute(db);
  await sql`
    create function reservations_board_notify() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        perform ops_board_notify(array[old.pickup_location_id, old.dropoff_location_id], 'trip');
      end if;
      perform ops_board_notify(array[new.pickup_location_id, new.dropoff_location_id], 'trip');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger reservations_board_insert after insert on reservations
      for each row execute function reservations_board_notify()`.execute(db);
  await sql`
    create trigger reservations_board_update after update on reservations
      for each row when (
        old.status is distinct from new.status or old.pickup_at is distinct from new.pickup_at
        or old.return_at is distinct from new.return_at or old.vehicle_id is distinct from new.vehicle_id
        or old.user_id is distinct from new.user_id or old.confirmed_at is distinct from new.confirmed_at
        or old.on_rent_at is distinct from new.on_rent_at or old.returned_at is distinct from new.returned_at
        or old.late_flagged_at is distinct from new.late_flagged_at)
      execute function reservations_board_notify()`.execute(db);
  // A renter's verification changes their upcoming trips' locations' boards.
  await sql`
    create function renter_board_notify() returns trigger language plpgsql as $$
    begin
      perform ops_board_notify(array(
        select distinct r.pickup_location_id from reservations r
        where r.user_id = new.user_id and r.status in ('Started', 'Pending')), 'verification');
      return null;
    end $$`.execute(db);
  await sql`
    create function user_board_notify() returns trigger language plpgsql as $$
    begin
      perform ops_board_notify(array(
        select distinct r.pickup_location_id from reservations r
        where r.user_id = new.id and r.status in ('Started', 'Pending')), 'verification');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_board_update after update on users
      for each row when (old.license_status is distinct from new.license_status
        or old.license_number is distinct from new.license_number
        or old.license_expiration is distinct from new.license_expiration)
      execute function user_board_notify()`.execute(db);
  await sql`
    create trigger insurance_board_change after insert or update of status on insurance_verifications
      for each row execute function renter_board_notify()`.execute(db);
  await sql`
    create function key_board_notify() returns trigger language plpgsql as $$
    begin
      perform ops_board_notify(array(
        select r.pickup_location_id from reservations r where r.id = new.reservation_id), 'key');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger digital_keys_board_change after insert or update of status on digital_keys
      for each row execute function key_board_notify()`.execute(db);
  await sql`
    create function battery_board_notify() returns trigger language plpgsql as $$
    begin
      perform ops_board_notify(array(select v.location_id from vehicles v where v.id = new.vehicle_id), 'battery');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger simulated_cars_board_battery after update of battery_level on simulated_cars
      for each row when (old.battery_level is distinct from new.battery_level)
      execute function battery_board_notify()`.execute(db);
}
