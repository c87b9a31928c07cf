import { type Expression, type InferResult, type Kysely, type Transaction, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { compiledOnce } from '../../db/compiled-once.ts';
import { type LastStatement, lastStatement } from '../../db/transact.ts';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import { blockedUntil } from '@ampere/domain/availability';
import { BEFORE_PICKUP_STATUSES, OPEN_TRIP_STATUSES } from '@ampere/domain/booking';
import { HELD_FROM } from '../../db/reservation-holds.ts';
import type { Database } from '../../db/schema.ts';
import { effectiveInsuranceStatus } from '@ampere/domain/renter-review';
import { insurancePassedByStaff } from '../renter-review/gates-repository.ts';
import { liveKeyRowsQuery } from '../keys/repository.ts';
import { type TripForMessage, placeAndRenterOf } from '../messages/repository.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export const RESERVATION_COLUMNS = [
  'r.id',
  'r.platform_id',
  'r.user_id',
  'r.vehicle_id',
  'r.status',
  'r.pickup_at',
  'r.return_at',
  'r.timezone',
  'r.pickup_location_id',
  'r.dropoff_location_id',
  'r.created_at',
  'r.rental_type',
  'r.discount_code',
  'r.is_eligible',
  'r.eligibility_checked_at',
  'r.confirmed_at',
  'r.canceled_at',
  'r.on_rent_at',
  'r.returned_at',
  'r.requested_pickup_at',
  'r.requested_return_at',
  'r.change_requested_at',
  'r.changed_from_pickup_at',
  'r.changed_from_return_at',
  'r.dates_changed_at',
  'r.cancel_reason',
] as const;

/**
 * Decision 015: the reservation's hold overlaps the period [from, to) plus its turnaround: the
 * comparison the exclusion constraint makes (and the domain's `clashes`).
 */
export const holdsOverlap = (from: Date, to: Date) =>
  sql<boolean>`tstzrange(least(pickup_at, requested_pickup_at), blocked_until, '[)') && tstzrange(${from}, ${blockedUntil(to)}, '[)')`;

/**
 * Overlapping reservations that hold the car, optionally leaving one out (a trip being modified),
 * and the staff holds (decision 083) that take it for part of the period, in order.
 */
export async function overlappingReservations(
  db: Db,
  vehicleId: number,
  from: Date,
  to: Date,
  exceptPlatformId?: string,
): Promise<{ pickup_at: Date; return_at: Date }[]> {
  let q = db
    .selectFrom('reservations')
    .select([HELD_FROM.as('pickup_at'), sql<Date>`greatest(return_at, requested_return_at)`.as('return_at')])
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where(holdsOverlap(from, to));
  if (exceptPlatformId) q = q.where('platform_id', '!=', exceptPlatformId);
  // Both in one statement: a connection's round trip each would cost more than the second scan.
  const rows = await q
    .unionAll(
      db
        .selectFrom('vehicle_holds')
        .select(['starts_at as pickup_at', 'ends_at as return_at'])
        .where('vehicle_id', '=', vehicleId)
        .where('canceled_at', 'is', null)
        .where('starts_at', '<', to)
        .where('ends_at', '>', from),
    )
    .execute();
  return rows.sort((a, b) => new Date(a.pickup_at).getTime() - new Date(b.pickup_at).getTime());
}

/** Platform ids are written uppercase; a lowercase copy from a URL still finds the trip. */
export const platformIdVariants = (platformId: string) => [...new Set([platformId, platformId.toUpperCase()])];

export type ReservationRow = NonNullable<Awaited<ReturnType<typeof findReservation>>>;

/** The renter's reservation whose platform id is one of `platformIds` (its `platformIdVariants`). */
const ownReservationQuery = (db: Db, userId: string, platformIds: readonly string[]) =>
  db
    .selectFrom('reservations as r')
    .select(RESERVATION_COLUMNS)
    .where('r.user_id', '=', userId)
    .where('r.platform_id', 'in', platformIds);

