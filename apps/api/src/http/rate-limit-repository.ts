import { type Kysely, sql } from 'kysely';
import { engineOf } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/**
 * Counts one hit on `key` and returns the window's hits so far and when it ends. A window starts
 * with its first hit and lasts `windowMs`; a hit after it ended starts a new one. One upsert,
 * so simultaneous hits from any number of processes are each counted exactly once.
 */
export async function hitWindow(
  db: Kysely<Database>,
  key: string,
  now: Date,
  windowMs: number,
): Promise<{ hits: number; resetsAt: Date }> {
  const fresh = new Date(now.getTime() + windowMs);
  const upsert = sql<{ hits: number; resets_at: Date | string }>`
    insert into rate_limit_windows as w (key, hits, resets_at) values (${key}, 1, ${fresh})
    on conflict (key) do update set
      hits = case when w.resets_at <= ${now} then 1 else w.hits + 1 end,
      resets_at = case when w.resets_at <= ${now} then excluded.resets_at else w.resets_at end
    returning hits, resets_at`;
  // On PostgreSQL a counter lost in a crash costs nothing, so its commit need not wait for the WAL
  // to reach the disk: every limited request makes one of these. The embedded database runs as is.
  const { rows } =
    engineOf(db)?.kind === 'postgres'
      ? await db.transaction().execute(async (trx) => {
          await sql`set local synchronous_commit = off`.execute(trx);
          return upsert.execute(trx);
        })
      : await upsert.execute(db);
  const row = rows[0]!;
  return { hits: Number(row.hits), resetsAt: new Date(row.resets_at) };
}

/** Deletes windows that have ended; how many. */
export async function pruneRateLimitWindows(db: Kysely<Database>, now: Date): Promise<number> {
  const r = await db.deleteFrom('rate_limit_windows').where('resets_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0n);
}
