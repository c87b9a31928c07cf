import { type Kysely, type Transaction, sql } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import { blockedUntil } from '@ampere/domain/availability';
import { BEFORE_PICKUP_STATUSES, type LineItem } from '@ampere/domain/booking';
import { HELD_FROM } from '../../db/reservation-holds.ts';
import type { Database } from '../../db/schema.ts';
import { LOCATION_BUFFER_HOURS } from '../locations/repository.ts';
import type { Color } from '@ampere/domain/constants';

export type Db = Kysely<Database> | Transaction<Database>;

const RESERVATION_COLUMNS = [
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
const holdsOverlap = (from: Date, to: Date) =>
  sql<boolean>`tstzrange(least(pickup_at, requested_pickup_at), blocked_until, '[)') && tstzrange(${from}, ${blockedUntil(to)}, '[)')`;

/** What booking needs to know of a car: its price, its home location and that location's zone and tax. */
export function findBookableVehicle(db: Db, vin: string) {
  return db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select([
      'v.id as vehicle_id',
      'v.vin',
      'v.model_id',
      'v.rack_rate',
      'v.is_self_serve_booking_allowed',
      'v.location_id',
      'l.name as location_name',
      'l.region_id',
      'l.timezone',
      'l.tax_rate_ppm',
    ])
    .where('v.vin', '=', vin.toUpperCase())
    .executeTakeFirst();
}

/**
 * Locks the car's row (FOR NO KEY UPDATE: foreign-key checks of other rows referencing it are not
 * blocked) until the transaction ends, so that bookings of one car run one after the other (see
 * `book` in the service).
 */
export async function lockVehicle(trx: Transaction<Database>, vehicleId: number): Promise<void> {
  await trx.selectFrom('vehicles').select('id').where('id', '=', vehicleId).forNoKeyUpdate().execute();
}

/** The pickup buffer of a location (LOCATION_BUFFER_HOURS: its lot's, else its city's; null for the default). */
export async function bufferHoursFor(db: Db, locationId: number): Promise<number | null> {
  const row = await db
    .selectFrom('locations')
    .select(LOCATION_BUFFER_HOURS)
    .where('locations.id', '=', locationId)
    .executeTakeFirst();
  return row?.min_reservation_buffer_hours ?? null;
}

/**
 * The renter's own unpaid (Started) bookings of this car overlapping the period, with no payment
 * under way or made: a new booking replaces them (decision 012), so starting over is not refused
 * by the renter's own abandoned attempt.
 */
export async function supersedeAbandonedBookings(
  trx: Transaction<Database>,
  userId: string,
  vehicleId: number,
  from: Date,
  to: Date,
  now: Date,
): Promise<string[]> {
  const rows = await trx
    .updateTable('reservations')
    .set({ status: 'Canceled', canceled_at: now, cancel_reason: 'replaced' })
    .where('user_id', '=', userId)
    .where('vehicle_id', '=', vehicleId)
    .where('status', '=', 'Started')
    .where(holdsOverlap(from, to))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('payments as p')
            .select('p.id')
            .whereRef('p.reservation_id', '=', 'reservations.id')
            .where('p.status', 'in', ['succeeded', 'processing', 'requires_capture', 'requires_action']),
        ),
      ),
    )
    .returning('id')
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length > 0)
    await trx
      .updateTable('transactions')
      .set({ status: 'Canceled' })
      .where('reservation_id', 'in', ids)
      .where('status', '=', 'Pending')
      .execute();
  return ids;
}

export interface NewReservation {
  platform_id: string;
  vehicle_id: number;
  user_id: string;
  pickup_at: Date;
  return_at: Date;
  timezone: string;
  location_id: number;
  gclid: string | null;
  /** The server's clock, not the database's: a moved development clock books at its own time. */
  created_at: Date;
}

