import { type ExpressionBuilder, type Kysely, type Transaction, sql } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import {
  FAILED_INSURANCE_STATES,
  QUEUED_LICENSE_STATUSES,
  type ReviewDecision,
  type ReviewSubject,
} from '@ampere/domain/renter-review';
import type { Database } from '../../db/schema.ts';
import { insurancePassedByStaff, licenseOverrideOf } from './gates-repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Locations as trips carry them (integer ids), or every location. */
export type Scope = number[] | 'all';

/** Whether the renter has a trip picking up or returning at one of the locations (decision 094's scope). */
function renterInScope(scope: Scope, userIdColumn: string, openOnly: boolean) {
  return (eb: ExpressionBuilder<Database, keyof Database>) =>
    eb.exists(
      eb
        .selectFrom('reservations as sr')
        .select(sql`1`.as('one'))
        .where('sr.user_id', '=', eb.ref(userIdColumn as never))
        .$if(openOnly, (q) => q.where('sr.status', 'in', ACTIVE_RESERVATION_STATUSES))
        .$if(scope !== 'all', (q) =>
          q.where((w) =>
            w.or([
              w('sr.pickup_location_id', 'in', scope as number[]),
              w('sr.dropoff_location_id', 'in', scope as number[]),
            ]),
          ),
        ),
    );
}

const QUEUE_LIMIT = 200;

/**
 * License checks in the queue: each renter's newest decided check when it was declined or asked
 * for resubmission, not yet reviewed, for renters with an open trip at the locations.
 */
export function queuedLicenseChecks(db: Db, scope: Scope) {
  return db
    .selectFrom('identity_verifications as iv')
    .innerJoin('users as u', 'u.id', 'iv.user_id')
    .select([
      'iv.id',
      'iv.user_id',
      'iv.status',
      'iv.reason',
      'iv.decided_at',
      'iv.created_at',
      'u.first_name',
      'u.last_name',
      'u.phone',
    ])
    .where('iv.status', 'in', QUEUED_LICENSE_STATUSES)
    .where('iv.decided_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('identity_verifications as newer')
            .select(sql`1`.as('one'))
            .whereRef('newer.user_id', '=', 'iv.user_id')
            .where('newer.decided_at', 'is not', null)
            .where((n) =>
              n.or([
                n('newer.decided_at', '>', n.ref('iv.decided_at')),
                n.and([n('newer.decided_at', '=', n.ref('iv.decided_at')), n('newer.id', '>', n.ref('iv.id'))]),
              ]),
            ),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('verification_reviews as vr')
            .select(sql`1`.as('one'))
            .whereRef('vr.identity_verification_id', '=', 'iv.id'),
        ),
      ),
    )
    .where(renterInScope(scope, 'iv.user_id', true) as never)
    .orderBy('iv.decided_at')
    .limit(QUEUE_LIMIT)
    .execute();
}

/**
 * Insurance connections in the queue: in a failed state, not yet reviewed, of renters who have no
 * connection that counts (ACTIVE, WAIVED, or let through), with an open trip at the locations.
 */
export function queuedInsuranceConnections(db: Db, scope: Scope) {
  return db
    .selectFrom('insurance_verifications as iv')
    .innerJoin('users as u', 'u.id', 'iv.user_id')
    .select([
      'iv.id',
      'iv.user_id',
      'iv.status',
      'iv.last_error',
      'iv.carrier',
      'iv.created_at',
      'iv.updated_at',
      'u.first_name',
      'u.last_name',
      'u.phone',
    ])
    .where('iv.status', 'in', FAILED_INSURANCE_STATES)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('verification_reviews as vr')
            .select(sql`1`.as('one'))
            .whereRef('vr.insurance_verification_id', '=', 'iv.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('insurance_verifications as good')
            .select(sql`1`.as('one'))
            .whereRef('good.user_id', '=', 'iv.user_id')
            .where((g) =>
              g.or([g('good.status', 'in', ['ACTIVE', 'WAIVED']), g(insurancePassedByStaff('good.id'), '=', true)]),
            ),
        ),
      ),
    )
    .where(renterInScope(scope, 'iv.user_id', true) as never)
    .orderBy('iv.created_at')
    .limit(QUEUE_LIMIT)
    .execute();
}

/** The renters' next open trips at the locations (earliest pickup first). */
export function openTripsOf(db: Db, userIds: string[], scope: Scope) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('reservations as r')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .select(['r.id', 'r.user_id', 'r.platform_id', 'r.pickup_at', 'l.timezone', 'l.name as location_name'])
    .where('r.user_id', 'in', userIds)
    .where('r.status', 'in', ACTIVE_RESERVATION_STATUSES)
    .$if(scope !== 'all', (q) =>
      q.where((w) =>
        w.or([w('r.pickup_location_id', 'in', scope as number[]), w('r.dropoff_location_id', 'in', scope as number[])]),
      ),
    )
    .orderBy('r.pickup_at')
    .execute();
}

