import { type Kysely, sql } from 'kysely';

/**
 * Inspections at check-out and check-in (issue 30 §1, decisions 089 and 090).
 *
 * inspections: one per trip and stage, started by staff (or by the renter's first photo), completed
 * by staff once the eight guided views are photographed.
 * inspection_damage: a mark on the car's top-view drawing (0..1 across and down), its view, how bad
 * and a note.
 * inspection_photos: a guided view's photo (staff), a damage mark's close-up (staff) or a renter's
 * photo, each with when it was taken and the car's reading then (null when the car did not
 * answer); its files live in photo storage under inspections/<inspection>/<photo>-<width>.webp.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table inspections (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      stage text not null check (stage in ('check_out', 'check_in')),
      started_by uuid references staff(id),
      started_at timestamptz not null,
      completed_by uuid references staff(id),
      completed_at timestamptz,
      unique (reservation_id, stage)
    )`.execute(db);
  await sql`
    create table inspection_damage (
      id uuid primary key default gen_random_uuid(),
      inspection_id uuid not null references inspections(id),
      x double precision not null check (x >= 0 and x <= 1),
      y double precision not null check (y >= 0 and y <= 1),
      view text not null check (view in ('FRONT', 'LF_CORNER', 'RF_CORNER', 'L_SIDE', 'R_SIDE', 'REAR', 'DASH', 'INTERIOR')),
      severity text not null check (severity in ('minor', 'moderate', 'major')),
      note text not null check (length(note) between 1 and 500),
      created_by uuid references staff(id),
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index inspection_damage_inspection on inspection_damage (inspection_id, created_at)`.execute(db);
  await sql`
    create table inspection_photos (
      id uuid primary key,
      inspection_id uuid not null references inspections(id),
      view text check (view in ('FRONT', 'LF_CORNER', 'RF_CORNER', 'L_SIDE', 'R_SIDE', 'REAR', 'DASH', 'INTERIOR')),
      damage_id uuid references inspection_damage(id) on delete cascade,
      taken_by text not null check (taken_by in ('staff', 'renter')),
      staff_id uuid references staff(id),
      user_id uuid references users(id),
      taken_at timestamptz not null,
      battery_level double precision,
      odometer_miles double precision,
      width integer not null,
      height integer not null,
      bytes integer not null,
      -- A guided view's photo is staff's; a renter's photo belongs to no view and no mark.
      check (taken_by = 'staff' or (view is null and damage_id is null)),
      check (view is null or damage_id is null),
      check ((battery_level is null) = (odometer_miles is null))
    )`.execute(db);
  await sql`create index inspection_photos_inspection on inspection_photos (inspection_id, taken_at)`.execute(db);
  // One current photo per guided view: a retake replaces it.
  await sql`
    create unique index inspection_photos_one_per_view on inspection_photos (inspection_id, view)
      where view is not null`.execute(db);
}
