import { type Kysely, sql } from 'kysely';

/**
 * A coupon's redemptions, claimed in the database (decision 052). A trip's payment claims its code
 * when it is prepared and redeems it when its charge settles; the unique index on the renter for
 * first-trip codes, not a count read beforehand, is what keeps such a code to one trip, and
 * `discounts.redemptions` counts the live claims so that max_redemptions is one conditional update.
 * Trips already paid with a code get their claim here: for a first-trip code, the renter's earliest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table coupon_claims (
      reservation_id uuid primary key references reservations(id),
      code text not null references discounts(code),
      user_id uuid not null references users(id),
      first_trip boolean not null,
      claimed_at timestamptz not null,
      redeemed_at timestamptz
    )`.execute(db);
  await sql`create unique index coupon_claims_first_trip on coupon_claims (user_id) where first_trip`.execute(db);
  await sql`create index coupon_claims_code_idx on coupon_claims (code)`.execute(db);
  await sql`
    insert into coupon_claims (reservation_id, code, user_id, first_trip, claimed_at, redeemed_at)
    select distinct on (case when d.new_renters_only then r.user_id else r.id end)
           r.id, d.code, r.user_id, d.new_renters_only,
           coalesce(r.confirmed_at, r.created_at), coalesce(r.confirmed_at, r.created_at)
      from reservations r
      join discounts d on d.code = r.discount_code
     where r.user_id is not null
       and (r.status in ('Pending', 'On Rent', 'Returned') or r.confirmed_at is not null)
     order by case when d.new_renters_only then r.user_id else r.id end,
              coalesce(r.confirmed_at, r.created_at), r.id`.execute(db);
  await sql`
    update discounts d
       set redemptions = (select count(*) from coupon_claims c where c.code = d.code)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table coupon_claims`.execute(db);
}