export function insertReservation(trx: Transaction<Database>, r: NewReservation) {
  return trx
    .insertInto('reservations')
    .values({
      platform_id: r.platform_id,
      vehicle_id: r.vehicle_id,
      user_id: r.user_id,
      status: 'Started',
      pickup_at: r.pickup_at,
      return_at: r.return_at,
      blocked_until: blockedUntil(r.return_at),
      timezone: r.timezone,
      pickup_location_id: r.location_id,
      dropoff_location_id: r.location_id,
      gclid: r.gclid,
      created_at: r.created_at,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/** Writes line items as Pending transactions. */
export async function insertLineItems(
  trx: Transaction<Database>,
  reservationId: string,
  items: readonly LineItem[],
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  await trx
    .insertInto('transactions')
    .values(
      items.map((i) => ({
        reservation_id: reservationId,
        category: i.category,
        status: 'Pending',
        description: i.description,
        cost: i.cost,
        amount: i.amount,
        discount_amount: i.discount_amount,
        number_of_days: i.number_of_days,
        effective_date: i.effective_date,
        initiated_at: now,
        created_at: now,
        released_at: null,
        card_last_4: null,
        payment_id: null,
        reserve_applied_payment_id: null,
        addon_id: i.addon_id,
      })),
    )
    .execute();
}

/** Overlapping reservations that hold the car, optionally leaving one out (a trip being modified). */
export function overlappingReservations(db: Db, vehicleId: number, from: Date, to: Date, exceptPlatformId?: string) {
  let q = db
    .selectFrom('reservations')
    .select([HELD_FROM.as('pickup_at'), sql<Date>`greatest(return_at, requested_return_at)`.as('return_at')])
    .where('vehicle_id', '=', vehicleId)
    .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
    .where(holdsOverlap(from, to));
  if (exceptPlatformId) q = q.where('platform_id', '!=', exceptPlatformId);
  return q.orderBy('pickup_at').execute();
}

/** Platform ids are written uppercase; a lowercase copy from a URL still finds the trip. */
const platformIdVariants = (platformId: string) => [...new Set([platformId, platformId.toUpperCase()])];

export type ReservationRow = NonNullable<Awaited<ReturnType<typeof findReservation>>>;

/** One of the renter's reservations by platform id; another renter's is not found. */
export function findReservation(db: Db, userId: string, platformId: string, opts: { lock?: boolean } = {}) {
  let q = db
    .selectFrom('reservations as r')
    .select(RESERVATION_COLUMNS)
    .where('r.user_id', '=', userId)
    .where('r.platform_id', 'in', platformIdVariants(platformId));
  if (opts.lock) q = q.forUpdate();
  return q.executeTakeFirst();
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

export function findReservationById(db: Db, id: string, opts: { lock?: boolean } = {}) {
  const q = db.selectFrom('reservations as r').select(RESERVATION_COLUMNS).where('r.id', '=', id);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst();
}

export function listReservations(db: Db, userId: string) {
  return db
    .selectFrom('reservations as r')
    .select(RESERVATION_COLUMNS)
    .where('r.user_id', '=', userId)
    .orderBy('r.pickup_at')
    .execute();
}

export function vehiclesByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
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
    .where('v.id', 'in', ids)
    .execute();
}

export function imagesFor(db: Db, pairs: { modelId: number; color: Color }[]) {
  if (pairs.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('model_images')
    .select(['model_id', 'color', 'view', 'image_url'])
    .where((eb) => eb.or(pairs.map((p) => eb.and([eb('model_id', '=', p.modelId), eb('color', '=', p.color)]))))
    .orderBy('position')
    .execute();
}

export function locationsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
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
    .where('id', 'in', ids)
    .execute();
}

/** Line items with the provider intent ids of the payments they were settled by, and their add-on. */
export function transactionsFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('transactions as t')
    .leftJoin('payments as p', 'p.id', 't.payment_id')
    .leftJoin('payments as rp', 'rp.id', 't.reserve_applied_payment_id')
    .leftJoin('addons as a', 'a.id', 't.addon_id')
    .select([
      't.id',
      't.reservation_id',
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
    .orderBy('t.id')
    .execute();
}

/** The trips' rides (decision 026): the car as it went out and came back. */
export function ridesFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('rides').selectAll().where('reservation_id', 'in', reservationIds).execute();
}

/** Signed agreements, without the documents themselves. */
export function agreementsFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('agreements')
    .select(['id', 'reservation_id', 'type', 'signature', 'signed_on', 'rental_type', 'created_at'])
    .where('reservation_id', 'in', reservationIds)
    .orderBy('created_at')
    .execute();
}

/**
 * The insurance connections that count for each trip: those made for it, and the renter's own
 * made outside any trip (onboarding) — a policy is the renter's, not the car's (decision 022).
 */
export function insuranceVerificationsFor(db: Db, trips: readonly { id: string; user_id: string | null }[]) {
  const ids = trips.map((t) => t.id);
  const userIds = [...new Set(trips.map((t) => t.user_id).filter((u): u is string => u !== null))];
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'reservation_id', 'user_id', 'status'])
    .where((eb) =>
      eb.or([
        eb('reservation_id', 'in', ids),
        ...(userIds.length ? [eb.and([eb('reservation_id', 'is', null), eb('user_id', 'in', userIds)])] : []),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

/** The card of each reservation's latest successful charge. */
export function lastCardsFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('payments')
    .select(['reservation_id', 'card_last_4', 'updated_at'])
    .where('reservation_id', 'in', reservationIds)
    .where('kind', '=', 'CHARGE')
    .where('status', '=', 'succeeded')
    .where('card_last_4', 'is not', null)
    .orderBy('updated_at', 'desc')
    .execute();
}

/** The server secret digital-key tokens are derived from (made by migration 0004). */
export async function digitalKeySecret(db: Db): Promise<Buffer> {
  const { rows } = await sql<{ value: Uint8Array }>`select value from app_secrets where name = 'digital-key'`.execute(
    db,
  );
  if (!rows[0]) throw new Error('app_secrets has no digital-key row; migration 0004 makes it');
  return Buffer.from(rows[0].value);
}

// --- changing a booking's line items ------------------------------------------------------------

export function pendingAndPaidAddonRows(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'addon_id', 'status'])
    .where('reservation_id', '=', reservationId)
    .where('category', '=', 'Addon')
    .where('status', 'not in', ['Canceled', 'Failed', 'Refunded'])
    .execute();
}

export async function cancelTransactions(trx: Transaction<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('transactions')
    .set({ status: 'Canceled' })
    .where('id', 'in', ids)
    .where('status', '=', 'Pending')
    .execute();
}

/** Every Pending row of a reservation, for recomputing its tax and discounts. */
export function pendingRows(trx: Transaction<Database>, reservationId: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'category', 'status', 'cost', 'amount', 'discount_amount', 'effective_date', 'description'])
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'Pending')
    .execute();
}

