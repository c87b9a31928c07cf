import { type Kysely, sql } from 'kysely';

/**
 * Driver's license checks (decision 021).
 *
 * identity_verifications: our record of each hosted check a renter started — which provider
 * session it is, where it opens, and what the provider decided. The user's license fields are
 * written from the newest decision.
 *
 * twin_identity_sessions: the built-in identity twin's own sessions, as the provider keeps them
 * (the person and document it "read", its decision), so that it answers like Veriff would.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table identity_verifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      reservation_id uuid references reservations(id),
      provider text not null,
      provider_session_id text not null,
      status text not null,
      url text not null,
      reason text,
      decided_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (provider, provider_session_id)
    )`.execute(db);
  await sql`create index identity_verifications_user_idx on identity_verifications (user_id, created_at desc)`.execute(
    db,
  );
  await sql`
    create table twin_identity_sessions (
      id text primary key,
      status text not null,
      first_name text,
      last_name text,
      vendor_data text not null,
      decision jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists twin_identity_sessions`.execute(db);
  await sql`drop table if exists identity_verifications`.execute(db);
}
