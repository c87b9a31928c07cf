import { randomInt } from 'node:crypto';
import type { StaffRole } from '@ampere/domain/staff';
import { OPS_SESSION_COOKIE } from '@ampere/domain/contract/ops';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { startStaffSession } from '../src/features/staff/sessions.ts';

let phoneSeq = 0;

/**
 * A staff member already signed in, passkey step done: the cookie header their console requests
 * carry. Each call makes a new person with a phone number of their own.
 */
export async function signedInStaff(
  db: Kysely<Database>,
  opts: { role: StaffRole; locationIds?: string[] | null; now: Date; name?: string; passkeyVerified?: boolean },
): Promise<{ id: string; cookie: string; token: string; sessionId: string }> {
  phoneSeq += 1;
  const phone = `+1${randomInt(2_000_000_000, 9_999_999_999)}`;
  const staff = await db
    .insertInto('staff')
    .values({
      phone,
      name: opts.name ?? `Test ${opts.role} ${phoneSeq}`,
      role: opts.role,
      location_ids: opts.locationIds ?? null,
      created_at: opts.now,
      invited_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const session = await startStaffSession(db, {
    staffId: staff.id,
    now: opts.now,
    passkeyVerified: opts.passkeyVerified ?? true,
  });
  return {
    id: staff.id,
    cookie: `${OPS_SESSION_COOKIE}=${session.token}`,
    token: session.token,
    sessionId: session.sessionId,
  };
}
