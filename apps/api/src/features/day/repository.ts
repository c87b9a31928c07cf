import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { effectiveInsuranceStatus } from '@ampere/domain/renter-review';
import { insurancePassedByStaff, licenseOverrideOf } from '../renter-review/gates-repository.ts';

type From = Database & {
  r: Database['reservations'];
  v: Database['vehicles'];
  m: Database['vehicle_models'];
  u: Database['users'];
  l: Database['locations'];
};

const TRIP_COLUMNS = [
  'r.id',
  'r.platform_id',
  'r.status',
  'r.pickup_at',
  'r.return_at',
  'r.timezone',
  'r.user_id',
  'r.vehicle_id',
  'r.pickup_location_id',
  'r.dropoff_location_id',
  'r.created_at',
  'v.vin',
  'v.year',
  'v.color',
  'm.name as model_name',
  'u.first_name',
  'u.last_name',
  'u.phone',
  'u.email',
  'u.license_status',
  'u.license_number',
  'u.license_expiration',
  'l.name as location_name',
  'l.timezone as location_timezone',
] as const;

/** A trip with its car, renter and pickup place: what the board, the lookup and the timeline list. */
function trips(db: Kysely<Database>) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select([...TRIP_COLUMNS, licenseOverrideOf('r.user_id').as('license_override')]);
}
export type DayTripRow = Awaited<ReturnType<ReturnType<typeof trips>['execute']>>[number];

/** The board lists at most this many trips per section; a lot of 50 cars has far fewer. */
const SECTION_LIMIT = 500;

export function findLocation(db: Kysely<Database>, id: number) {
  return db.selectFrom('locations').select(['id', 'name', 'timezone']).where('id', '=', id).executeTakeFirst();
}

/** Trips picking up at the location in [from, to) that are booked, paid or under way. */
export function pickupsBetween(db: Kysely<Database>, locationId: number, from: Date, to: Date) {
  return trips(db)
    .where('r.pickup_location_id', '=', locationId)
    .where('r.pickup_at', '>=', from)
    .where('r.pickup_at', '<', to)
    .where('r.status', 'in', ['Started', 'Pending', 'On Rent'])
    .orderBy('r.pickup_at')
    .limit(SECTION_LIMIT)
    .execute();
}

/** Trips due back at the location in [from, to): out now, or already back. */
export function returnsBetween(db: Kysely<Database>, locationId: number, from: Date, to: Date) {
  return trips(db)
    .where('r.dropoff_location_id', '=', locationId)
    .where('r.return_at', '>=', from)
    .where('r.return_at', '<', to)
    .where('r.status', 'in', ['Pending', 'On Rent', 'Returned'])
    .orderBy('r.return_at')
    .limit(SECTION_LIMIT)
    .execute();
}

/** Trips still out that were due back at the location before `before`. */
export function overdueReturns(db: Kysely<Database>, locationId: number, before: Date) {
  return trips(db)
    .where('r.dropoff_location_id', '=', locationId)
    .where('r.return_at', '<', before)
    .where('r.status', '=', 'On Rent')
    .orderBy('r.return_at')
    .limit(SECTION_LIMIT)
    .execute();
}

