import { type Kysely, sql } from 'kysely';

/**
 * Why a trip was cancelled (decision 053): its renter cancelled it, its unpaid hold lapsed, or a
 * newer booking of the same car replaced it. A lapsed hold and a renter's cancel of an unpaid
 * booking leave the same rows behind otherwise, and the renter is told different things. Trips
 * cancelled before this keep no reason: nothing recorded tells them apart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reservations
      add column cancel_reason text
        check (cancel_reason in ('renter', 'hold_expired', 'replaced'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations drop column cancel_reason`.execute(db);
}
