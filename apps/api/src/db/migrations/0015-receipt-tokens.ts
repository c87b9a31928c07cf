import { type Kysely, sql } from 'kysely';

/**
 * Receipt links (decision 031): a trip's receipt can be shared by a link carrying a random token.
 * Only the token's SHA-256 is kept, so the table cannot be used to open anyone's receipt. A revoked
 * link keeps its row (revoked_at) for the record; at most one link per trip is live.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table receipt_tokens (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      token_hash text not null unique,
      created_by uuid not null references users(id),
      created_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create unique index receipt_tokens_one_live on receipt_tokens (reservation_id) where revoked_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists receipt_tokens`.execute(db);
}