/** Whether the renter exists and has any trip at the locations. */
export async function renterVisible(db: Db, userId: string, scope: Scope): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where(renterInScope(scope, 'users.id', false) as never)
    .executeTakeFirst();
  return row !== undefined;
}

/** A check to review, locked until the transaction ends (two staff deciding at once: the second waits, then sees the first). */
export async function lockCheck(trx: Transaction<Database>, subject: ReviewSubject, checkId: string) {
  if (subject === 'license') {
    return trx
      .selectFrom('identity_verifications')
      .select(['id', 'user_id', 'status'])
      .where('id', '=', checkId)
      .forUpdate()
      .executeTakeFirst();
  }
  return trx
    .selectFrom('insurance_verifications')
    .select(['id', 'user_id', 'status'])
    .where('id', '=', checkId)
    .forUpdate()
    .executeTakeFirst();
}

/** Whether the check is the renter's newest decided license check (only that one can be let through). */
export async function isNewestLicenseCheck(db: Db, userId: string, checkId: string): Promise<boolean> {
  const newest = await db
    .selectFrom('identity_verifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('decided_at', 'is not', null)
    .orderBy('decided_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return newest?.id === checkId;
}

const REVIEW_COLUMNS = [
  'vr.id',
  'vr.user_id',
  'vr.subject',
  'vr.identity_verification_id',
  'vr.insurance_verification_id',
  'vr.provider_status',
  'vr.decision',
  'vr.reason',
  'vr.decided_at',
  's.name as decided_by_name',
] as const;

export function reviewOfCheck(db: Db, subject: ReviewSubject, checkId: string) {
  return db
    .selectFrom('verification_reviews as vr')
    .innerJoin('staff as s', 's.id', 'vr.decided_by')
    .select(REVIEW_COLUMNS)
    .where(subject === 'license' ? 'vr.identity_verification_id' : 'vr.insurance_verification_id', '=', checkId)
    .executeTakeFirst();
}
export type ReviewRow = NonNullable<Awaited<ReturnType<typeof reviewOfCheck>>>;

export function reviewsOfRenter(db: Db, userId: string) {
  return db
    .selectFrom('verification_reviews as vr')
    .innerJoin('staff as s', 's.id', 'vr.decided_by')
    .select(REVIEW_COLUMNS)
    .where('vr.user_id', '=', userId)
    .execute();
}

export async function insertReview(
  trx: Transaction<Database>,
  values: {
    userId: string;
    subject: ReviewSubject;
    checkId: string;
    providerStatus: string;
    decision: ReviewDecision;
    reason: string | null;
    staffId: string;
    now: Date;
  },
): Promise<string> {
  const row = await trx
    .insertInto('verification_reviews')
    .values({
      user_id: values.userId,
      subject: values.subject,
      identity_verification_id: values.subject === 'license' ? values.checkId : null,
      insurance_verification_id: values.subject === 'insurance' ? values.checkId : null,
      provider_status: values.providerStatus,
      decision: values.decision,
      reason: values.reason,
      decided_by: values.staffId,
      decided_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// ---- the renter page ----

export function renterProfile(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'first_name',
      'last_name',
      'phone',
      'email',
      'birthday',
      'city',
      'state',
      'created_at',
      'license_status',
      'license_name',
      'license_number',
      'license_expiration',
      licenseOverrideOf('users.id').as('license_override'),
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export function licenseChecksOf(db: Db, userId: string) {
  return db
    .selectFrom('identity_verifications')
    .select(['id', 'status', 'reason', 'created_at', 'decided_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

export function insuranceConnectionsOf(db: Db, userId: string) {
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'status', 'carrier', 'policy_number', 'last_error', 'created_at'])
    .select(insurancePassedByStaff('insurance_verifications.id').as('passed_by_staff'))
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

/** The renter's trips at the locations, newest pickup first. */
export function tripsOfRenter(db: Db, userId: string, scope: Scope) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('locations as l', 'l.id', 'r.pickup_location_id')
    .innerJoin('vehicles as v', 'v.id', 'r.vehicle_id')
    .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
    .select([
      'r.id',
      'r.platform_id',
      'r.status',
      'r.pickup_at',
      'r.return_at',
      'r.timezone',
      'l.name as location_name',
      'm.name as model',
      'v.vin',
    ])
    .where('r.user_id', '=', userId)
    .$if(scope !== 'all', (q) =>
      q.where((w) =>
        w.or([w('r.pickup_location_id', 'in', scope as number[]), w('r.dropoff_location_id', 'in', scope as number[])]),
      ),
    )
    .orderBy('r.pickup_at', 'desc')
    .limit(200)
    .execute();
}

export function messagesOfTrips(db: Db, tripIds: string[]) {
  if (tripIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('trip_messages as t')
    .innerJoin('reservations as r', 'r.id', 't.reservation_id')
    .select([
      't.id',
      'r.platform_id',
      't.channel',
      't.kind',
      't.to_address',
      't.subject',
      't.body',
      't.status',
      't.created_at',
      't.sent_at',
    ])
    .where('t.reservation_id', 'in', tripIds)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(200)
    .execute();
}

export function paymentsOfTrips(db: Db, tripIds: string[]) {
  if (tripIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('payments as p')
    .innerJoin('reservations as r', 'r.id', 'p.reservation_id')
    .select([
      'p.id',
      'r.platform_id',
      'p.kind',
      'p.status',
      'p.amount',
      'p.amount_captured',
      'p.amount_refunded',
      'p.card_last_4',
      'p.created_at',
    ])
    .where('p.reservation_id', 'in', tripIds)
    .orderBy('p.created_at', 'desc')
    .limit(200)
    .execute();
}

// ---- do not rent ----

const LISTING_COLUMNS = [
  'd.id',
  'd.user_id',
  'd.reason',
  'd.until',
  'd.listed_at',
  'd.lifted_at',
  'd.lift_reason',
  'u.first_name',
  'u.last_name',
  'u.phone',
  'lb.name as listed_by_name',
  'fb.name as lifted_by_name',
] as const;

function listings(db: Db) {
  return db
    .selectFrom('do_not_rent as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .innerJoin('staff as lb', 'lb.id', 'd.listed_by')
    .leftJoin('staff as fb', 'fb.id', 'd.lifted_by')
    .select(LISTING_COLUMNS);
}
export type ListingRow = Awaited<ReturnType<ReturnType<typeof listings>['execute']>>[number];

/** Listings nobody lifted (some may have expired: isListed decides), of renters with a trip at the locations. */
export function unliftedListings(db: Db, scope: Scope) {
  return listings(db)
    .where('d.lifted_at', 'is', null)
    .where(renterInScope(scope, 'd.user_id', false) as never)
    .orderBy('d.until')
    .limit(500)
    .execute();
}

export function listingsOfRenter(db: Db, userId: string) {
  return listings(db).where('d.user_id', '=', userId).orderBy('d.listed_at', 'desc').limit(50).execute();
}

/** The renter's listing not lifted (it may have expired), locked until the transaction ends. */
export function lockUnliftedListing(trx: Transaction<Database>, userId: string) {
  return unliftedListing(trx, userId, true);
}

/** The renter's listing nobody lifted, if any (isListed says whether it is still in force). */
export function unliftedListing(db: Db, userId: string, lock = false) {
  return db
    .selectFrom('do_not_rent')
    .select(['id', 'reason', 'until', 'lifted_at'])
    .where('user_id', '=', userId)
    .where('lifted_at', 'is', null)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function insertListing(
  trx: Transaction<Database>,
  values: { userId: string; reason: string; until: Date; staffId: string; now: Date },
): Promise<string> {
  const row = await trx
    .insertInto('do_not_rent')
    .values({
      user_id: values.userId,
      reason: values.reason,
      until: values.until,
      listed_by: values.staffId,
      listed_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function liftListing(
  trx: Transaction<Database>,
  id: string,
  values: { staffId: string; reason: string | null; now: Date },
): Promise<void> {
  await trx
    .updateTable('do_not_rent')
    .set({ lifted_at: values.now, lifted_by: values.staffId, lift_reason: values.reason })
    .where('id', '=', id)
    .execute();
}

export function listingById(db: Db, id: string) {
  return listings(db).where('d.id', '=', id).executeTakeFirstOrThrow();
}

/** The renter's newest trip at the locations (for a text that names no trip). */
export function latestTripOf(db: Db, userId: string, scope: Scope) {
  return db
    .selectFrom('reservations as r')
    .select(['r.id', 'r.platform_id', 'r.pickup_location_id', 'r.dropoff_location_id'])
    .where('r.user_id', '=', userId)
    .$if(scope !== 'all', (q) =>
      q.where((w) =>
        w.or([w('r.pickup_location_id', 'in', scope as number[]), w('r.dropoff_location_id', 'in', scope as number[])]),
      ),
    )
    .orderBy('r.pickup_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function tripOfRenter(db: Db, userId: string, tripId: string) {
  return db
    .selectFrom('reservations as r')
    .select(['r.id', 'r.platform_id', 'r.pickup_location_id', 'r.dropoff_location_id'])
    .where('r.user_id', '=', userId)
    .where('r.id', '=', tripId)
    .executeTakeFirst();
}