/** One of the renter's reservations by platform id; another renter's is not found. */
export function findReservation(db: Db, userId: string, platformId: string, opts: { lock?: boolean } = {}) {
  const q = ownReservationQuery(db, userId, platformIdVariants(platformId));
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

/** The renter's reservations that can still change (Started, Pending), locked in id order. */
export function lockChangeableReservations(trx: Transaction<Database>, userId: string) {
  return trx
    .selectFrom('reservations as r')
    .select(RESERVATION_COLUMNS)
    .where('r.user_id', '=', userId)
    .where('r.status', 'in', BEFORE_PICKUP_STATUSES)
    .orderBy('r.id')
    .forUpdate()
    .execute();
}

const reservationByIdQuery = (db: Db, id: string) =>
  db.selectFrom('reservations as r').select(RESERVATION_COLUMNS).where('r.id', '=', id);

export function findReservationById(db: Db, id: string, opts: { lock?: boolean } = {}) {
  const q = reservationByIdQuery(db, id);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * The reservation's row locked, as `findReservationById` locks it, with what its messages name
 * (`tripForMessage`) read in the same statement: the message facts hold for the row as read.
 */
export async function lockReservationWithMessageFacts(
  db: Db,
  id: string,
): Promise<{ row: ReservationRow; forMessage: TripForMessage | null } | undefined> {
  const found = await reservationByIdQuery(db, id)
    .select((eb) => placeAndRenterOf(eb).as('place_and_renter'))
    .forUpdate()
    .executeTakeFirst();
  if (!found) return undefined;
  const { place_and_renter: more, ...row } = found;
  const { platform_id, status, user_id, pickup_at, return_at, created_at } = row;
  return {
    row,
    forMessage: more && { id, platform_id, status, user_id, pickup_at, return_at, created_at, ...more },
  };
}

/** The ids of the renter's trips that are paid and not over (those a key can be given to). */
export async function openTripIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('reservations')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_TRIP_STATUSES)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The renter's own reservation's id, by its platform id as written, with the trip's payments, each
 * saying whether a refund of it is recorded and not yet made, and what the gateway needs to know
 * about the renter (`findCustomerOwner`; `owner_id` null when the account is gone), in one
 * statement: one row a payment (one with a null `id` when there is none), or none when the renter
 * has no such trip.
 */
export function findRenterReservationPayments(db: Db, userId: string, platformId: string) {
  return renterReservationPayments(db, userId, platformId);
}

// Built and compiled once per process (decision 102, addendum): every payment and confirm reads it.
const renterReservationPayments = compiledOnce((db, userId: string, platformId: string) =>
  db
    .selectFrom('reservations as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('payments as p', 'p.reservation_id', 'r.id')
    .select((eb) => [
      'r.id as reservation_id',
      'u.id as owner_id',
      'u.phone as owner_phone',
      'u.email as owner_email',
      'u.gateway_customer_id as owner_customer_id',
      'p.id',
      'p.provider_intent_id',
      'p.status',
      eb
        .exists(
          eb
            .selectFrom('payment_refunds as f')
            .select('f.id')
            .whereRef('f.payment_id', '=', 'p.id')
            .where('f.refunded_at', 'is', null),
        )
        .as('refund_due'),
    ])
    .where('r.platform_id', '=', platformId)
    .where('r.user_id', '=', userId)
    .orderBy('p.created_at')
    .orderBy('p.id'),
);

/** Locks the reservation row: every change to its payments is made one at a time. */
export function lockReservation(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('reservations')
    .select(['id', 'user_id', 'status', 'platform_id'])
    .where('id', '=', reservationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

const renterReservationsQuery = (db: Db, userId: string) =>
  db.selectFrom('reservations as r').select(RESERVATION_COLUMNS).where('r.user_id', '=', userId).orderBy('r.pickup_at');

/**
 * What a trip view's parts are selected by: values (of rows already read), or the columns of the
 * reservation row a statement is selecting (`"r"."id"`), for parts read in the same statement.
 */
export type Keys<T> = readonly (T | Expression<T>)[];

export function vehiclesByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return vehiclesQuery(db, ids).execute();
}

function vehiclesQuery(db: Db, ids: Keys<number>) {
  return (
    db
      .selectFrom('vehicles as v')
      .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
      .select([
        'v.id',
        'v.vin',
        'v.year',
        'v.color',
        'v.odometer',
        'v.rack_rate',
        'v.battery_type',
        'v.model_id',
        'm.name as model_name',
        'm.slug as model_slug',
        'm.type as model_type',
        'm.seating_capacity',
        'm.drivetrain',
        'm.mile_range',
        'm.zero_to_sixty_mph_seconds',
        'm.top_speed_mph',
      ])
      // The model's photos in the car's colour, in the same round trip (decision 064); the car's
      // own photo of a view stands in for its drawing (decision 085).
      .select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('model_images as i')
            .leftJoin('car_photos as cp', (j) => j.onRef('cp.vehicle_id', '=', 'v.id').onRef('cp.view', '=', 'i.view'))
            .select((e) => ['i.view', e.fn.coalesce('cp.image_url', 'i.image_url').as('image_url')])
            .whereRef('i.model_id', '=', 'v.model_id')
            .whereRef('i.color', '=', 'v.color')
            .orderBy('i.position'),
        ).as('images'),
      )
      .where('v.id', 'in', ids)
  );
}

export function locationsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return locationsQuery(db, ids).execute();
}