/** The cars' last battery readings, as a fraction of a full battery (cars never read have none). */
export function batteryLevels(db: Kysely<Database>, vehicleIds: number[]) {
  if (vehicleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('simulated_cars')
    .select(['vehicle_id', 'battery_level'])
    .where('vehicle_id', 'in', vehicleIds)
    .execute();
}

/** The renters' insurance connections' states, for whether each is verified. */
export function insuranceStates(db: Kysely<Database>, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('insurance_verifications')
    .select(['user_id', 'status'])
    .select(insurancePassedByStaff('insurance_verifications.id').as('passed_by_staff'))
    .where('user_id', 'in', userIds)
    .execute()
    .then((rows) =>
      rows.map(({ passed_by_staff, ...r }) => ({ ...r, status: effectiveInsuranceStatus(r.status, passed_by_staff) })),
    );
}

type Scope = number[] | 'all';

function inLocations(scope: Scope) {
  return (eb: ExpressionBuilder<From, 'r'>) =>
    scope === 'all'
      ? eb.lit(true)
      : eb.or([eb('r.pickup_location_id', 'in', scope), eb('r.dropoff_location_id', 'in', scope)]);
}

const LOOKUP_LIMIT = 50;

function lookup(
  db: Kysely<Database>,
  scope: Scope,
  where: (q: SelectQueryBuilder<From, 'r' | 'v' | 'm' | 'l' | 'u', DayTripRow>) => typeof q,
) {
  if (scope !== 'all' && scope.length === 0) return Promise.resolve([]);
  return where(trips(db) as unknown as SelectQueryBuilder<From, 'r' | 'v' | 'm' | 'l' | 'u', DayTripRow>)
    .where(inLocations(scope))
    .orderBy('r.pickup_at', 'desc')
    .limit(LOOKUP_LIMIT)
    .execute();
}

/** Trips by id (a UUID) or reference (platform id), exactly. */
export function tripsByIdOrReference(db: Kysely<Database>, scope: Scope, text: string) {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
  return lookup(db, scope, (q) =>
    q.where((eb) =>
      eb.or([
        ...(isUuid ? [eb('r.id', '=', text.toLowerCase())] : []),
        eb(sql<string>`upper(r.platform_id)`, '=', text.toUpperCase()),
      ]),
    ),
  );
}

export function tripsByPhone(db: Kysely<Database>, scope: Scope, e164: string) {
  return lookup(db, scope, (q) => q.where('u.phone', '=', e164));
}

/** Trips by the renter's email: the whole address, or its start. */
export function tripsByEmail(db: Kysely<Database>, scope: Scope, text: string) {
  const prefix = `${escapeLike(text.toLowerCase())}%`;
  return lookup(db, scope, (q) => q.where(sql<boolean>`lower(u.email) like ${prefix}`));
}

/** Trips of cars whose VIN starts or ends with the text (a whole VIN matches both). */
export function tripsByVin(db: Kysely<Database>, scope: Scope, text: string) {
  const vin = escapeLike(text.toUpperCase());
  const reversed = escapeLike([...text.toUpperCase()].reverse().join(''));
  return lookup(db, scope, (q) =>
    q.where((eb) => eb.or([eb('v.vin', 'like', `${vin}%`), eb(sql<string>`reverse(v.vin)`, 'like', `${reversed}%`)])),
  );
}

/** Trips of cars whose VIN holds the text anywhere: a scan of the cars, for when neither end matched. */
export function tripsByVinPart(db: Kysely<Database>, scope: Scope, text: string) {
  return lookup(db, scope, (q) => q.where('v.vin', 'like', `%${escapeLike(text.toUpperCase())}%`));
}

/**
 * Trips by the renter's name: one word matches the start of a first or last name; two or more,
 * the first word the first name's start and the last word the last name's start.
 */
export function tripsByName(db: Kysely<Database>, scope: Scope, text: string) {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean).map(escapeLike);
  if (words.length === 0) return Promise.resolve([]);
  const first = `${words[0]}%`;
  const last = `${words.at(-1)}%`;
  return lookup(db, scope, (q) =>
    words.length === 1
      ? q.where((eb) =>
          eb.or([
            eb(sql<string>`lower(u.first_name)`, 'like', first),
            eb(sql<string>`lower(u.last_name)`, 'like', first),
          ]),
        )
      : q.where(sql<string>`lower(u.first_name)`, 'like', first).where(sql<string>`lower(u.last_name)`, 'like', last),
  );
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One trip by id or reference, for its timeline. */
export function tripForTimeline(db: Kysely<Database>, idOrReference: string) {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrReference);
  return trips(db)
    .select([
      'r.confirmed_at',
      'r.canceled_at',
      'r.cancel_reason',
      'r.on_rent_at',
      'r.returned_at',
      'r.late_flagged_at',
      'r.change_requested_at',
      'r.requested_pickup_at',
      'r.requested_return_at',
      'r.dates_changed_at',
      'r.changed_from_pickup_at',
      'r.changed_from_return_at',
    ])
    .where((eb) =>
      isUuid
        ? eb('r.id', '=', idOrReference.toLowerCase())
        : eb(sql<string>`upper(r.platform_id)`, '=', idOrReference.toUpperCase()),
    )
    .executeTakeFirst();
}

