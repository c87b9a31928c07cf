import { type Kysely, sql } from 'kysely';

/**
 * Each reservation records when it last changed, so the in-memory search index can fetch only
 * what changed since its last look (see features/vehicles/search-index.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations add column updated_at timestamptz not null default now()`.execute(db);
  await sql`create index reservations_updated_idx on reservations (updated_at)`.execute(db);
  await sql`
    create function reservations_touch() returns trigger language plpgsql as $$
    begin
      new.updated_at := now();
      return new;
    end $$`.execute(db);
  await sql`create trigger reservations_touch before update on reservations for each row execute function reservations_touch()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservations_touch on reservations`.execute(db);
  await sql`drop function if exists reservations_touch()`.execute(db);
  await sql`alter table reservations drop column if exists updated_at`.execute(db);
}
