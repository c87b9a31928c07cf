import { randomBytes, randomInt } from 'node:crypto';
import { SESSION_HEADER, hashToken } from '../src/http/session.ts';
import type { TestContext } from './harness.ts';

export interface SignedIn {
  userId: string;
  token: string;
  /** Headers for `app.inject` that carry the session. */
  headers: Record<string, string>;
}

/** A random US number, +1 NPA 555 XXXX: unique enough for the few renters one test database holds. */
export function uniquePhone(): string {
  return `+1${randomInt(201, 990)}555${String(randomInt(0, 10_000)).padStart(4, '0')}`;
}

/**
 * A renter with a live session, written straight into the database (as sign-in would leave it),
 * for tests of features behind sign-in. The session lasts one day from the test clock.
 */
export async function signInAs(ctx: TestContext, phone: string = uniquePhone()): Promise<SignedIn> {
  const db = ctx.handle.db;
  const user = await db
    .insertInto('users')
    .values({ stytch_user_id: `user-test-${randomBytes(12).toString('hex')}`, phone })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now;
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: new Date(now.getTime() + 86_400_000), revoked_at: null, user_agent: null, ip: null })
    .execute();
  return { userId: user.id, token, headers: { [SESSION_HEADER]: token } };
}