function locationsQuery(db: Db, ids: Keys<number>) {
  return db
    .selectFrom('locations')
    .select([
      'id',
      'name',
      'street',
      'city',
      'state',
      'zip_code',
      'latitude',
      'longitude',
      'timezone',
      'pickup_instructions_html',
      'return_instructions_html',
      'tax_rate_ppm',
    ])
    .where('id', 'in', ids);
}

/** Line items with the provider intent ids of the payments they were settled by, and their add-on. */
export function transactionsFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return transactionsQuery(db, reservationIds).execute();
}

export function transactionsQuery(db: Db, reservationIds: Keys<string>) {
  return db
    .selectFrom('transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .leftJoin('payments as rp', 'rp.id', 't.reserve_applied_payment_id')
    .leftJoin('addons as a', 'a.id', 't.addon_id')
    .leftJoin('charges as ch', 'ch.id', 't.charge_id')
    .select([
      't.id',
      't.reservation_id',
      // A charge's administration fee names the charge it administers; its lines follow that charge's.
      'ch.administration_of',
      't.category',
      't.status',
      't.description',
      't.cost',
      't.amount',
      't.captured_amount',
      't.discount_amount',
      't.number_of_days',
      't.effective_date',
      't.initiated_at',
      't.released_at',
      't.card_last_4',
      't.created_at',
      't.addon_id',
      'p.provider_intent_id as payment_intent_id',
      'rp.provider_intent_id as reserve_applied_intent_id',
      'a.type as addon_type',
      'a.amount as addon_amount',
    ])
    .where('t.reservation_id', 'in', reservationIds)
    .orderBy('t.created_at')
    .orderBy('t.effective_date')
    .orderBy('t.id');
}

/** The trips' rides (decision 026): the car as it went out and came back. */
export function ridesFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return ridesQuery(db, reservationIds).execute();
}

const ridesQuery = (db: Db, reservationIds: Keys<string>) =>
  db.selectFrom('rides').selectAll().where('reservation_id', 'in', reservationIds);

/** Signed agreements, without the documents themselves. */
export function agreementsFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return agreementsQuery(db, reservationIds).execute();
}

const agreementsQuery = (db: Db, reservationIds: Keys<string>) =>
  db
    .selectFrom('agreements')
    .select(['id', 'reservation_id', 'type', 'signature', 'signed_on', 'rental_type', 'created_at'])
    .where('reservation_id', 'in', reservationIds)
    // The rental agreement first: the signature page signs it and the waiver at once.
    .orderBy(sql`type <> 'RENTAL_AGREEMENT'`)
    .orderBy('created_at');

