import { type Kysely, sql } from 'kysely';

/**
 * The request-limit counters (decision 038) skip the write-ahead log (decision 064): a counter
 * lost in a crash costs nothing (PostgreSQL empties an unlogged table after one), and a
 * transaction that wrote only unlogged rows commits without waiting for the disk, so each
 * limited request's count is one statement instead of a transaction of four.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_limit_windows set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_limit_windows set logged`.execute(db);
}
