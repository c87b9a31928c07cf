import { type Kysely, sql } from 'kysely';

/**
 * Renters, sign-in codes, sessions, rate-limit counters, the console SMS outbox, feature-flag
 * overrides, analytics events, insurance verifications, and the sandbox payment gateway's own
 * records (customers, setup intents, payment methods), which stand in for the provider's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      stytch_user_id text not null unique,
      phone text not null unique check (phone ~ '^\\+[1-9][0-9]{6,14}$'),
      first_name text,
      last_name text,
      email text,
      birthday date,
      address_line1 text,
      address_line2 text,
      city text,
      state text,
      zip_code text,
      country text,
      license_name text,
      license_number text,
      license_expiration date,
      license_status text,
      gateway_customer_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table login_codes (
      id uuid primary key default gen_random_uuid(),
      phone text not null,
      code_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      failed_attempts integer not null default 0,
      consumed_at timestamptz,
      invalidated_at timestamptz
    )`.execute(db);
  await sql`create index login_codes_phone_idx on login_codes (phone, created_at desc)`.execute(db);

  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      token_hash text not null unique,
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      user_agent text,
      ip text
    )`.execute(db);
  await sql`create index sessions_user_idx on sessions (user_id)`.execute(db);

  // One row per counted action (an SMS sent to a phone, from an IP); counted over a sliding hour.
  await sql`
    create table rate_events (
      id bigint generated always as identity primary key,
      bucket text not null,
      key text not null,
      at timestamptz not null
    )`.execute(db);
  await sql`create index rate_events_lookup_idx on rate_events (bucket, key, at desc)`.execute(db);

  await sql`
    create table sms_outbox (
      id bigint generated always as identity primary key,
      to_phone text not null,
      body text not null,
      sent_at timestamptz not null
    )`.execute(db);
  await sql`create index sms_outbox_phone_idx on sms_outbox (to_phone, id desc)`.execute(db);

  await sql`
    create table flag_overrides (
      user_id uuid not null references users(id) on delete cascade,
      key text not null,
      value jsonb not null,
      primary key (user_id, key)
    )`.execute(db);

  await sql`
    create table analytics_events (
      id bigint generated always as identity primary key,
      name text not null,
      user_id uuid references users(id) on delete set null,
      anonymous_id text,
      properties jsonb not null default '{}'::jsonb,
      occurred_at timestamptz not null,
      received_at timestamptz not null
    )`.execute(db);
  await sql`create index analytics_events_name_idx on analytics_events (name, occurred_at)`.execute(db);

  await sql`
    create table insurance_verifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      reservation_id uuid references reservations(id),
      status text not null,
      carrier text,
      policy_number text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index insurance_verifications_user_idx on insurance_verifications (user_id, created_at desc)`.execute(
    db,
  );

  // The sandbox gateway's own store, as the provider would keep it: cards are never in our tables.
  await sql`
    create table sandbox_customers (
      id text primary key,
      created_at timestamptz not null,
      metadata jsonb not null default '{}'::jsonb,
      -- as Stripe's Idempotency-Key: a repeated create with the same key returns the same customer
      idempotency_key text unique
    )`.execute(db);
  await sql`
    create table sandbox_payment_methods (
      id text primary key,
      -- creation order, for newest-first lists when two cards share a timestamp
      seq bigint generated always as identity,
      customer_id text references sandbox_customers(id),
      brand text not null,
      last4 text not null check (last4 ~ '^[0-9]{4}$'),
      exp_month integer not null,
      exp_year integer not null,
      behaviour text not null,
      created_at timestamptz not null,
      detached_at timestamptz
    )`.execute(db);
  await sql`create index sandbox_payment_methods_customer_idx on sandbox_payment_methods (customer_id, seq desc)`.execute(
    db,
  );
  await sql`
    create table sandbox_setup_intents (
      id text primary key,
      client_secret text not null unique,
      customer_id text not null references sandbox_customers(id),
      status text not null,
      payment_method_id text references sandbox_payment_methods(id),
      last_error jsonb,
      created_at timestamptz not null
    )`.execute(db);

  // Reservations made before accounts existed carry no user; from now on a renter owns each one.
  await sql`
    alter table reservations
      alter column user_id type uuid using user_id::uuid,
      add constraint reservations_user_fk foreign key (user_id) references users(id)`.execute(db);
  await sql`create index reservations_user_idx on reservations (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'sandbox_setup_intents',
    'sandbox_payment_methods',
    'sandbox_customers',
    'insurance_verifications',
    'analytics_events',
    'flag_overrides',
    'sms_outbox',
    'rate_events',
    'sessions',
    'login_codes',
    'users',
  ]) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
