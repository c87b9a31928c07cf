import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Who sent a key and what they asked for with it. */
export interface KeyClaim {
  userId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/**
 * Claims the renter's key with no answer yet; false when it is already taken. A concurrent claim
 * of the same key waits here (on the primary key's unique index) until the first one's
 * transaction ends.
 */
export async function claimKey(trx: Transaction<Database>, claim: KeyClaim, now: Date): Promise<boolean> {
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: claim.userId,
      key: claim.key,
      method: claim.method,
      path: claim.path,
      request_hash: claim.requestHash,
      status_code: null,
      response_body: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** A key already claimed, locked until the transaction ends: what it was used for and its stored answer. */
export async function lockClaimedKey(
  trx: Transaction<Database>,
  userId: string,
  key: string,
): Promise<{
  method: string;
  path: string;
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
}> {
  return trx
    .selectFrom('idempotency_keys')
    .select(['method', 'path', 'request_hash', 'status_code', 'response_body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Stores the answer to a claimed key; the body as stored (jsonb), read back. */
export async function storeAnswer(
  trx: Transaction<Database>,
  userId: string,
  key: string,
  answer: { statusCode: number; body: unknown },
): Promise<unknown> {
  const stored = await trx
    .updateTable('idempotency_keys')
    .set({ status_code: answer.statusCode, response_body: JSON.stringify(answer.body) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .returning('response_body')
    .executeTakeFirstOrThrow();
  return stored.response_body;
}

/** Deletes keys claimed before `before`; how many. */
export async function deleteKeysClaimedBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0n);
}
