import { type Kysely, sql } from 'kysely';

/**
 * The trip's life over time (decision 025): when a trip went On Rent, and when it was flagged as
 * not returned on time (for the operator to follow up; the late fee is issue 11's end-trip work).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations add column on_rent_at timestamptz, add column late_flagged_at timestamptz`.execute(
    db,
  );
  await sql`create index reservations_due_idx on reservations (status, pickup_at) where status in ('Pending', 'On Rent')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reservations_due_idx`.execute(db);
  await sql`alter table reservations drop column on_rent_at, drop column late_flagged_at`.execute(db);
}
