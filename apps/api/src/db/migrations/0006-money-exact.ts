import { type Kysely, sql } from 'kysely';

/**
 * Money exactly right (decision 018).
 *
 * payment_refunds: a charge that succeeded for an amount other than the sum of the line items it
 * settles is refunded instead. The row is the audit record of that (why, how much, when) and, until
 * refunded_at is set, the outbox that makes sure the provider is asked: it is written in the same
 * transaction that decides the refund, and the refund is made after commit with an idempotency
 * key derived from the row's id.
 *
 * sandbox_refunds: the sandbox provider's Refund objects, so that a refund asked twice with the
 * same idempotency key is made once, as on Stripe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_refunds (
      id uuid primary key default gen_random_uuid(),
      payment_id uuid not null unique references payments(id),
      reservation_id uuid not null references reservations(id),
      amount integer not null check (amount > 0),
      reason text not null,
      created_at timestamptz not null,
      provider_refund_id text,
      refunded_at timestamptz
    )`.execute(db);
  await sql`create index payment_refunds_due_idx on payment_refunds (reservation_id) where refunded_at is null`.execute(
    db,
  );
  await sql`
    create table sandbox_refunds (
      id text primary key,
      payment_intent_id text not null references sandbox_payment_intents(id),
      amount integer not null check (amount > 0),
      idempotency_key text unique,
      created_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sandbox_refunds`.execute(db);
  await sql`drop table if exists payment_refunds`.execute(db);
}
