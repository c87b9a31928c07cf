import { type Kysely, sql } from 'kysely';

/**
 * Renewing a deposit hold (decision 028): for a moment a trip has two live holds, the one running
 * out and its replacement. The replacement names the hold it replaces until the swap; one live
 * hold per trip is still the rule for the rest, and a hold being released ('canceling') no longer
 * counts as live. A hold is replaced at most once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments add column replaces_payment_id uuid references payments(id)`.execute(db);
  await sql`drop index payments_one_live_deposit`.execute(db);
  await sql`
    create unique index payments_one_live_deposit on payments (reservation_id)
      where kind = 'DEPOSIT_HOLD' and status not in ('canceled', 'failed', 'canceling') and replaces_payment_id is null`.execute(
    db,
  );
  await sql`create unique index payments_one_renewal on payments (replaces_payment_id) where replaces_payment_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index payments_one_renewal`.execute(db);
  await sql`drop index payments_one_live_deposit`.execute(db);
  await sql`
    create unique index payments_one_live_deposit on payments (reservation_id)
      where kind = 'DEPOSIT_HOLD' and status not in ('canceled','failed')`.execute(db);
  await sql`alter table payments drop column replaces_payment_id`.execute(db);
}
