import { type Kysely, sql } from 'kysely';

/**
 * A trip's last applied change of dates (decision 027): its pickup and return before the change,
 * and when it took effect. The page that confirms a change says what it did — 'modified' for a
 * pickup moved earlier, 'extended' for a return moved later — from the trip itself, whether it
 * arrived there from the form or from a link.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations
      add column changed_from_pickup_at timestamptz,
      add column changed_from_return_at timestamptz,
      add column dates_changed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations
      drop column changed_from_pickup_at,
      drop column changed_from_return_at,
      drop column dates_changed_at`.execute(db);
}