export function insuranceQuery(db: Db, ids: Keys<string>, userIds: Keys<string>) {
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'reservation_id', 'user_id', 'status'])
    .select(insurancePassedByStaff('insurance_verifications.id').as('passed_by_staff'))
    .where((eb) =>
      eb.or([
        eb('reservation_id', 'in', ids),
        ...(userIds.length ? [eb.and([eb('reservation_id', 'is', null), eb('user_id', 'in', userIds)])] : []),
      ]),
    )
    .orderBy('created_at');
}

/** A connection staff let through counts as WAIVED (decision 094). */
export const withStaffPass = <R extends { status: string; passed_by_staff: boolean }>({
  passed_by_staff,
  ...r
}: R) => ({
  ...r,
  status: effectiveInsuranceStatus(r.status, passed_by_staff),
});

const lastCardsQuery = (db: Db, reservationIds: Keys<string>) =>
  db
    .selectFrom('payments')
    .select(['reservation_id', 'card_last_4', 'updated_at'])
    .where('reservation_id', 'in', reservationIds)
    .where('kind', '=', 'CHARGE')
    .where('status', '=', 'succeeded')
    .where('card_last_4', 'is not', null)
    .orderBy('updated_at', 'desc');

/** A row as it comes back inside a JSON sub-select: its times are ISO text, not Dates. */
export type AsJson<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** The parts of a trip view (below), each a JSON sub-select, selected by these keys. */
function partsColumns(
  db: Db,
  keys: { ids: Keys<string>; userIds: Keys<string>; vehicleIds: Keys<number>; locationIds: Keys<number> },
) {
  return [
    jsonArrayFrom(vehiclesQuery(db, keys.vehicleIds)).as('vehicles'),
    jsonArrayFrom(locationsQuery(db, keys.locationIds)).as('locations'),
    jsonArrayFrom(transactionsQuery(db, keys.ids)).as('transactions'),
    jsonArrayFrom(agreementsQuery(db, keys.ids)).as('agreements'),
    jsonArrayFrom(insuranceQuery(db, keys.ids, keys.userIds)).as('insurance'),
    jsonArrayFrom(lastCardsQuery(db, keys.ids)).as('cards'),
    jsonArrayFrom(liveKeyRowsQuery(db, keys.ids)).as('keys'),
    jsonArrayFrom(ridesQuery(db, keys.ids)).as('rides'),
  ];
}

/** The parts as the serializer takes them: the JSON rows' times typed as the ISO text they are. */
function shapeParts(parts: PartsColumns) {
  const json = <T>(list: T[]) => list as unknown as AsJson<T>[];
  return {
    vehicles: parts.vehicles,
    locations: parts.locations,
    transactions: json(parts.transactions),
    agreements: json(parts.agreements),
    insurance: parts.insurance.map(withStaffPass),
    cards: parts.cards,
    keys: json(parts.keys),
    rides: json(parts.rides),
  };
}

export type TripParts = ReturnType<typeof shapeParts>;

/**
 * Everything a trip view reads besides the reservation row, selected with the row (decision 101):
 * the car with its photos, the lots, the line items, the signed agreements, the insurance
 * connections, the last card, the live key and the ride, each a JSON sub-select keyed by the row
 * being selected (`reservations as r`). It used to be eight queries, then one after the row's;
 * now a trip view is one round trip. Times come back as ISO text; numbers and dates as the pool's
 * own parsers give them (bigint and numeric as numbers, a date as `YYYY-MM-DD`).
 */
const OWN_PARTS = {
  ids: [sql.ref<string>('r.id')],
  userIds: [sql.ref<string>('r.user_id')],
  vehicleIds: [sql.ref<number>('r.vehicle_id')],
  locationIds: [sql.ref<number>('r.pickup_location_id'), sql.ref<number>('r.dropoff_location_id')],
};

const tripByIdQuery = (db: Db, id: string) => reservationByIdQuery(db, id).select(partsColumns(db, OWN_PARTS));
type PartsColumns = Omit<InferResult<ReturnType<typeof tripByIdQuery>>[number], keyof ReservationRow>;

/** A reservation row and the parts of its trip view, as one statement returned them. */
export interface TripRow {
  row: ReservationRow;
  parts: TripParts;
}

