import { type Kysely, sql } from 'kysely';

/**
 * The fleet in the operator console (issue 29, decisions 083 and 084).
 *
 * vehicles.retired_at: a retired car is never offered again; it keeps its history.
 * locations.min_reservation_buffer_hours: a lot's own pickup buffer, edited in the console; null
 * keeps the one its search options carry.
 * vehicle_holds: a car blocked for a period (service, cleaning, charging, other) with a note.
 * car_blocks: every period a car is taken — each active reservation's (from its earlier pickup to
 * blocked_until, as reservations_no_double_booking reads it) and each live hold's — kept by
 * triggers, under one exclusion constraint. A hold can never overlap a booking, whichever commits
 * first and whatever the application does.
 * fleet_version: a number every change of cars or locations moves, for the search indexes.
 * Staff locations and the audit log's location were uuids, but locations have integer ids: they
 * become text, holding a location's id as written in a path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table vehicles add column retired_at timestamptz`.execute(db);
  await sql`
    alter table locations add column min_reservation_buffer_hours integer
      check (min_reservation_buffer_hours between 0 and 168)`.execute(db);
  await sql`alter table staff alter column location_ids type text[] using location_ids::text[]`.execute(db);
  await sql`alter table audit_log alter column location_id type text using location_id::text`.execute(db);

  await sql`
    create table vehicle_holds (
      id uuid primary key default gen_random_uuid(),
      vehicle_id integer not null references vehicles(id),
      reason text not null check (reason in ('service', 'cleaning', 'charging', 'other')),
      note text not null default '',
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      canceled_at timestamptz,
      created_by uuid references staff(id),
      created_at timestamptz not null,
      updated_at timestamptz not null default now(),
      check (ends_at > starts_at)
    )`.execute(db);
  await sql`create index vehicle_holds_vehicle on vehicle_holds (vehicle_id, ends_at)`.execute(db);
  await sql`create index vehicle_holds_updated on vehicle_holds (updated_at)`.execute(db);
  await sql`create trigger vehicle_holds_touch before update on vehicle_holds for each row execute function reservations_touch()`.execute(
    db,
  );

  await sql`
    create table car_blocks (
      vehicle_id integer not null,
      reservation_id uuid unique references reservations(id) on delete cascade,
      hold_id uuid unique references vehicle_holds(id) on delete cascade,
      period tstzrange not null,
      check ((reservation_id is null) <> (hold_id is null)),
      constraint car_blocks_no_overlap exclude using gist (vehicle_id with =, period with &&)
    )`.execute(db);
  await sql`
    create function reservations_block_car() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        delete from car_blocks where reservation_id = old.id;
      end if;
      -- A retired car takes no new booking, even one that checked the car just before it retired.
      if tg_op = 'INSERT' and new.status in ('Started', 'Pending', 'On Rent')
        and exists (select 1 from vehicles where id = new.vehicle_id and retired_at is not null) then
        raise exception 'Vehicle % is retired.', new.vehicle_id
          using errcode = 'exclusion_violation', constraint = 'car_blocks_no_overlap';
      end if;
      if tg_op <> 'DELETE' and new.status in ('Started', 'Pending', 'On Rent') then
        insert into car_blocks (vehicle_id, reservation_id, period)
        values (new.vehicle_id, new.id, tstzrange(least(new.pickup_at, new.requested_pickup_at), new.blocked_until, '[)'));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger reservations_block_car
      after insert or delete or update of status, vehicle_id, pickup_at, requested_pickup_at, blocked_until on reservations
      for each row execute function reservations_block_car()`.execute(db);
  await sql`
    create function vehicle_holds_block_car() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        delete from car_blocks where hold_id = old.id;
      end if;
      if tg_op <> 'DELETE' and new.canceled_at is null then
        insert into car_blocks (vehicle_id, hold_id, period)
        values (new.vehicle_id, new.id, tstzrange(new.starts_at, new.ends_at, '[)'));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger vehicle_holds_block_car
      after insert or delete or update of vehicle_id, starts_at, ends_at, canceled_at on vehicle_holds
      for each row execute function vehicle_holds_block_car()`.execute(db);
  // Every API process's search index compares this number at each look and reads the whole fleet
  // again when it moved, so a car added, edited or retired in one process is offered by all.
  await sql`
    create table fleet_version (
      id boolean primary key default true check (id),
      version bigint not null
    )`.execute(db);
  await sql`insert into fleet_version (version) values (1)`.execute(db);
  await sql`
    create function fleet_version_bump() returns trigger language plpgsql as $$
    begin
      update fleet_version set version = version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger vehicles_fleet_version after insert or update or delete on vehicles
      for each statement execute function fleet_version_bump()`.execute(db);
  await sql`
    create trigger locations_fleet_version after insert or update or delete on locations
      for each statement execute function fleet_version_bump()`.execute(db);
  await sql`
    insert into car_blocks (vehicle_id, reservation_id, period)
    select vehicle_id, id, tstzrange(least(pickup_at, requested_pickup_at), blocked_until, '[)')
    from reservations where status in ('Started', 'Pending', 'On Rent')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists locations_fleet_version on locations`.execute(db);
  await sql`drop trigger if exists vehicles_fleet_version on vehicles`.execute(db);
  await sql`drop function if exists fleet_version_bump()`.execute(db);
  await sql`drop table if exists fleet_version`.execute(db);
  await sql`drop trigger if exists vehicle_holds_block_car on vehicle_holds`.execute(db);
  await sql`drop trigger if exists reservations_block_car on reservations`.execute(db);
  await sql`drop function if exists vehicle_holds_block_car()`.execute(db);
  await sql`drop function if exists reservations_block_car()`.execute(db);
  await sql`drop table if exists car_blocks`.execute(db);
  await sql`drop table if exists vehicle_holds`.execute(db);
  await sql`alter table locations drop column if exists min_reservation_buffer_hours`.execute(db);
  await sql`alter table vehicles drop column if exists retired_at`.execute(db);
}
