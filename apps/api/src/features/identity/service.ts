import type { Kysely } from 'kysely';
import { isNewReservation, isOpenTrip } from '@ampere/domain/booking';
import { TRIP_NOT_FOUND_MESSAGE } from '@ampere/domain/contract/booking';
import type { IdentityVerification } from '@ampere/domain/contract/verification';
import type { IdentitySessionStatus, LicenseStatusValue } from '@ampere/domain/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { WebhookSignatureError } from '../payments/gateway.ts';
import { type EventLog, recordServerEvent } from '../analytics/service.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import * as reservations from '../trips/repository.ts';
import { syncUnderageFeesOfRenter } from '../trips/line-items.ts';
import * as webhooks from '../webhooks/repository.ts';
import * as verifications from './repository.ts';
import { type IdentityProvider, IdentityProviderError } from './provider.ts';
import type { IdentityWebhook } from './veriff-webhook.ts';

export interface IdentityDeps {
  db: Kysely<Database>;
  clock: Clock;
  provider: IdentityProvider;
  /** The address renters open, for the provider's return link; unset: root-relative. */
  publicUrl?: string;
  /** Retires a charge whose amount a new birthday changed (the underage fee), after commit. */
  cancelRetired?: (userId: string) => Promise<void>;
  /** Runs after a decision is applied (the digital key is issued when nothing else is outstanding). */
  afterVerification?: (userId: string) => Promise<void>;
  /** Records id_verified when a license is approved. */
  analytics?: AnalyticsSink;
  log?: { warn(obj: object, msg: string): void } & EventLog;
}

type Row = verifications.VerificationRow;

/** A session the renter can still finish is reused for a week, as long as the provider keeps it. */
const REUSE_WITHIN_MS = 7 * 86_400_000;

const RANK: Record<IdentitySessionStatus, number> = {
  created: 0,
  started: 1,
  submitted: 2,
  approved: 3,
  declined: 3,
  resubmission_requested: 3,
  expired: 3,
  abandoned: 3,
};
const isDecision = (s: IdentitySessionStatus) => RANK[s] === 3;

function toVerification(row: Row): IdentityVerification {
  return { id: row.id, status: row.status, url: row.url, reason: row.reason, created_at: row.created_at.toISOString() };
}

/**
 * POST /api/v1/verifications/license: a hosted license check for the renter, for a trip of theirs
 * or (no trip: onboarding) for trips to come. An unfinished session is handed out again; after a
 * decision, asking again (Try Again) opens a new one.
 */
export async function startLicenseVerification(
  deps: IdentityDeps,
  userId: string,
  platformId: string | undefined,
): Promise<{ verification: IdentityVerification }> {
  let reservationId: string | null = null;
  if (platformId !== undefined) {
    const trip = await reservations.findReservation(deps.db, userId, platformId);
    if (!trip) throw notFound(TRIP_NOT_FOUND_MESSAGE, 'platform_id');
    if (!isOpenTrip(trip.status)) {
      const why = isNewReservation(trip)
        ? 'Pay for this trip before verifying your license.'
        : 'This trip is over; there is nothing to verify for it.';
      throw new AppError('CONFLICT', why, 'platform_id');
    }
    reservationId = trip.id;
  }
  const now = deps.clock();
  const open = await verifications.findOpenVerification(
    deps.db,
    userId,
    deps.provider.kind,
    new Date(now.getTime() - REUSE_WITHIN_MS),
  );
  if (open) return { verification: toVerification(open) };

  const user = await verifications.renterName(deps.db, userId);
  const back =
    platformId !== undefined ? `/trip/${encodeURIComponent(platformId)}` : '/onboarding/license/verification';
  let session: { id: string; url: string };
  try {
    session = await deps.provider.createSession({
      vendorData: user.id,
      firstName: user.first_name,
      lastName: user.last_name,
      callbackUrl: `${deps.publicUrl ?? ''}${back}`,
    });
  } catch (err) {
    if (err instanceof IdentityProviderError) {
      deps.log?.warn({ err }, 'identity: the provider did not open a session');
      throw new AppError(
        'UNAVAILABLE',
        'The license check is unavailable right now. Please try again in a few minutes.',
        undefined,
        { retryAfterSeconds: 60 },
      );
    }
    throw err;
  }
  const row = await verifications.insertVerification(deps.db, {
    userId,
    reservationId,
    provider: deps.provider.kind,
    providerSessionId: session.id,
    url: session.url,
    now,
  });
  return { verification: toVerification(row) };
}

/** GET /api/v1/verifications/license: the renter's latest check, so a page can say it is being checked. */
export async function latestLicenseVerification(
  deps: Pick<IdentityDeps, 'db'>,
  userId: string,
): Promise<{ verification: IdentityVerification | null }> {
  const row = await verifications.latestVerification(deps.db, userId);
  return { verification: row ? toVerification(row) : null };
}

/** The decisions that say something about the license (licenseStatusFor is not null for them). */
const LICENSE_DECISIONS: readonly IdentitySessionStatus[] = ['approved', 'declined', 'resubmission_requested'];

