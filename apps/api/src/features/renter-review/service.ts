import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  DoNotRentBody,
  DoNotRentListing,
  LiftBody,
  RenterPage,
  Review,
  ReviewBody,
  ReviewQueue,
  StaffTextBody,
} from '@ampere/domain/contract/ops-renters';
import {
  type ReviewSubject,
  decisionPasses,
  effectiveInsuranceStatus,
  isListed,
  listingProblem,
  reasonProblem,
  reviewProblem,
  reviewReason,
  staffTextProblem,
} from '@ampere/domain/renter-review';
import { insuranceVerificationRequired, licenseVerificationStatus } from '@ampere/domain/verification';
import type { Database } from '../../db/schema.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import type { MessageRecorder } from '../messages/record.ts';
import * as repo from './repository.ts';

export interface RenterReviewDeps {
  db: Kysely<Database>;
  /** Runs after a decision lets a renter through: the digital keys now due are issued (the trips door). */
  afterVerification: (userId: string) => Promise<void>;
  /** The renter's messages: a staff text is recorded and sent with them. */
  messages: MessageRecorder;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const fullName = (r: { first_name: string | null; last_name: string | null }) =>
  [r.first_name, r.last_name].filter(Boolean).join(' ') || 'Renter without a name';

/** The locations the staff member works at, as trips carry them; the owner's are all of them. */
export function scopeOf(ops: Pick<OpsContext, 'staff'>): repo.Scope {
  const ids = ops.staff.locationIds;
  if (ops.staff.role === 'owner' || ids === 'all') return 'all';
  return ids.filter((id) => /^\d{1,9}$/.test(id)).map(Number);
}

const noRenter = (renterId: string) => notFound(`No renter ${renterId} at your locations.`, 'renterId');

/** A renter the staff member may see: one with a trip picking up or returning at their locations (decision 094). */
async function requireRenter(db: Kysely<Database>, ops: OpsContext, renterId: string): Promise<void> {
  if (!(await repo.renterVisible(db, renterId, scopeOf(ops)))) throw noRenter(renterId);
}

// ---- the queue and decisions ----

/** GET /renters/review-queue: license checks and insurance connections that did not pass, oldest first. */
export async function reviewQueue(db: Kysely<Database>, ops: OpsContext): Promise<ReviewQueue> {
  const scope = scopeOf(ops);
  const [licenses, insurance] = await Promise.all([
    repo.queuedLicenseChecks(db, scope),
    repo.queuedInsuranceConnections(db, scope),
  ]);
  const userIds = [...new Set([...licenses, ...insurance].map((r) => r.user_id))];
  const next = new Map<string, Awaited<ReturnType<typeof repo.openTripsOf>>[number]>();
  for (const t of await repo.openTripsOf(db, userIds, scope))
    if (t.user_id && !next.has(t.user_id)) next.set(t.user_id, t);
  const tripOf = (userId: string) => {
    const t = next.get(userId);
    return t
      ? {
          tripId: t.id,
          reference: t.platform_id,
          pickupAt: iso(t.pickup_at),
          timezone: t.timezone,
          locationName: t.location_name,
        }
      : null;
  };
  const items: ReviewQueue['items'] = [
    ...licenses.map((r) => ({
      subject: 'license' as const,
      checkId: r.id,
      why: reviewReason('license', r.status)!,
      providerStatus: r.status,
      providerReason: r.reason,
      carrier: null,
      checkedAt: iso(r.decided_at ?? r.created_at),
      renter: { id: r.user_id, name: fullName(r), phone: r.phone },
      nextTrip: tripOf(r.user_id),
    })),
    ...insurance.map((r) => ({
      subject: 'insurance' as const,
      checkId: r.id,
      why: reviewReason('insurance', r.status)!,
      providerStatus: r.status,
      providerReason: r.last_error,
      carrier: r.carrier,
      checkedAt: iso(r.updated_at ?? r.created_at),
      renter: { id: r.user_id, name: fullName(r), phone: r.phone },
      nextTrip: tripOf(r.user_id),
    })),
  ];
  items.sort((a, b) => a.checkedAt.localeCompare(b.checkedAt));
  return { items };
}

function toReview(r: repo.ReviewRow): Review {
  return {
    id: r.id,
    subject: r.subject,
    checkId: (r.identity_verification_id ?? r.insurance_verification_id)!,
    providerStatus: r.provider_status,
    decision: r.decision,
    reason: r.reason,
    decidedAt: iso(r.decided_at),
    decidedBy: r.decided_by_name,
  };
}

const CHECK_NAMES: Record<ReviewSubject, string> = { license: 'license check', insurance: 'insurance connection' };

/**
 * POST /renters/checks/:subject/:checkId/review: approve a flagged check, override a failed one
 * (reason required), or uphold it. The check keeps the provider's result; the decision is a record
 * beside it that the gates read, audited in the same transaction. A decision that lets the renter
 * through issues the keys now due, after commit.
 */
export async function decideCheck(
  deps: RenterReviewDeps,
  ops: OpsContext,
  subject: ReviewSubject,
  checkId: string,
  body: ReviewBody,
): Promise<Review> {
  const missing = notFound(`No ${CHECK_NAMES[subject]} ${checkId} at your locations.`, 'checkId');
  const result = await transact(deps.db, async (trx) => {
    const check = await repo.lockCheck(trx, subject, checkId);
    if (!check || !(await repo.renterVisible(trx, check.user_id, scopeOf(ops)))) throw missing;
    const done = await repo.reviewOfCheck(trx, subject, checkId);
    if (done)
      throw new AppError(
        'CONFLICT',
        `This ${CHECK_NAMES[subject]} was already reviewed: ${done.decision} by ${done.decided_by_name}.`,
      );
    const why = reviewReason(subject, check.status);
    if (!why)
      throw new AppError('CONFLICT', `This ${CHECK_NAMES[subject]} passed (${check.status}): nothing to review.`);
    if (subject === 'license' && !(await repo.isNewestLicenseCheck(trx, check.user_id, check.id)))
      throw new AppError('CONFLICT', 'A newer license check replaced this one: review that one instead.');
    const problem = reviewProblem(why, body.decision, body.reason);
    if (problem) throw unprocessable(problem.message, problem.field);
    const reason = body.reason?.trim() || null;
    await repo.insertReview(trx, {
      userId: check.user_id,
      subject,
      checkId,
      providerStatus: check.status,
      decision: body.decision,
      reason,
      staffId: ops.staff.id,
      now: ops.now,
    });
    await ops.audit(trx, {
      target: { type: subject === 'license' ? 'license_check' : 'insurance_connection', id: checkId },
      before: { renterId: check.user_id, status: check.status, why },
      after: { decision: body.decision, reason },
    });
    if (decisionPasses(body.decision)) await afterCommit(trx, () => deps.afterVerification(check.user_id));
    return toReview((await repo.reviewOfCheck(trx, subject, checkId))!);
  });
  return result;
}

// ---- the renter page ----

function toListing(r: repo.ListingRow, now: Date): DoNotRentListing {
  return {
    id: r.id,
    renter: { id: r.user_id, name: fullName(r), phone: r.phone },
    reason: r.reason,
    until: iso(r.until),
    listedAt: iso(r.listed_at),
    listedBy: r.listed_by_name,
    liftedAt: r.lifted_at ? iso(r.lifted_at) : null,
    liftedBy: r.lifted_by_name,
    liftReason: r.lift_reason,
    live: isListed(r, now),
  };
}

/** GET /renters/:renterId: the renter's profile basics, checks with their reviews, trips here, messages, charges and listings. */
export async function renterPage(db: Kysely<Database>, ops: OpsContext, renterId: string): Promise<RenterPage> {
  await requireRenter(db, ops, renterId);
  const scope = scopeOf(ops);
  const [profile, checks, connections, reviews, trips, listings] = await Promise.all([
    repo.renterProfile(db, renterId),
    repo.licenseChecksOf(db, renterId),
    repo.insuranceConnectionsOf(db, renterId),
    repo.reviewsOfRenter(db, renterId),
    repo.tripsOfRenter(db, renterId, scope),
    repo.listingsOfRenter(db, renterId),
  ]);
  if (!profile) throw noRenter(renterId);
  const tripIds = trips.map((t) => t.id);
  const [messages, payments] = await Promise.all([
    repo.messagesOfTrips(db, tripIds),
    repo.paymentsOfTrips(db, tripIds),
  ]);
  const reviewOf = (id: string) => {
    const r = reviews.find((v) => v.identity_verification_id === id || v.insurance_verification_id === id);
    return r ? toReview(r) : null;
  };
  const effective = connections.map((c) => ({ status: effectiveInsuranceStatus(c.status, c.passed_by_staff) }));
  return {
    renter: {
      id: profile.id,
      name: fullName(profile),
      phone: profile.phone,
      email: profile.email,
      birthday: profile.birthday,
      city: profile.city,
      state: profile.state,
      createdAt: iso(profile.created_at),
    },
    license: {
      status: profile.license_status,
      name: profile.license_name,
      expiration: profile.license_expiration,
      override: profile.license_override,
      verification: licenseVerificationStatus(profile),
      checks: checks.map((c) => ({
        id: c.id,
        status: c.status,
        reason: c.reason,
        createdAt: iso(c.created_at),
        decidedAt: c.decided_at ? iso(c.decided_at) : null,
        why: reviewReason('license', c.status),
        review: reviewOf(c.id),
      })),
    },
    insurance: {
      verified: !insuranceVerificationRequired(effective),
      connections: connections.map((c, i) => ({
        id: c.id,
        status: c.status,
        effectiveStatus: effective[i]!.status,
        carrier: c.carrier,
        policyNumber: c.policy_number,
        lastError: c.last_error,
        createdAt: iso(c.created_at),
        why: reviewReason('insurance', c.status),
        review: reviewOf(c.id),
      })),
    },
    trips: trips.map((t) => ({
      tripId: t.id,
      reference: t.platform_id,
      status: t.status,
      pickupAt: iso(t.pickup_at),
      returnAt: iso(t.return_at),
      timezone: t.timezone,
      locationName: t.location_name,
      car: `${t.model} · ${t.vin}`,
    })),
    messages: messages.map((m) => ({
      id: m.id,
      tripReference: m.platform_id,
      channel: m.channel,
      kind: m.kind,
      to: m.to_address,
      subject: m.subject,
      body: m.body,
      status: m.status,
      createdAt: iso(m.created_at),
      sentAt: m.sent_at ? iso(m.sent_at) : null,
    })),
    charges: payments.map((p) => ({
      id: p.id,
      tripReference: p.platform_id,
      kind: p.kind,
      status: p.status,
      amountCents: p.amount,
      capturedCents: p.amount_captured,
      refundedCents: p.amount_refunded,
      cardLast4: p.card_last_4,
      createdAt: iso(p.created_at),
    })),
    doNotRent: {
      listed: listings.some((l) => isListed(l, ops.now)),
      history: listings.map((l) => toListing(l, ops.now)),
    },
  };
}

// ---- do not rent ----

/** GET /renters/do-not-rent: the listings in force, of renters with a trip at the staff member's locations. */
export async function doNotRentList(db: Kysely<Database>, ops: OpsContext): Promise<{ items: DoNotRentListing[] }> {
  const rows = await repo.unliftedListings(db, scopeOf(ops));
  return { items: rows.filter((r) => isListed(r, ops.now)).map((r) => toListing(r, ops.now)) };
}

/**
 * POST /renters/:renterId/do-not-rent: lists the renter until an expiry, for a reason (decision
 * 095). One listing in force at a time: a second is a 409; one that expired unlifted is closed first.
 */
export async function addToDoNotRent(
  db: Kysely<Database>,
  ops: OpsContext,
  renterId: string,
  body: DoNotRentBody,
): Promise<DoNotRentListing> {
  const until = body.until ? new Date(body.until) : null;
  return transact(db, async (trx) => {
    await requireRenter(trx, ops, renterId);
    const problem = listingProblem({ reason: body.reason, until }, ops.now);
    if (problem) throw unprocessable(problem.message, problem.field);
    const current = await repo.lockUnliftedListing(trx, renterId);
    if (current && isListed(current, ops.now))
      throw new AppError(
        'CONFLICT',
        `This renter is already on the do-not-rent list until ${iso(current.until)}. Lift that listing first to change it.`,
      );
    if (current) await repo.liftListing(trx, current.id, { staffId: ops.staff.id, reason: 'Expired', now: ops.now });
    const id = await repo.insertListing(trx, {
      userId: renterId,
      reason: body.reason!.trim(),
      until: until!,
      staffId: ops.staff.id,
      now: ops.now,
    });
    const listing = toListing(await repo.listingById(trx, id), ops.now);
    await ops.audit(trx, {
      target: { type: 'renter', id: renterId },
      after: { listed: true, reason: listing.reason, until: listing.until },
    });
    return listing;
  });
}

/** POST /renters/:renterId/do-not-rent/lift: ends the renter's listing now (a reason is optional). */
export async function liftDoNotRent(
  db: Kysely<Database>,
  ops: OpsContext,
  renterId: string,
  body: LiftBody,
): Promise<DoNotRentListing> {
  return transact(db, async (trx) => {
    await requireRenter(trx, ops, renterId);
    const problem = reasonProblem(body.reason, false);
    if (problem) throw unprocessable(problem, 'reason');
    const current = await repo.lockUnliftedListing(trx, renterId);
    if (!current) throw notFound('This renter is not on the do-not-rent list.', 'renterId');
    const reason = body.reason?.trim() || null;
    await repo.liftListing(trx, current.id, { staffId: ops.staff.id, reason, now: ops.now });
    const listing = toListing(await repo.listingById(trx, current.id), ops.now);
    await ops.audit(trx, {
      target: { type: 'renter', id: renterId },
      before: { listed: isListed(current, ops.now), reason: current.reason, until: iso(current.until) },
      after: { listed: false, liftReason: reason },
    });
    return listing;
  });
}

// ---- a one-off text ----

/**
 * POST /renters/:renterId/texts: a text a staff member writes, about one of the renter's trips at
 * their locations (the newest when none is named), recorded in the renter's messages and sent by
 * the same sender as every trip message, at once; audited with its words.
 */
export async function sendStaffText(
  deps: RenterReviewDeps,
  ops: OpsContext,
  renterId: string,
  body: StaffTextBody,
): Promise<{ messageId: number; tripId: string; to: string }> {
  const problem = staffTextProblem(body.text);
  return transact(deps.db, async (trx) => {
    await requireRenter(trx, ops, renterId);
    if (problem) throw unprocessable(problem, 'text');
    const trip = body.tripId
      ? await repo.tripOfRenter(trx, renterId, body.tripId)
      : await repo.latestTripOf(trx, renterId, scopeOf(ops));
    if (!trip || !(ops.inScope(String(trip.pickup_location_id)) || inDropoffScope(ops, trip)))
      throw notFound(`No trip ${body.tripId ?? ''} of this renter at your locations.`.replace('  ', ' '), 'tripId');
    const text = body.text!.trim();
    const id = await deps.messages.recordStaffText(trx, trip.id, ops.now, text, `staff-text:${randomUUID()}`);
    if (id === null) throw new Error('a staff text was not recorded');
    const profile = await repo.renterProfile(trx, renterId);
    await ops.audit(trx, {
      target: { type: 'renter', id: renterId },
      locationId: String(trip.pickup_location_id),
      after: { tripId: trip.id, reference: trip.platform_id, text },
    });
    return { messageId: id, tripId: trip.id, to: profile!.phone };
  });
}

function inDropoffScope(ops: OpsContext, trip: { dropoff_location_id?: number }): boolean {
  return trip.dropoff_location_id !== undefined && ops.inScope(String(trip.dropoff_location_id));
}

// ---- the booking gate ----

/**
 * Whether the renter may book now: not while a do-not-rent listing is in force (decision 095).
 * The booking door calls this; it answers with the courteous message, never the reason.
 */
export async function doNotRentInForce(db: Kysely<Database>, userId: string, now: Date): Promise<boolean> {
  const listing = await repo.unliftedListing(db, userId);
  return listing !== undefined && isListed(listing, now);
}
