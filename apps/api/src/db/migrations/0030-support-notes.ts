import { type Kysely, sql } from 'kysely';

/**
 * The key and the car from the console (issue 30 §5, decision 096): support notes on a trip — a
 * failed unlock opens one, staff close it — and who paused a key, so that a pause by the desk is
 * not lifted by the renter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table support_notes (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      source text not null check (source in ('staff', 'renter')),
      staff_id uuid references staff(id),
      title text not null,
      detail text not null,
      dedupe_key text unique,
      created_at timestamptz not null,
      resolved_at timestamptz,
      resolved_by uuid references staff(id)
    )`.execute(db);
  await sql`create index support_notes_trip on support_notes (reservation_id, created_at desc)`.execute(db);
  await sql`alter table digital_keys add column paused_by text check (paused_by in ('renter', 'staff'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table digital_keys drop column paused_by`.execute(db);
  await sql`drop table support_notes`.execute(db);
}
