import { type Kysely, sql } from 'kysely';

/**
 * Moving a paid trip's pickup earlier or its return later (decision 027). The change is requested
 * first — requested_pickup_at / requested_return_at — and becomes the trip's dates when its new
 * rental days are paid. While requested, the car is held for the wider period at once: the
 * exclusion constraint starts at the earlier of the two pickups (least() passes over a null), and
 * blocked_until (written by the app) covers the later return. A change not paid lapses like an
 * unpaid booking (the jobs), and the hold shrinks back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations
      add column requested_pickup_at timestamptz,
      add column requested_return_at timestamptz,
      add column change_requested_at timestamptz`.execute(db);
  await sql`
    alter table reservations add constraint reservations_change_widens check (
      (requested_pickup_at is null or requested_pickup_at <= pickup_at) and (requested_return_at is null or requested_return_at >= return_at)
    )`.execute(db);
  await sql`alter table reservations drop constraint reservations_no_double_booking`.execute(db);
  await sql`
    alter table reservations add constraint reservations_no_double_booking
      exclude using gist (vehicle_id with =, tstzrange(least(pickup_at, requested_pickup_at), blocked_until, '[)') with &&)
      where (status in ('Started','Pending','On Rent'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations drop constraint reservations_no_double_booking`.execute(db);
  await sql`
    alter table reservations add constraint reservations_no_double_booking
      exclude using gist (vehicle_id with =, tstzrange(pickup_at, blocked_until, '[)') with &&)
      where (status in ('Started','Pending','On Rent'))`.execute(db);
  await sql`alter table reservations drop constraint if exists reservations_change_widens`.execute(db);
  await sql`alter table reservations drop column requested_pickup_at, drop column requested_return_at, drop column change_requested_at`.execute(
    db,
  );
}
