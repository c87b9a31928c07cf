import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * Booking: a reservation's money as transaction rows, the payments that settle them (our record
 * of each provider intent), signed agreements, discount codes, idempotency keys for retried
 * requests, provider webhook events applied once, and the sandbox gateway's payment intents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations
      add column gclid text,
      add column rental_type text check (rental_type in ('BUSINESS','LEISURE')),
      add column eligibility_checked_at timestamptz,
      add column is_eligible boolean,
      add column confirmed_at timestamptz,
      add column canceled_at timestamptz,
      add column discount_code text`.execute(db);

  await sql`
    create table discounts (
      code text primary key check (code = upper(code)),
      kind text not null check (kind in ('EMPLOYEE','WELCOME','REFERRAL','MARKETING','EVENT','BODYSHOP_FF')),
      type text not null default 'PERCENTAGE' check (type = 'PERCENTAGE'),
      unit text not null default 'DAY' check (unit = 'DAY'),
      percent integer not null check (percent between 1 and 100),
      description text not null,
      active boolean not null default true,
      starts_at timestamptz,
      ends_at timestamptz,
      max_redemptions integer,
      redemptions integer not null default 0,
      new_renters_only boolean not null default false
    )`.execute(db);

  // Our record of each provider intent: a charge of pending line items, or the deposit hold. The
  // row is written (status 'creating', linked to its line items) before the provider is called
  // with an idempotency key made from its id, so the intent id and secret are filled in after.
  await sql`
    create table payments (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      user_id uuid not null references users(id),
      kind text not null check (kind in ('CHARGE','DEPOSIT_HOLD')),
      provider text not null,
      provider_intent_id text unique,
      client_secret text,
      amount integer not null check (amount >= 0),
      currency text not null default 'usd',
      capture_method text not null check (capture_method in ('automatic','manual')),
      status text not null,
      amount_captured integer not null default 0,
      amount_refunded integer not null default 0,
      payment_method_id text,
      card_last_4 text,
      last_error text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index payments_reservation_idx on payments (reservation_id)`.execute(db);
  // At most one live (not canceled, not failed) deposit hold per reservation.
  await sql`
    create unique index payments_one_live_deposit on payments (reservation_id)
      where kind = 'DEPOSIT_HOLD' and status not in ('canceled','failed')`.execute(db);

  await sql`
    create table transactions (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      category text not null check (category in ('Rack','Addon','Additional','Violation','Incidental','Reimbursement','Tax','Deposit','Damage Waiver')),
      status text not null check (status in ('Pending','Successful','Captured','Failed','Canceled','Refunded')),
      description text not null,
      cost integer not null,
      amount integer not null,
      captured_amount integer not null default 0,
      discount_amount integer not null default 0,
      number_of_days integer,
      effective_date date,
      initiated_at timestamptz not null,
      released_at timestamptz,
      card_last_4 text,
      payment_id uuid references payments(id),
      reserve_applied_payment_id uuid references payments(id),
      addon_id text references addons(id),
      created_at timestamptz not null default now(),
      check (discount_amount >= 0)
    )`.execute(db);
  await sql`create index transactions_reservation_idx on transactions (reservation_id)`.execute(db);
  await sql`create index transactions_payment_idx on transactions (payment_id)`.execute(db);

  await sql`
    create table agreements (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      user_id uuid not null references users(id),
      type text not null check (type in ('RENTAL_AGREEMENT','DAMAGE_WAIVER','LIABILITY_INSURANCE')),
      signature text not null,
      signed_on date not null,
      rental_type text not null check (rental_type in ('BUSINESS','LEISURE')),
      document bytea not null,
      document_sha256 text not null,
      created_at timestamptz not null,
      unique (reservation_id, type)
    )`.execute(db);

  // A retried request with the same key answers what the first one did.
  await sql`
    create table idempotency_keys (
      user_id uuid not null references users(id),
      key text not null,
      method text not null,
      path text not null,
      request_hash text not null,
      status_code integer,
      response_body jsonb,
      created_at timestamptz not null,
      primary key (user_id, key)
    )`.execute(db);

  // Each provider event is applied once, whatever the duplicates or the order.
  await sql`
    create table webhook_events (
      provider text not null,
      event_id text not null,
      type text not null,
      object_id text,
      payload jsonb not null,
      received_at timestamptz not null,
      processed_at timestamptz,
      primary key (provider, event_id)
    )`.execute(db);

  // The sandbox gateway's payment intents and its outgoing events (the provider's own store).
  await sql`
    create table sandbox_payment_intents (
      id text primary key,
      client_secret text not null unique,
      customer_id text references sandbox_customers(id),
      amount integer not null,
      amount_capturable integer not null default 0,
      amount_received integer not null default 0,
      amount_refunded integer not null default 0,
      currency text not null,
      capture_method text not null,
      status text not null,
      payment_method_id text references sandbox_payment_methods(id),
      setup_future_usage text,
      last_error jsonb,
      metadata jsonb not null default '{}'::jsonb,
      idempotency_key text unique,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`
    create table sandbox_events (
      id text primary key,
      seq bigint generated always as identity,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null,
      delivered_at timestamptz,
      attempts integer not null default 0,
      -- when the deliverer may next try (wall-clock time: a short random delay, then backoff)
      next_attempt_at timestamptz not null default now(),
      last_error text
    )`.execute(db);
  await sql`create index sandbox_events_pending_idx on sandbox_events (next_attempt_at, seq) where delivered_at is null`.execute(
    db,
  );

  // Server secrets shared by every API instance, made once per database: the digital key's token is
  // an HMAC of the reservation id under 'digital-key' (features/reservations/serializer.ts).
  await sql`
    create table app_secrets (
      name text primary key,
      value bytea not null check (length(value) >= 32),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`insert into app_secrets (name, value) values ('digital-key', ${randomBytes(32)})`.execute(db);

  await sql`
    insert into discounts (code, kind, percent, description, new_renters_only) values
      ('WELCOME10', 'WELCOME', 10, '10% off each rental day of your first trip', true),
      ('EVENT15', 'EVENT', 15, '15% off each rental day', false)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'app_secrets',
    'sandbox_events',
    'sandbox_payment_intents',
    'webhook_events',
    'idempotency_keys',
    'agreements',
    'transactions',
    'payments',
    'discounts',
  ]) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
  await sql`
    alter table reservations
      drop column if exists gclid, drop column if exists rental_type, drop column if exists eligibility_checked_at,
      drop column if exists is_eligible, drop column if exists confirmed_at, drop column if exists canceled_at,
      drop column if exists discount_code`.execute(db);
}
