import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Color } from '@ampere/domain/constants';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What a receipt is read from, in a handful of indexed lookups: the trip with its car, model and
 * pickup place (one query, found by the token's hash or by owner and platform id), then the car's
 * photo here, and its line items and ride as the reservations feature reads them. Nothing about the
 * renter is selected.
 */
function tripQuery(db: Db) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.user_id',
      'r.status',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'r.discount_code',
      'v.vin',
      'v.year',
      'v.color',
      'v.model_id',
      'v.id as vehicle_id',
      'm.name as model_name',
      'l.name as location_name',
      'l.city as location_city',
      'l.state as location_state',
      'l.timezone as location_timezone',
    ]);
}

export type ReceiptTripRow = NonNullable<Awaited<ReturnType<typeof tripByTokenHash>>>;

/** The trip a live (not revoked) receipt link opens. */
export function tripByTokenHash(db: Db, tokenHash: string) {
  return tripQuery(db)
    .innerJoin('receipt_tokens as rt', 'rt.reservation_id', 'r.id')
    .where('rt.token_hash', '=', tokenHash)
    .where('rt.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** One of the renter's trips by platform id (written uppercase; a lowercase copy from a URL still finds it). */
export function ownTrip(db: Db, userId: string, platformId: string) {
  return tripQuery(db)
    .where('r.user_id', '=', userId)
    .where('r.platform_id', 'in', [...new Set([platformId, platformId.toUpperCase()])])
    .executeTakeFirst();
}

/**
 * The trip's charges and deposit holds that reached the provider, oldest first, each with the card
 * it used and when money was last given back from it.
 */
export function paymentsOf(db: Db, reservationId: string) {
  return db
    .selectFrom('payments as p')
    .leftJoin('payment_refunds as f', 'f.payment_id', 'p.id')
    .select((eb) => [
      'p.provider_intent_id',
      'p.created_at',
      'p.card_last_4',
      // A payment given back by the renter's own change (payment_refunds), or by staff (refunds,
      // decision 093): when the provider last returned money from it.
      eb.fn
        .coalesce(
          'f.refunded_at',
          eb
            .selectFrom('refunds as s')
            .select((e) => e.fn.max('s.created_at').as('at'))
            .whereRef('s.payment_id', '=', 'p.id')
            .where('s.provider_refund_id', 'is not', null),
        )
        .as('refunded_at'),
    ])
    .where('p.reservation_id', '=', reservationId)
    .where('p.provider_intent_id', 'is not', null)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
}

/** Spec 2: the receipt shows the car's MONEYSHOT view: its own photo when it has one (decision 085), else its model's drawing. */
export async function moneyshot(db: Db, vehicleId: number, modelId: number, color: Color): Promise<string | null> {
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

/** When the trip's live receipt link was made, if it has one. */
export function liveLink(db: Db, reservationId: string) {
  return db
    .selectFrom('receipt_tokens')
    .select(['id', 'created_at'])
    .where('reservation_id', '=', reservationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Locks the trip's row, so that two link changes for one trip happen one after the other. */
export async function lockTrip(trx: Transaction<Database>, reservationId: string): Promise<void> {
  await trx.selectFrom('reservations').select('id').where('id', '=', reservationId).forNoKeyUpdate().execute();
}

/** Revokes the trip's live link, if any; true when there was one. */
export async function revokeLinks(trx: Transaction<Database>, reservationId: string, now: Date): Promise<boolean> {
  const r = await trx
    .updateTable('receipt_tokens')
    .set({ revoked_at: now })
    .where('reservation_id', '=', reservationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function insertLink(
  trx: Transaction<Database>,
  values: { reservation_id: string; token_hash: string; created_by: string; created_at: Date },
): Promise<void> {
  await trx
    .insertInto('receipt_tokens')
    .values({ ...values, revoked_at: null })
    .execute();
}