function splitParts({
  vehicles,
  locations,
  transactions,
  agreements,
  insurance,
  cards,
  keys,
  rides,
  ...row
}: ReservationRow & PartsColumns): TripRow {
  return { row, parts: shapeParts({ vehicles, locations, transactions, agreements, insurance, cards, keys, rides }) };
}

// The trip view's statements are built and compiled once per process (decision 102, addendum): on
// every request that shows a trip, building their tree cost more of the API's time than running them.
// Its platform ids always two, so that its text stays the same (the same id twice when it came in upper case).
const tripByPlatformId = compiledOnce((db, userId: string, asGiven: string, upperCase: string) =>
  ownReservationQuery(db, userId, [asGiven, upperCase]).select(partsColumns(db, OWN_PARTS)),
);
const tripById = compiledOnce((db, id: string) => tripByIdQuery(db, id));

/** `findReservation` with the trip view's parts, in one statement. */
export async function findTrip(db: Db, userId: string, platformId: string): Promise<TripRow | undefined> {
  const [asGiven, upperCase = asGiven] = platformIdVariants(platformId) as [string, string?];
  const [found] = await tripByPlatformId(db, userId, asGiven, upperCase);
  return found && splitParts(found);
}

/** `findReservationById` with the trip view's parts, in one statement. */
export async function findTripById(db: Db, id: string): Promise<TripRow | undefined> {
  const [found] = await tripById(db, id);
  return found && splitParts(found);
}

/** `findTripById` as a transaction's last statement: what `transact` answers is `answer` of the trip. */
export function lastTripById<T>(db: Db, id: string, answer: (trip: TripRow | undefined) => T): LastStatement<T> {
  return lastStatement(tripById.compiled(db, id), ([found]) => answer(found && splitParts(found)));
}

/** The renter's reservations by pickup, each with its trip view's parts, in one statement. */
export async function listTrips(db: Db, userId: string): Promise<TripRow[]> {
  const found = await renterReservationsQuery(db, userId).select(partsColumns(db, OWN_PARTS)).execute();
  return found.map(splitParts);
}

export async function updateReservation(
  trx: Transaction<Database>,
  id: string,
  changes: { discount_code?: string | null; is_eligible?: boolean; eligibility_checked_at?: Date },
): Promise<void> {
  await trx.updateTable('reservations').set(changes).where('id', '=', id).execute();
}

/**
 * One of the renter's reservations by platform id, with what the soft credit check reads: the
 * answer it stored, if any, and the renter's name (`renter_id` null when the account is gone).
 */
export function findEligibilityFacts(db: Db, userId: string, platformId: string) {
  return db
    .selectFrom('reservations as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.is_eligible', 'r.eligibility_checked_at', 'u.id as renter_id', 'u.first_name', 'u.last_name'])
    .where('r.user_id', '=', userId)
    .where('r.platform_id', 'in', platformIdVariants(platformId))
    .executeTakeFirst();
}

/**
 * Stores the soft credit check's answer unless one is stored already, in one statement; the row
 * lock the update takes makes the first answer stored the trip's for good. The answer stored:
 * undefined when another check stored one first.
 */
export async function recordEligibilityIfNone(
  db: Db,
  id: string,
  isEligible: boolean,
  now: Date,
): Promise<boolean | undefined> {
  const row = await db
    .updateTable('reservations')
    .set({ is_eligible: isEligible, eligibility_checked_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('eligibility_checked_at', 'is', null), eb('is_eligible', 'is', null)]))
    .returning('is_eligible')
    .executeTakeFirst();
  return row?.is_eligible ?? undefined;
}

/** The car's VIN, rate and model and the pickup location's tax rate, for changing a booking's line items. */
export function pricingFacts(db: Db, vehicleId: number, locationId: number) {
  return db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', (j) => j.on('l.id', '=', locationId))
    .select(['v.vin', 'v.rack_rate', 'v.model_id', 'l.tax_rate_ppm'])
    .where('v.id', '=', vehicleId)
    .executeTakeFirstOrThrow();
}