/** What the user's license status becomes after a decision; null: the decision says nothing about the license. */
export function licenseStatusFor(status: IdentitySessionStatus, reason: string | null): LicenseStatusValue | null {
  switch (status) {
    case 'approved':
      return 'approved';
    case 'declined':
      return reason && /expired/i.test(reason) ? 'expired' : 'declined';
    case 'resubmission_requested':
      return 'resubmission';
    default:
      return null;
  }
}

/** Whether a webhook moves the session forward: a later stage, or a newer decision. Late or repeated news is ignored. */
function movesForward(row: Row, hook: IdentityWebhook): boolean {
  const from = row.status;
  if (RANK[hook.status] > RANK[from]) return true;
  if (!isDecision(hook.status) || !isDecision(from)) return false;
  return hook.decidedAt !== null && (row.decided_at === null || hook.decidedAt.getTime() > row.decided_at.getTime());
}

/**
 * POST /api/v1/webhooks/identity/{provider}. The signature is checked over the raw bytes first (a
 * bad one is a 400 and changes nothing). Each webhook is recorded once in the transaction that
 * applies it, so a retry is acknowledged as a duplicate. A decision writes the renter's license
 * fields when it is their newest; a new birthday brings the underage fee of their open trips in
 * line in the same transaction.
 */
export async function receiveIdentityWebhook(
  deps: IdentityDeps,
  provider: string,
  raw: Buffer,
  signature: string | undefined,
): Promise<{ received: true; duplicate?: boolean }> {
  if (provider !== deps.provider.kind) throw notFound('No identity webhook endpoint for that provider.', 'provider');
  let hook: IdentityWebhook;
  try {
    hook = deps.provider.readWebhook(raw, signature);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new AppError('INVALID_INPUT', err.message);
    throw err;
  }
  const source = `identity-${deps.provider.kind}`;
  if (await webhooks.wasReceived(deps.db, source, hook.eventId)) return { received: true, duplicate: true };
  const outcome = await transact(deps.db, async (trx) => {
    const recorded = await webhooks.recordEvent(
      trx,
      {
        provider: source,
        eventId: hook.eventId,
        type: hook.type,
        objectId: hook.sessionId,
        payload: JSON.parse(raw.toString('utf8')),
      },
      deps.clock(),
    );
    if (!recorded) return { duplicate: true as const };
    const row = await verifications.lockVerificationBySession(trx, deps.provider.kind, hook.sessionId);
    if (!row || !movesForward(row, hook)) return { userId: null };
    const now = deps.clock();
    const decidedAt = isDecision(hook.status) ? (hook.decidedAt ?? now) : null;
    await verifications.updateVerification(trx, row.id, { status: hook.status, reason: hook.reason, decidedAt, now });
    const licenseStatus = licenseStatusFor(hook.status, hook.reason);
    if (licenseStatus === null || decidedAt === null) return { userId: row.user_id };
    // An older session decided late does not undo what a newer one decided.
    if (await verifications.hasLaterDecision(trx, row.user_id, row.id, decidedAt, LICENSE_DECISIONS))
      return { userId: row.user_id };
    const birthday = await verifications.lockBirthday(trx, row.user_id);
    const doc = hook.document;
    if (licenseStatus === 'approved' && doc) {
      const name = [doc.firstName, doc.lastName].filter(Boolean).join(' ').trim();
      await verifications.recordApprovedLicense(
        trx,
        row.user_id,
        { name: name || null, number: doc.number, validUntil: doc.validUntil, birthday: doc.dateOfBirth },
        now,
      );
      if (doc.dateOfBirth && doc.dateOfBirth !== birthday) await syncUnderageFeesOfRenter(trx, row.user_id, now);
    } else {
      await verifications.setLicenseStatus(trx, row.user_id, licenseStatus, now);
    }
    return licenseStatus === 'approved'
      ? { userId: row.user_id, approved: { verificationId: row.id } }
      : { userId: row.user_id };
  });
  if ('duplicate' in outcome) return { received: true, duplicate: true };
  const approved = 'approved' in outcome ? outcome.approved : undefined;
  if (outcome.userId && approved && deps.analytics) {
    // Spec 7: id_verified, once per approved check (a webhook is applied once, never backwards).
    await recordServerEvent(deps.analytics, deps.log, {
      name: 'id_verified',
      userId: outcome.userId,
      properties: { verification_id: approved.verificationId, provider: deps.provider.kind },
      now: deps.clock(),
    });
  }
  if (outcome.userId) await afterDecision(deps, outcome.userId);
  return { received: true };
}

/**
 * After commit: retire a charge the fee change made stale, and issue the key if now possible. No
 * realtime REFRESH: it reloads every open page of the renter (a half-typed card too); the page
 * waiting for the decision polls GET /api/v1/verifications/license instead (decision 021).
 */
async function afterDecision(deps: IdentityDeps, userId: string): Promise<void> {
  for (const step of [deps.cancelRetired, deps.afterVerification]) {
    if (!step) continue;
    try {
      await step(userId);
    } catch (err) {
      deps.log?.warn(
        { err, userId },
        'identity: a follow-up to a license decision failed; it is retried on the next change',
      );
    }
  }
}
