import { type Kysely, sql } from 'kysely';

/**
 * A car's own photos and the console's day (issue 29, decisions 085 and 086).
 *
 * car_photos: one uploaded photo per car and view; it stands in for the model's drawing of that
 * view wherever the car is shown. `version` changes with every upload, so its addresses change
 * and no cache serves a replaced photo.
 * Indexes for the today board (a location's pickups and returns by time) and the lookup (a
 * renter's email, name and phone; a trip's reference; a VIN's end), and the timeline's reads.
 * Staff locations and the audit log's location become text, as locations have integer ids (the
 * fleet's migration does the same; running it again changes nothing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table staff alter column location_ids type text[] using location_ids::text[]`.execute(db);
  await sql`alter table audit_log alter column location_id type text using location_id::text`.execute(db);
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

  // The today board: a location's pickups and returns in a window of time.
  await sql`create index reservations_pickup_place on reservations (pickup_location_id, pickup_at)`.execute(db);
  await sql`create index reservations_return_place on reservations (dropoff_location_id, return_at)`.execute(db);
  // The lookup: a renter by email, phone or name, a trip by reference, a car by its VIN's end.
  await sql`create index users_email_lower on users (lower(email) text_pattern_ops)`.execute(db);
  await sql`create index users_last_name_lower on users (lower(last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_first_name_lower on users (lower(first_name) text_pattern_ops)`.execute(db);
  await sql`create index vehicles_vin_end on vehicles (reverse(vin) text_pattern_ops)`.execute(db);
  await sql`create index vehicles_vin_start on vehicles (vin bpchar_pattern_ops)`.execute(db);
  // The timeline: a trip's identity checks.
  await sql`create index identity_verifications_reservation on identity_verifications (reservation_id)`.execute(db);
}
