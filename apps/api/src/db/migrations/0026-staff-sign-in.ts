import { type Kysely, sql } from 'kysely';

/**
 * Staff sign-in (issue 29, decision 081): the codes texted to staff, kept apart from renters'
 * (a staff member's phone may also be a renter's, and a renter's code must never open the console),
 * and the passkey challenge a half-signed-in session is answering, single-use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table staff_sign_in_codes (
      id uuid primary key default gen_random_uuid(),
      staff_id uuid not null references staff(id),
      code_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      failed_attempts integer not null default 0,
      consumed_at timestamptz,
      invalidated_at timestamptz
    )`.execute(db);
  await sql`create index staff_sign_in_codes_staff on staff_sign_in_codes (staff_id, created_at desc)`.execute(db);
  await sql`alter table staff_sessions add column passkey_challenge text`.execute(db);
  await sql`alter table staff_sessions add column passkey_challenge_expires_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table staff_sessions drop column passkey_challenge_expires_at`.execute(db);
  await sql`alter table staff_sessions drop column passkey_challenge`.execute(db);
  await sql`drop table staff_sign_in_codes`.execute(db);
}
