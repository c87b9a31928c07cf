import { type Kysely, sql } from 'kysely';

/**
 * Decision 015: a car needs time between trips. Each reservation holds its car until
 * `blocked_until` (its return plus the turnaround, written by the app with every pickup or
 * return), and the exclusion constraint compares [pickup_at, blocked_until), so the database
 * refuses a booking that starts within another's turnaround.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations add column blocked_until timestamptz`.execute(db);
  // Existing bookings get the turnaround of the time (60 minutes; rows written later carry the
  // app's own value) where it fits before the car's next active booking, and
  // otherwise keep the car only until that booking's pickup, so the new constraint holds for them.
  await sql`
    update reservations r set blocked_until = greatest(r.return_at, least(
      r.return_at + interval '60 minutes',
      coalesce((
        select min(o.pickup_at) from reservations o
        where o.vehicle_id = r.vehicle_id and o.id <> r.id and o.pickup_at >= r.return_at
          and o.status in ('Started','Pending','On Rent')
      ), 'infinity'::timestamptz)))`.execute(db);
  await sql`alter table reservations alter column blocked_until set not null`.execute(db);
  await sql`alter table reservations add constraint reservations_blocked_after_return check (blocked_until >= return_at)`.execute(
    db,
  );
  await sql`alter table reservations drop constraint reservations_no_double_booking`.execute(db);
  await sql`
    alter table reservations add constraint reservations_no_double_booking
      exclude using gist (vehicle_id with =, tstzrange(pickup_at, blocked_until, '[)') with &&)
      where (status in ('Started','Pending','On Rent'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations drop constraint reservations_no_double_booking`.execute(db);
  await sql`
    alter table reservations add constraint reservations_no_double_booking
      exclude using gist (vehicle_id with =, period with &&)
      where (status in ('Started','Pending','On Rent'))`.execute(db);
  await sql`alter table reservations drop constraint if exists reservations_blocked_after_return`.execute(db);
  await sql`alter table reservations drop column if exists blocked_until`.execute(db);
}