/** Everything recorded about a trip, each kind in its own read, all at once. */
export async function timelineParts(
  db: Kysely<Database>,
  trip: { id: string; platform_id: string; user_id: string | null },
) {
  const [payments, refunds, lines, keys, commands, ride, messages, identity, insurance, staff, notes, inspections] =
    await Promise.all([
      db
        .selectFrom('payments')
        .select(['id', 'kind', 'amount', 'status', 'card_last_4', 'amount_captured', 'amount_refunded', 'created_at'])
        .where('reservation_id', '=', trip.id)
        .execute(),
      db
        .selectFrom('payment_refunds')
        .select(['amount', 'reason', 'created_at', 'refunded_at'])
        .where('reservation_id', '=', trip.id)
        .execute(),
      db
        .selectFrom('transactions')
        .select(['category', 'description', 'amount', 'status', 'initiated_at'])
        .where('reservation_id', '=', trip.id)
        .where('category', 'not in', ['Rack', 'Tax', 'Deposit'])
        .execute(),
      db
        .selectFrom('digital_keys')
        .select(['id', 'status', 'valid_from', 'valid_until', 'created_at', 'revoked_at'])
        .where('reservation_id', '=', trip.id)
        .execute(),
      db
        .selectFrom('car_commands as c')
        .innerJoin('digital_keys as k', 'k.id', 'c.key_id')
        .select(['c.command', 'c.result', 'c.created_at'])
        .where('k.reservation_id', '=', trip.id)
        .execute(),
      db
        .selectFrom('rides')
        .select(['mileage_out', 'battery_out', 'vehicle_pickup_at', 'mileage_in', 'battery_in', 'vehicle_return_at'])
        .where('reservation_id', '=', trip.id)
        .executeTakeFirst(),
      db
        .selectFrom('trip_messages')
        .select(['channel', 'kind', 'status', 'subject', 'created_at', 'sent_at'])
        .where('reservation_id', '=', trip.id)
        .execute(),
      trip.user_id
        ? db
            .selectFrom('identity_verifications')
            .select(['status', 'reason', 'created_at', 'decided_at', 'reservation_id'])
            .where('user_id', '=', trip.user_id)
            .execute()
        : [],
      trip.user_id
        ? db
            .selectFrom('insurance_verifications')
            .select(['status', 'carrier', 'created_at', 'reservation_id'])
            .where('user_id', '=', trip.user_id)
            .execute()
        : [],
      db
        .selectFrom('audit_log as a')
        .leftJoin('staff as s', 's.id', 'a.staff_id')
        .select(['a.at', 'a.action', 'a.outcome', 'a.staff_role', 's.name as staff_name', 'a.reason', 'a.after'])
        .where('a.target_type', '=', 'trip')
        .where('a.target_id', 'in', [trip.id, trip.platform_id])
        .where('a.outcome', '=', 'success')
        // What staff did to the trip, not who looked at it.
        .where('a.action', 'not in', ['trips.read', 'today.read'])
        .execute(),
      db
        .selectFrom('support_notes')
        .select(['title', 'detail', 'created_at', 'resolved_at'])
        .where('reservation_id', '=', trip.id)
        .execute(),
      inspectionEvents(db, trip.id),
    ]);
  return { payments, refunds, lines, keys, commands, ride, messages, identity, insurance, staff, notes, inspections };
}

/** A trip's inspections (decision 089): when each started and was completed, and the renter's photos added to it. */
function inspectionEvents(db: Kysely<Database>, reservationId: string) {
  return db
    .selectFrom('inspections as i')
    .leftJoin('staff as s', 's.id', 'i.completed_by')
    .select((eb) => [
      'i.stage',
      'i.started_at',
      'i.completed_at',
      's.name as completed_by_name',
      eb
        .selectFrom('inspection_damage as d')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('d.inspection_id', '=', 'i.id')
        .as('damage'),
      eb
        .selectFrom('inspection_photos as p')
        .select((e) => e.fn.max('p.taken_at').as('at'))
        .whereRef('p.inspection_id', '=', 'i.id')
        .where('p.taken_by', '=', 'renter')
        .as('renter_last_at'),
      eb
        .selectFrom('inspection_photos as p')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('p.inspection_id', '=', 'i.id')
        .where('p.taken_by', '=', 'renter')
        .as('renter_photos'),
    ])
    .where('i.reservation_id', '=', reservationId)
    .execute();
}

/** A trip's charge disputes and staff refunds (decisions 091 and 093), for its timeline. */
export async function moneyTimelineParts(db: Kysely<Database>, tripId: string) {
  const [disputes, refunds] = await Promise.all([
    db
      .selectFrom('charge_disputes as d')
      .innerJoin('charges as c', 'c.id', 'd.charge_id')
      .select(['c.fee_type', 'c.amount', 'd.renter_text', 'd.opened_at', 'd.outcome', 'd.staff_reason', 'd.decided_at'])
      .where('c.reservation_id', '=', tripId)
      .execute(),
    db
      .selectFrom('refunds')
      .select(['amount', 'reason', 'created_at'])
      .where('reservation_id', '=', tripId)
      .where('provider_refund_id', 'is not', null)
      .execute(),
  ]);
  return { disputes, refunds };
}
