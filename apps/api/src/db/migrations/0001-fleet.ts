import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);
  await sql`
    create table regions (
      id integer generated always as identity primary key,
      name text not null,
      state text not null,
      latitude double precision not null,
      longitude double precision not null,
      timezone text not null,
      unique (name, state)
    )`.execute(db);
  await sql`
    create table search_options (
      id integer generated always as identity primary key,
      region_id integer not null references regions(id),
      query text not null,
      type text not null check (type in ('CITY','AIRPORT','LANDMARK','LOT','ZIP_CODE','STATE')),
      state text not null,
      latitude double precision not null,
      longitude double precision not null,
      timezone text not null,
      min_reservation_buffer_hours integer check (min_reservation_buffer_hours >= 0),
      rank integer not null default 0,
      unique (type, query)
    )`.execute(db);
  await sql`create index search_options_query_idx on search_options (lower(query))`.execute(db);
  await sql`
    create table locations (
      id integer generated always as identity primary key,
      region_id integer not null references regions(id),
      name text not null unique,
      street text not null,
      city text not null,
      state text not null,
      zip_code text not null,
      latitude double precision not null,
      longitude double precision not null,
      timezone text not null,
      is_airport boolean not null default false,
      pickup_instructions_html text not null,
      return_instructions_html text not null,
      tax_rate_ppm integer not null check (tax_rate_ppm between 0 and 300000)
    )`.execute(db);
  await sql`create index locations_region_idx on locations (region_id)`.execute(db);
  await sql`create index locations_state_idx on locations (state)`.execute(db);
  await sql`
    create table vehicle_models (
      id integer generated always as identity primary key,
      name text not null unique,
      slug text not null unique,
      type text not null,
      seating_capacity integer not null,
      drivetrain text not null,
      mile_range integer not null,
      zero_to_sixty_mph_seconds numeric(3,1) not null,
      top_speed_mph integer not null,
      battery_kwh integer not null
    )`.execute(db);
  await sql`
    create table vehicles (
      id integer generated always as identity primary key,
      vin char(17) not null unique check (vin ~ '^[A-HJ-NPR-Z0-9]{17}$'),
      platform_id text not null unique,
      model_id integer not null references vehicle_models(id),
      location_id integer not null references locations(id),
      year integer not null,
      color text not null check (color in ('BLACK','BLUE','RED','GREY','WHITE')),
      odometer integer not null check (odometer >= 0),
      rack_rate integer not null check (rack_rate > 0),
      is_self_serve_booking_allowed boolean not null default true,
      battery_type text not null
    )`.execute(db);
  await sql`create index vehicles_location_idx on vehicles (location_id)`.execute(db);
  await sql`
    create table model_images (
      model_id integer not null references vehicle_models(id),
      color text not null,
      view text not null,
      image_url text not null,
      position integer not null,
      primary key (model_id, color, view)
    )`.execute(db);
  await sql`
    create table addons (
      id text primary key,
      type text not null check (type in ('DAMAGE_WAIVER','UNLIMITED_MILES','PREPAID_EV_CHARGING')),
      description text not null,
      amount integer not null check (amount >= 0),
      charge_frequency text not null check (charge_frequency in ('DAY','ONE_TIME')),
      category text not null,
      model_id integer references vehicle_models(id),
      active boolean not null default true
    )`.execute(db);
  await sql`
    create table reservations (
      id uuid primary key default gen_random_uuid(),
      platform_id text not null unique,
      vehicle_id integer not null references vehicles(id),
      user_id text,
      status text not null check (status in ('Started','Pending','On Rent','Returned','Canceled')),
      pickup_at timestamptz not null,
      return_at timestamptz not null,
      period tstzrange generated always as (tstzrange(pickup_at, return_at, '[)')) stored,
      timezone text not null,
      pickup_location_id integer not null references locations(id),
      dropoff_location_id integer not null references locations(id),
      created_at timestamptz not null default now(),
      check (return_at > pickup_at),
      constraint reservations_no_double_booking exclude using gist (vehicle_id with =, period with &&)
        where (status in ('Started','Pending','On Rent'))
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'reservations',
    'addons',
    'model_images',
    'vehicles',
    'vehicle_models',
    'locations',
    'search_options',
    'regions',
  ]) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