export async function setDiscountAmounts(
  trx: Transaction<Database>,
  changes: { id: string; discount_amount: number }[],
): Promise<void> {
  for (const c of changes)
    await trx.updateTable('transactions').set({ discount_amount: c.discount_amount }).where('id', '=', c.id).execute();
}

export async function updateReservation(
  trx: Transaction<Database>,
  id: string,
  changes: { discount_code?: string | null; is_eligible?: boolean; eligibility_checked_at?: Date },
): Promise<void> {
  await trx.updateTable('reservations').set(changes).where('id', '=', id).execute();
}

/**
 * Whether the renter has another trip they paid for: booked and confirmed, whatever happened next,
 * or still held with its charge settled and its deposit not yet secured (decision 052).
 */
export async function hasEarlierPaidTrip(db: Db, userId: string, exceptReservationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reservations as r')
    .select('r.id')
    .where('r.user_id', '=', userId)
    .where('r.id', '!=', exceptReservationId)
    .where((eb) =>
      eb.or([
        eb('r.status', 'in', ['Pending', 'On Rent', 'Returned']),
        eb('r.confirmed_at', 'is not', null),
        eb.and([
          eb('r.status', '=', 'Started'),
          eb.exists(
            eb
              .selectFrom('transactions as t')
              .select('t.id')
              .whereRef('t.reservation_id', '=', 'r.id')
              .where('t.category', '!=', 'Deposit')
              .where('t.status', '=', 'Successful'),
          ),
        ]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The car's VIN and the pickup location's tax rate, for changing a booking's line items. */
export function pricingFacts(db: Db, vehicleId: number, locationId: number) {
  return db
    .selectFrom('vehicles as v')
    .innerJoin('locations as l', (j) => j.on('l.id', '=', locationId))
    .select(['v.vin', 'v.rack_rate', 'l.tax_rate_ppm'])
    .where('v.id', '=', vehicleId)
    .executeTakeFirstOrThrow();
}

export function activeFeeRows(trx: Transaction<Database>, reservationId: string, description: string) {
  return trx
    .selectFrom('transactions')
    .select(['id', 'status'])
    .where('reservation_id', '=', reservationId)
    .where('category', '=', 'Additional')
    .where('description', '=', description)
    .where('status', 'not in', ['Canceled', 'Failed', 'Refunded'])
    .execute();
}
