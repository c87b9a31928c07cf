import { createHash, createHmac } from 'node:crypto';
import { type Expression, type Kysely, type QueryCreator, type Transaction, sql } from 'kysely';
import type { Color } from '@ampere/domain/constants';
import type { DigitalKey } from '@ampere/domain/contract/booking';
import type { KeyStatus } from '@ampere/domain/verification';
import type { KeyPauser } from '@ampere/domain/car-actions';
import type { Database } from '../../db/schema.ts';

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

/** The secret, once read, per database: it is made once (migration 0004) and never changes. */
const secrets = new WeakMap<object, Buffer>();

/**
 * The server secret digital-key tokens are derived from (made by migration 0004). Read once per
 * process and database: every trip view signs its key link with it (decision 064).
 */
export async function digitalKeySecret(db: Db): Promise<Buffer> {
  // A transaction is its own Kysely instance: key the cache by the database's executor's driver.
  const owner = db.getExecutor().adapter;
  const known = secrets.get(owner);
  if (known) return known;
  const { rows } = await sql<{ value: Uint8Array }>`select value from app_secrets where name = 'digital-key'`.execute(
    db,
  );
  if (!rows[0]) throw new Error('app_secrets has no digital-key row; migration 0004 makes it');
  const secret = Buffer.from(rows[0].value);
  secrets.set(owner, secret);
  return secret;
}

/** The trip's live key (active or paused), if any. */
export function liveKey(db: Db, reservationId: string) {
  return db
    .selectFrom('digital_keys')
    .selectAll()
    .where('reservation_id', '=', reservationId)
    .where('status', '!=', 'revoked')
    .executeTakeFirst();
}

/**
 * The live keys of these trips, for the reservation response (read inside its one statement): by
 * their ids, or by the id column of the reservation row that statement selects.
 */
export const liveKeyRowsQuery = (db: Db, reservationIds: readonly (string | Expression<string>)[]) =>
  db
    .selectFrom('digital_keys')
    .selectAll()
    .where('reservation_id', 'in', reservationIds)
    .where('status', '!=', 'revoked');

/** Key rows (their times as Dates, or as ISO text from a JSON sub-select) by trip, each with its token. */
export function liveKeysBy(
  secret: Buffer,
  rows: readonly {
    id: string;
    reservation_id: string;
    status: KeyStatus;
    valid_from: Date | string;
    valid_until: Date | string;
  }[],
): Map<string, DigitalKey> {
  return new Map(
    rows.map((k) => [
      k.reservation_id,
      {
        token: keyToken(secret, k.id),
        status: k.status,
        valid_from: new Date(k.valid_from).toISOString(),
        valid_until: new Date(k.valid_until).toISOString(),
      },
    ]),
  );
}

export async function insertKey(
  trx: Transaction<Database>,
  key: { id: string; reservation_id: string; token_hash: string; valid_from: Date; valid_until: Date; now: Date },
): Promise<void> {
  const { now, ...values } = key;
  await trx
    .insertInto('digital_keys')
    .values({ ...values, status: 'active', created_at: now, updated_at: now, revoked_at: null })
    .execute();
}

/** Sets one key's status (a revoked key records when, a paused one who paused it). */
export async function setKeyStatus(
  trx: Transaction<Database>,
  keyId: string,
  status: KeyStatus,
  now: Date,
  pausedBy: KeyPauser | null = null,
) {
  await trx
    .updateTable('digital_keys')
    .set({
      status,
      updated_at: now,
      paused_by: status === 'paused' ? pausedBy : null,
      ...(status === 'revoked' ? { revoked_at: now } : {}),
    })
    .where('id', '=', keyId)
    .execute();
}

/** Every key of the trip not yet revoked is revoked. */
export async function revokeKeysOf(trx: Transaction<Database>, reservationId: string, now: Date): Promise<void> {
  await trx
    .updateTable('digital_keys')
    .set({ status: 'revoked', revoked_at: now, updated_at: now })
    .where('reservation_id', '=', reservationId)
    .where('status', '!=', 'revoked')
    .execute();
}

/** The trip's keys not revoked open the car for this window. */
export async function setKeyWindow(
  trx: Transaction<Database>,
  reservationId: string,
  window: { from: Date; until: Date },
  now: Date,
): Promise<void> {
  await keyWindowUpdate(trx, window, now).where('reservation_id', '=', reservationId).execute();
}

/** `setKeyWindow`'s statement before it names its trip: the caller adds which keys' trip it is. */
export function keyWindowUpdate(db: QueryCreator<Database>, window: { from: Date; until: Date }, now: Date) {
  return db
    .updateTable('digital_keys')
    .set({ valid_from: window.from, valid_until: window.until, updated_at: now })
    .where('status', '!=', 'revoked');
}

/** A key by the token its holder shows, with its trip, car and pickup place; undefined for an unknown token. */
export function findByToken(db: Db, token: string) {
  return db
    .selectFrom('digital_keys as k')
    .innerJoin('reservations as r', 'r.id', 'k.reservation_id')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select([
      'k.id',
      'k.status',
      'k.paused_by',
      'k.valid_from',
      'k.valid_until',
      'r.id as reservation_id',
      'r.platform_id',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'v.id as vehicle_id',
      'v.vin',
      'v.year',
      'v.color',
      'v.odometer',
      'v.model_id',
      'm.name as model_name',
      'l.name as location_name',
      'l.street',
      'l.city',
      'l.state',
      'l.zip_code',
      'l.timezone as location_timezone',
    ])
    .where('k.token_hash', '=', hashOf(token))
    .executeTakeFirst();
}

/** The picture the key page shows of the car: its own MONEYSHOT photo (decision 085), else its model's in its colour. */
export async function keyPageImage(db: Db, vehicleId: number, modelId: number, color: Color): Promise<string | null> {
  const row = await db
    .selectFrom('model_images as mi')
    .leftJoin('car_photos as cp', (j) => j.on('cp.vehicle_id', '=', vehicleId).on('cp.view', '=', 'MONEYSHOT'))
    .select((eb) => eb.fn.coalesce('cp.image_url', 'mi.image_url').as('image_url'))
    .where('mi.model_id', '=', modelId)
    .where('mi.color', '=', color)
    .where('mi.view', '=', 'MONEYSHOT')
    .executeTakeFirst();
  return row?.image_url ?? null;
}

/** Records a lock or unlock asked of the car with a key, and how it ended. */
export async function recordCarCommand(
  db: Db,
  c: { key_id: string; vehicle_id: number; command: string; result: string; created_at: Date },
): Promise<void> {
  await db.insertInto('car_commands').values(c).execute();
}
