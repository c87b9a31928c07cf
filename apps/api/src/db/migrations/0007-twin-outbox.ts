import { type Kysely, sql } from 'kysely';

/**
 * The built-in provider twins' outbox (decision 020). Each twin (identity, insurance …) writes the
 * webhook events it will send here, in the same transaction as the state change they report, and
 * a deliverer per twin posts them, signed, to that twin's webhook endpoint, with retries, as the
 * payment sandbox does with sandbox_events.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table twin_events (
      id text primary key,
      seq bigint generated always as identity,
      twin text not null,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null,
      delivered_at timestamptz,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text
    )`.execute(db);
  await sql`create index twin_events_pending_idx on twin_events (twin, next_attempt_at, seq) where delivered_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists twin_events`.execute(db);
}
