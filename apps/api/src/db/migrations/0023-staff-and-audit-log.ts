import { type Kysely, sql } from 'kysely';

/**
 * The operator console's staff and its audit log (issue 29, decision 079). A staff member is a
 * phone number with a role and the locations they work at (null: every location); passkeys and
 * sessions of their own keep a staff sign-in apart from a renter's. The audit log records every
 * staff action and every refused attempt with the fields PCI DSS 10.2.2 asks for (who, what, on
 * what, when, from where, whether it succeeded), and is append-only: the database itself refuses to
 * change or remove a record, whoever asks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table staff (
      id uuid primary key default gen_random_uuid(),
      phone text not null unique,
      name text not null,
      email text,
      role text not null check (role in ('owner', 'manager', 'agent', 'viewer')),
      location_ids uuid[],
      active boolean not null default true,
      invited_by uuid references staff(id),
      created_at timestamptz not null,
      last_sign_in_at timestamptz
    )`.execute(db);
  await sql`
    create table staff_passkeys (
      credential_id text primary key,
      staff_id uuid not null references staff(id),
      public_key bytea not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      created_at timestamptz not null,
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index staff_passkeys_staff on staff_passkeys (staff_id)`.execute(db);
  await sql`
    create table staff_sessions (
      id uuid primary key default gen_random_uuid(),
      token_hash text not null unique,
      staff_id uuid not null references staff(id),
      passkey_verified boolean not null default false,
      created_at timestamptz not null,
      last_used_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index staff_sessions_staff on staff_sessions (staff_id)`.execute(db);
  await sql`
    create table audit_log (
      id bigint generated always as identity primary key,
      at timestamptz not null,
      staff_id uuid references staff(id),
      staff_role text,
      action text not null,
      target_type text,
      target_id text,
      location_id uuid,
      before jsonb,
      after jsonb,
      source_address text,
      outcome text not null check (outcome in ('success', 'failure')),
      reason text
    )`.execute(db);
  await sql`create index audit_log_at on audit_log (at desc)`.execute(db);
  await sql`create index audit_log_staff on audit_log (staff_id, at desc)`.execute(db);
  await sql`create index audit_log_target on audit_log (target_type, target_id, at desc)`.execute(db);
  // Append-only, whoever connects: an update, a delete or a truncate raises.
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'The audit log is append-only: % is not allowed on audit_log.', tg_op
        using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_log`.execute(db);
  await sql`drop function audit_log_append_only()`.execute(db);
  await sql`drop table staff_sessions`.execute(db);
  await sql`drop table staff_passkeys`.execute(db);
  await sql`drop table staff`.execute(db);
}
