import { type Kysely, sql } from 'kysely';

/**
 * A card charge after the trip is made off-session, on the trip's card, without the renter
 * (decision 091). Marked, so that the job finishing one cut off midway never confirms a charge the
 * renter's own pay page made for them to pay in the browser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments add column off_session boolean not null default false`.execute(db);
  await sql`
    create index payments_off_session_unfinished on payments (created_at)
    where off_session and status in ('creating', 'requires_payment_method', 'requires_confirmation', 'requires_action')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index payments_off_session_unfinished`.execute(db);
  await sql`alter table payments drop column off_session`.execute(db);
}
