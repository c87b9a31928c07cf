import { type Kysely, sql } from 'kysely';

/**
 * The console's renters (issue 30 §4, decisions 094 and 095).
 *
 * verification_reviews: a staff decision on a license check or an insurance connection that did
 * not pass — approve, override or uphold, who, when and why. The checks keep what the provider
 * said; the gates read the decision beside them. One decision per check: a newer check is
 * reviewed on its own.
 * do_not_rent: a renter listed until an expiry, with the reason and who listed them; lifting
 * keeps the row (who lifted it, when). At most one live listing per renter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table verification_reviews (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      subject text not null check (subject in ('license', 'insurance')),
      identity_verification_id uuid unique references identity_verifications(id),
      insurance_verification_id uuid unique references insurance_verifications(id),
      provider_status text not null,
      decision text not null check (decision in ('approve', 'override', 'uphold')),
      reason text,
      decided_by uuid not null references staff(id),
      decided_at timestamptz not null,
      check ((subject = 'license') = (identity_verification_id is not null)),
      check ((subject = 'insurance') = (insurance_verification_id is not null)),
      check (decision = 'approve' or length(trim(reason)) > 0)
    )`.execute(db);
  await sql`create index verification_reviews_user on verification_reviews (user_id)`.execute(db);

  await sql`
    create table do_not_rent (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      reason text not null check (length(trim(reason)) > 0),
      until timestamptz not null,
      listed_by uuid not null references staff(id),
      listed_at timestamptz not null,
      lifted_at timestamptz,
      lifted_by uuid references staff(id),
      lift_reason text,
      check (until > listed_at),
      check ((lifted_at is null) = (lifted_by is null))
    )`.execute(db);
  await sql`create unique index do_not_rent_one_live on do_not_rent (user_id) where lifted_at is null`.execute(db);
  await sql`create index do_not_rent_until on do_not_rent (until) where lifted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table do_not_rent`.execute(db);
  await sql`drop table verification_reviews`.execute(db);
}
