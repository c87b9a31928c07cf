import { type Kysely, sql } from 'kysely';

/**
 * Request limits shared by every API process (decision 038): one row per limited route and caller,
 * counting hits in a fixed window that starts with the first hit and ends at `resets_at`. Rows
 * whose window has ended are dead weight and are pruned by a background job.
 *
 * And which session signed each realtime socket's subscription (decision 039), so signing out can
 * close that session's sockets in whichever process holds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rate_limit_windows (
      key text primary key,
      hits integer not null,
      resets_at timestamptz not null
    )`.execute(db);
  await sql`create index rate_limit_windows_resets_at on rate_limit_windows (resets_at)`.execute(db);
  await sql`
    create table realtime_socket_sessions (
      socket_id text primary key,
      session_id uuid not null references sessions(id) on delete cascade,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index realtime_socket_sessions_session on realtime_socket_sessions (session_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists realtime_socket_sessions`.execute(db);
  await sql`drop table if exists rate_limit_windows`.execute(db);
}
