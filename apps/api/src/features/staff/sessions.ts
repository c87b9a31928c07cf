import { randomBytes } from 'node:crypto';
import { type StaffRole, staffSessionEndsAt } from '@ampere/domain/staff';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashToken } from '../../http/session.ts';
import { findStaffSessionRow, insertStaffSession, touchStaffSession } from './session-repository.ts';

type Db = Kysely<Database>;

/** A staff session as a request sees it: who, in which role and where, and how far signed in. */
export interface StaffSession {
  sessionId: string;
  staff: { id: string; name: string; phone: string; role: StaffRole; locationIds: string[] | 'all' };
  /** False until the passkey step of signing in is done: such a session opens only that step. */
  passkeyVerified: boolean;
  signedInAt: Date;
  endsAt: Date;
}

/** How often one session's last use is written, at most: often enough for a 30-minute idle limit. */
const TOUCH_EVERY_MS = 60_000;

/** Starts a staff session after the texted code; its token is returned once and stored only as a hash. */
export async function startStaffSession(
  db: Db,
  input: { staffId: string; now: Date; passkeyVerified?: boolean },
): Promise<{ token: string; sessionId: string; endsAt: Date }> {
  const token = `ops_${randomBytes(32).toString('base64url')}`;
  const sessionId = await insertStaffSession(db, {
    tokenHash: hashToken(token),
    staffId: input.staffId,
    now: input.now,
    passkeyVerified: input.passkeyVerified ?? false,
  });
  return { token, sessionId, endsAt: staffSessionEndsAt(input.now, input.now) };
}

/**
 * The live session with this token: not revoked, its staff member still active, and neither idle
 * for 30 minutes nor older than 12 hours (the domain's rule). Each use moves its last use forward,
 * written at most once a minute.
 */
export async function findStaffSession(db: Db, token: string, now: Date): Promise<StaffSession | null> {
  const row = await findStaffSessionRow(db, hashToken(token));
  if (!row) return null;
  const signedInAt = new Date(row.created_at);
  const lastUsedAt = new Date(row.last_used_at);
  if (staffSessionEndsAt(signedInAt, lastUsedAt) <= now) return null;
  if (now.getTime() - lastUsedAt.getTime() >= TOUCH_EVERY_MS) await touchStaffSession(db, row.session_id, now);
  const used = now > lastUsedAt ? now : lastUsedAt;
  return {
    sessionId: row.session_id,
    staff: {
      id: row.staff_id,
      name: row.name,
      phone: row.phone,
      role: row.role,
      locationIds: row.role === 'owner' || row.location_ids === null ? 'all' : row.location_ids,
    },
    passkeyVerified: row.passkey_verified,
    signedInAt,
    endsAt: staffSessionEndsAt(signedInAt, used),
  };
}
