import { type Kysely, sql } from 'kysely';
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
  // The table is unlogged (migration 0021): this commit does not wait for the disk, on either engine.
  const { rows } = await sql<{ hits: number; resets_at: Date | string }>`
    insert into rate_limit_windows as w (key, hits, resets_at) values (${key}, 1, ${fresh})
    ${countingHit(now)}`.execute(db);
  const row = rows[0]!;
  return { hits: Number(row.hits), resetsAt: new Date(row.resets_at) };
}

/**
 * The end of every insert into rate_limit_windows as `w`: a hit on a window that is still open adds
 * one to it, a hit after it ended starts it again from the inserted row. Returns the window's hits
 * and end.
 */
export function countingHit(now: Date) {
  return sql`
    on conflict (key) do update set
      hits = case when w.resets_at <= ${now} then 1 else w.hits + 1 end,
      resets_at = case when w.resets_at <= ${now} then excluded.resets_at else w.resets_at end
    returning hits, resets_at`;
}

/** Deletes windows that have ended; how many. */
export async function pruneRateLimitWindows(db: Kysely<Database>, now: Date): Promise<number> {
  const r = await db.deleteFrom('rate_limit_windows').where('resets_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0n);
}
