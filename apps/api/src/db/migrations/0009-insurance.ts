import { type Kysely, sql } from 'kysely';

/**
 * Insurance connections (decision 022).
 *
 * insurance_verifications gains what an Axle Ignition session leaves: the ignition token, the
 * provider, the account and policy it connected, the policy's end, what checking it concluded
 * (`result`), the last error, and when it last changed.
 *
 * twin_axle_ignitions: the built-in insurance twin's own sessions, as Axle keeps them — the carrier
 * the renter picked, the outcome, the one-time auth code, the access token, and the account and
 * policy objects it answers with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table insurance_verifications
      add column provider text,
      add column ignition_token text,
      add column ignition_uri text,
      add column account_id text,
      add column policy_id text,
      add column policy_expires_on date,
      add column result text,
      add column last_error text,
      add column updated_at timestamptz`.execute(db);
  await sql`create unique index insurance_verifications_ignition_idx on insurance_verifications (provider, ignition_token) where ignition_token is not null`.execute(
    db,
  );
  await sql`
    create table twin_axle_ignitions (
      token text primary key,
      status text not null,
      user_ref text not null,
      carrier text,
      outcome text,
      auth_code text unique,
      auth_code_expires_at timestamptz,
      access_token text unique,
      account jsonb,
      policy jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists twin_axle_ignitions`.execute(db);
  await sql`drop index if exists insurance_verifications_ignition_idx`.execute(db);
  await sql`
    alter table insurance_verifications
      drop column provider, drop column ignition_token, drop column ignition_uri, drop column account_id, drop column policy_id,
      drop column policy_expires_on, drop column result, drop column last_error, drop column updated_at`.execute(db);
}
