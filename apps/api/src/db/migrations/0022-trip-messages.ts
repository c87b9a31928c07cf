import { type Kysely, sql } from 'kysely';

/**
 * The renters' trip messages (issue 28 §4, decision 070): an outbox row per message and channel,
 * written in the transaction of the event that causes it. `dedupe_key` (trip and kind, or the
 * money movement) with its channel is unique, so an event recorded twice still sends one message;
 * a job claims due rows (`claimed_until`), sends them and marks them sent. `email_outbox` is the
 * built-in email sender's mailbox, as `sms_outbox` is the built-in SMS sender's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table trip_messages (
      id bigint generated always as identity primary key,
      dedupe_key text not null,
      channel text not null check (channel in ('sms', 'email')),
      kind text not null,
      purpose text not null check (purpose in ('transactional', 'marketing')),
      reservation_id uuid not null references reservations(id),
      user_id uuid not null references users(id),
      to_address text not null,
      subject text,
      body text not null,
      created_at timestamptz not null,
      send_after timestamptz not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'skipped')),
      attempts integer not null default 0,
      claimed_until timestamptz,
      sent_at timestamptz,
      last_error text,
      unique (dedupe_key, channel)
    )`.execute(db);
  await sql`create index trip_messages_due on trip_messages (send_after) where status = 'pending'`.execute(db);
  await sql`create index trip_messages_reservation on trip_messages (reservation_id)`.execute(db);
  await sql`
    create table email_outbox (
      id bigint generated always as identity primary key,
      to_address text not null,
      subject text not null,
      body text not null,
      sent_at timestamptz not null
    )`.execute(db);
  await sql`create index email_outbox_to on email_outbox (to_address, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table email_outbox`.execute(db);
  await sql`drop table trip_messages`.execute(db);
}
