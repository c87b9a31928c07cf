import { createHash, createHmac } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DigitalKey } from '@ampere/domain/contract/booking';
import type { Database } from '../../db/schema.ts';
import { digitalKeySecret } from '../trips/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The digital key (decision 023). A key is a row with a status and a window; the token its renter
 * holds is an HMAC of the key's id under the server's 'digital-key' secret — the same on every read
 * and API instance, never stored, and useless once the row is revoked. Only its hash is kept, to
 * find the key from a token.
 */
export function keyToken(secret: Buffer, keyId: string): string {
  return createHmac('sha256', secret).update(`digital-key:${keyId}`).digest('base64url');
}

export const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The trip's live key (active or paused), if any. */
export function liveKey(db: Db, reservationId: string) {
  return db
    .selectFrom('digital_keys')
    .selectAll()
    .where('reservation_id', '=', reservationId)
    .where('status', '!=', 'revoked')
    .executeTakeFirst();
}

/** Whether the trip has ever had a key (a revoked one counts): its first key marks it paid and verified. */
export async function hadKey(db: Db, reservationId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('digital_keys')
      .select('id')
      .where('reservation_id', '=', reservationId)
      .limit(1)
      .executeTakeFirst()) !== undefined
  );
}

/** The live keys of these trips, for the reservation response. */
export async function liveKeysFor(db: Db, reservationIds: string[]): Promise<Map<string, DigitalKey>> {
  if (reservationIds.length === 0) return new Map();
  const [rows, secret] = await Promise.all([
    db
      .selectFrom('digital_keys')
      .selectAll()
      .where('reservation_id', 'in', reservationIds)
      .where('status', '!=', 'revoked')
      .execute(),
    digitalKeySecret(db),
  ]);
  return new Map(
    rows.map((k) => [
      k.reservation_id,
      {
        token: keyToken(secret, k.id),
        status: k.status,
        valid_from: k.valid_from.toISOString(),
        valid_until: k.valid_until.toISOString(),
      },
    ]),
  );
}
