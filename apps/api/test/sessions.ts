import { randomBytes, randomInt } from 'node:crypto';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { hashToken } from '../src/http/session.ts';
import type { TestContext } from './harness.ts';

export interface SignedIn {
  userId: string;
  token: string;
  /** Headers for `app.inject` that carry the session. */
  headers: Record<string, string>;
}

/** This test process's area code, and a count of the numbers given out under it. */
const AREA = randomInt(201, 990);
let issued = 0;

/**
 * A US number, +1 NPA 555 XXXX, never the same twice in one test process (each test file has its
 * own database and process). It stays out of 555-01XX, the block tests name by hand.
 */
export function uniquePhone(): string {
  issued += 1;
  if (issued > 8_999) throw new Error('uniquePhone: this test process has used up its 9,000 numbers.');
  return `+1${AREA}555${String(1_000 + issued)}`;
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
    .values({
      token_hash: hashToken(token),
      user_id: user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + 86_400_000),
      revoked_at: null,
      user_agent: null,
      ip: null,
    })
    .execute();
  return { userId: user.id, token, headers: { [SESSION_HEADER]: token } };
}
