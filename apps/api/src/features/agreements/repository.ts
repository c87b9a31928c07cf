import type { Expression, Kysely, Transaction } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema.ts';
import { lastStatement } from '../../db/transact.ts';
import type { AgreementType, RentalType } from '@ampere/domain/contract/booking';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Everything an agreement document shows about a trip, for the renter who owns it only: a trip
 * of someone else's is simply not found. (Read here rather than through the reservations feature,
 * which only needs to list agreements, not to print a trip.)
 */
const tripForSigningQuery = (db: Db, platformId: string, userId: string) =>
  db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as pl', 'pl.id', 'r.pickup_location_id')
    .innerJoin('locations as dl', 'dl.id', 'r.dropoff_location_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.status',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'v.vin',
      'v.year',
      'v.color',
      'm.name as model_name',
      'pl.name as pickup_name',
      'pl.street as pickup_street',
      'pl.city as pickup_city',
      'pl.state as pickup_state',
      'pl.zip_code as pickup_zip',
      'pl.timezone as pickup_timezone',
      'dl.name as return_name',
      'dl.street as return_street',
      'dl.city as return_city',
      'dl.state as return_state',
      'dl.zip_code as return_zip',
      'dl.timezone as return_timezone',
      'u.first_name',
      'u.last_name',
      'u.phone',
      'u.email',
    ])
    .where('r.platform_id', '=', platformId)
    .where('r.user_id', '=', userId);
export type TripRow = NonNullable<Awaited<ReturnType<ReturnType<typeof tripForSigningQuery>['executeTakeFirst']>>>;

/**
 * The trip to sign for, in one statement with what signing it needs: its agreement of this type if
 * it has one (times as ISO text), and its line items. Undefined when the trip is not the renter's.
 */
export async function findTripForSigning(db: Db, platformId: string, userId: string, type: AgreementType) {
  const found = await tripForSigningQuery(db, platformId, userId)
    .select((eb) => [
      jsonObjectFrom(
        // Not joined to reservations: that alias would hide the trip's row (`r`) the sub-select is keyed by.
        eb
          .selectFrom('agreements as ag')
          .select(['ag.id', 'ag.type', 'ag.signature', 'ag.signed_on', 'ag.rental_type', 'ag.created_at'])
          .whereRef('ag.reservation_id', '=', 'r.id')
          .where('ag.type', '=', type),
      ).as('existing'),
      jsonArrayFrom(tripTransactionsQuery(db, eb.ref('r.id'))).as('transactions'),
    ])
    .executeTakeFirst();
  if (!found) return undefined;
  const { existing, transactions, ...trip } = found;
  return {
    trip,
    existing: existing && { ...existing, platform_id: trip.platform_id, created_at: String(existing.created_at) },
    transactions,
  };
}

/** The trip's line items in the order they were charged, each with its add-on's type if any. */
const tripTransactionsQuery = (db: Db, reservationId: string | Expression<string>) =>
  db
    .selectFrom('transactions as t')
    .leftJoin('addons as a', 'a.id', 't.addon_id')
    .select([
      't.id',
      't.category',
      't.status',
      't.description',
      't.cost',
      't.amount',
      't.discount_amount',
      't.number_of_days',
      'a.type as addon_type',
    ])
    .where('t.reservation_id', '=', reservationId)
    .orderBy('t.initiated_at')
    .orderBy('t.created_at')
    .orderBy('t.id');
export type TransactionRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof tripTransactionsQuery>['executeTakeFirst']>>
>;

const AGREEMENT_COLUMNS = [
  'ag.id',
  'ag.type',
  'r.platform_id',
  'ag.signature',
  'ag.signed_on',
  'ag.rental_type',
  'ag.created_at',
] as const;

export function findAgreementByType(db: Db, reservationId: string, type: AgreementType) {
  return db
    .selectFrom('agreements as ag')
    .innerJoin('reservations as r', 'r.id', 'ag.reservation_id')
    .select(AGREEMENT_COLUMNS)
    .where('ag.reservation_id', '=', reservationId)
    .where('ag.type', '=', type)
    .executeTakeFirst();
}
export type AgreementRow = NonNullable<Awaited<ReturnType<typeof findAgreementByType>>>;

/** The renter's own agreement; someone else's is not found. */
export function findOwnAgreement(db: Db, id: string, userId: string) {
  return db
    .selectFrom('agreements as ag')
    .innerJoin('reservations as r', 'r.id', 'ag.reservation_id')
    .select(AGREEMENT_COLUMNS)
    .where('ag.id', '=', id)
    .where('ag.user_id', '=', userId)
    .executeTakeFirst();
}

/** The stored document, for a link whose signature names its owner. */
export function findAgreementDocument(db: Db, id: string) {
  return db
    .selectFrom('agreements as ag')
    .innerJoin('reservations as r', 'r.id', 'ag.reservation_id')
    .select(['ag.id', 'ag.user_id', 'ag.type', 'ag.document', 'ag.document_sha256', 'r.platform_id'])
    .where('ag.id', '=', id)
    .executeTakeFirst();
}

/** The trip's status, holding its row until the transaction ends so a cancel cannot slip in between. */
export function lockReservationStatus(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('reservations')
    .select(['status'])
    .where('id', '=', reservationId)
    .forUpdate()
    .executeTakeFirst();
}

export interface NewAgreement {
  id: string;
  reservation_id: string;
  user_id: string;
  type: AgreementType;
  signature: string;
  signed_on: string;
  rental_type: RentalType;
  document: Buffer;
  document_sha256: string;
  created_at: Date;
}

/**
 * Inserts the agreement unless the trip already has one of this type and, when it did, sets the
 * trip's rental type to the one signed for, in one statement, the transaction's last (decision 110);
 * the row as stored when it was inserted.
 */
export function insertAgreementIfAbsent(trx: Transaction<Database>, values: NewAgreement) {
  const query = trx
    .with('inserted', (db) =>
      db
        .insertInto('agreements')
        .values(values)
        .onConflict((oc) => oc.columns(['reservation_id', 'type']).doNothing())
        .returning(['id', 'type', 'signature', 'signed_on', 'rental_type', 'created_at']),
    )
    .with('retyped', (db) =>
      db
        .updateTable('reservations')
        .set({ rental_type: values.rental_type })
        .where('id', '=', values.reservation_id)
        .where((eb) => eb.exists(eb.selectFrom('inserted').select('inserted.id'))),
    )
    .selectFrom('inserted')
    .selectAll();
  return lastStatement(query, ([row]) => row);
}
