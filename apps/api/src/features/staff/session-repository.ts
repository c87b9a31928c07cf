import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Staff sessions' rows (decision 080): each stored by its token's hash only. */
export async function insertStaffSession(
  db: Db,
  row: { tokenHash: string; staffId: string; now: Date; passkeyVerified: boolean },
): Promise<string> {
  const inserted = await db
    .insertInto('staff_sessions')
    .values({
      token_hash: row.tokenHash,
      staff_id: row.staffId,
      passkey_verified: row.passkeyVerified,
      created_at: row.now,
      last_used_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The unrevoked session with this token hash, of an active staff member, with who they are. */
export function findStaffSessionRow(db: Db, tokenHash: string) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as st', 'st.id', 's.staff_id')
    .select([
      's.id as session_id',
      's.passkey_verified',
      's.created_at',
      's.last_used_at',
      'st.id as staff_id',
      'st.name',
      'st.phone',
      'st.role',
      'st.location_ids',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('st.active', '=', true)
    .executeTakeFirst();
}

export async function touchStaffSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_used_at: now }).where('id', '=', sessionId).execute();
}

/** Marks the session's passkey step done. */
export async function markPasskeyVerified(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ passkey_verified: true }).where('id', '=', sessionId).execute();
}

export async function revokeStaffSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
