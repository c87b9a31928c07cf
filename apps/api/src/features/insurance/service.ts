import type { Kysely } from 'kysely';
import { isNewReservation, isOpenTrip } from '@ampere/domain/booking';
import { TRIP_NOT_FOUND_MESSAGE } from '@ampere/domain/contract/booking';
import type { InsuranceIgnitionResult } from '@ampere/domain/contract/verification';
import type { InsuranceEvent, InsuranceEventData } from '@ampere/domain/realtime';
import { toLocal } from '@ampere/domain/time';
import type { InsuranceResult, InsuranceState } from '@ampere/domain/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { WebhookSignatureError } from '../payments/gateway.ts';
import type { Realtime } from '../realtime/service.ts';
import { type EventLog, recordServerEvent } from '../analytics/service.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import * as reservations from '../trips/repository.ts';
import * as webhooks from '../webhooks/repository.ts';
import * as connections from './repository.ts';
import {
  type AxleAccount,
  type AxleEvent,
  type AxlePolicy,
  type InsuranceProvider,
  InsuranceProviderError,
} from './provider.ts';

export interface InsuranceDeps {
  db: Kysely<Database>;
  clock: Clock;
  provider: InsuranceProvider;
  /** The address renters open (for Axle's redirect and webhook URIs); unset: root-relative. */
  publicUrl?: string;
  realtime?: Pick<Realtime, 'publish'>;
  afterVerification?: (userId: string) => Promise<void>;
  /** Records insurance_verified when a connected policy is judged ACTIVE. */
  analytics?: AnalyticsSink;
  log?: { warn(obj: object, msg: string): void } & EventLog;
}

const UNAVAILABLE = 'Insurance connections are unavailable right now. Please try again in a few minutes.';

/** What an Axle account's connection status means for the renter's verification. */
const CONNECTION_STATE: Record<string, InsuranceState> = {
  'credentials-expired': 'CREDENTIALS_EXPIRED',
  'mfa-expired': 'MFA_EXPIRED',
  'account-disabled': 'ACCOUNT_DISABLED',
  'account-inaccessible': 'ACCOUNT_INACCESSIBLE',
};

/**
 * Rule (decision 022): a connected policy verifies the renter when the account's connection works,
 * the policy is in force, and it runs at least to the trip's return date (for a connection made
 * outside a trip, through today). Otherwise the connection stays PENDING (an inactive policy) or
 * takes the account's state.
 */
export function judgePolicy(
  account: AxleAccount,
  policy: AxlePolicy,
  coverUntil: string,
): { status: InsuranceState; result: InsuranceResult | null; error: string | null } {
  const state = CONNECTION_STATE[account.connection.status];
  if (state)
    return {
      status: state,
      result: null,
      error: `The ${account.carrier} connection needs attention (${account.connection.status}).`,
    };
  if (!policy.isActive)
    return { status: 'PENDING', result: null, error: `This ${policy.carrier} policy is not active.` };
  if (policy.expirationDate !== null && policy.expirationDate < coverUntil) {
    return {
      status: 'PENDING',
      result: 'MINIMUM_ELIGIBILITY',
      error: `This ${policy.carrier} policy ends on ${policy.expirationDate}, before the trip does.`,
    };
  }
  return { status: 'ACTIVE', result: 'PASSED', error: null };
}

/**
 * POST /api/v1/verifications/insurance: an Ignition session where the renter connects a policy,
 * for a trip of theirs or (no trip: onboarding) for trips to come. A session the renter has not
 * finished is handed out again (Axle's tokens do not expire).
 */
export async function startInsuranceVerification(
  deps: InsuranceDeps,
  userId: string,
  platformId: string | undefined,
): Promise<InsuranceIgnitionResult> {
  let reservationId: string | null = null;
  if (platformId !== undefined) {
    const trip = await reservations.findReservation(deps.db, userId, platformId);
    if (!trip) throw notFound(TRIP_NOT_FOUND_MESSAGE, 'platform_id');
    if (!isOpenTrip(trip.status)) {
      const why = isNewReservation(trip)
        ? 'Pay for this trip before connecting insurance.'
        : 'This trip is over; there is nothing to insure.';
      throw new AppError('CONFLICT', why, 'platform_id');
    }
    reservationId = trip.id;
  }
  const open = await connections.findOpenConnection(deps.db, userId, deps.provider.kind, reservationId);
  if (open?.ignition_token) {
    const uri = await connections.ignitionUriOf(deps.db, deps.provider.kind, open.ignition_token);
    if (uri) return { ignition_uri: uri, insurance_verification: { id: open.id, status: 'PENDING' } };
  }
  const base = deps.publicUrl ?? '';
  const back =
    platformId !== undefined ? `/trip/${encodeURIComponent(platformId)}` : '/onboarding/insurance/verification';
  let ignition: { token: string; ignitionUri: string };
  try {
    ignition = await deps.provider.startIgnition({
      userRef: userId,
      webhookUri: `${base}/api/v1/webhooks/insurance/${deps.provider.kind}`,
      redirectUri: `${base}${back}`,
      metadata: platformId ? { platform_id: platformId } : {},
    });
  } catch (err) {
    if (err instanceof InsuranceProviderError) {
      deps.log?.warn({ err }, 'insurance: the provider did not start an Ignition session');
      throw new AppError('UNAVAILABLE', UNAVAILABLE, undefined, { retryAfterSeconds: 60 });
    }
    throw err;
  }
  const now = deps.clock();
  const id = await connections.insertConnection(deps.db, {
    userId,
    reservationId,
    provider: deps.provider.kind,
    ignitionToken: ignition.token,
    ignitionUri: ignition.ignitionUri,
    now,
  });
  return { ignition_uri: ignition.ignitionUri, insurance_verification: { id, status: 'PENDING' } };
}

/** The realtime event each Ignition outcome sends the renter's open pages (spec 4). */
function realtimeEventFor(type: string, status: InsuranceState | null): InsuranceEvent | null {
  switch (type) {
    case 'ignition.completed':
      return status === 'ACTIVE' ? 'insurance-completed' : 'insurance-failed';
    case 'ignition.attempted':
      return 'insurance-failed';
    case 'ignition.exited':
      return 'insurance-exited';
    case 'ignition.errored':
      return 'insurance-error';
    default:
      return null;
  }
}

/** Where a connection stands: a finished one (connected or failed for good) is not moved by late news. */
const finished = (row: { account_id: string | null }) => row.account_id !== null;

/**
 * POST /api/v1/webhooks/insurance/{provider}. The shared-secret header is checked first (wrong or
 * missing: 400, nothing changes). Each event id is recorded once in the transaction that applies
 * it. A completion is not taken on the webhook's word: the auth code is exchanged with the
 * provider and the account and policy are read from it, outside any transaction (they are network
 * calls), then applied with a re-check, so a replay or a late event never moves a connection back.
 */
export async function receiveInsuranceWebhook(
  deps: InsuranceDeps,
  provider: string,
  raw: Buffer,
  header: string | undefined,
): Promise<{ received: true; duplicate?: boolean }> {
  if (provider !== deps.provider.kind) throw notFound('No insurance webhook endpoint for that provider.', 'provider');
  let event: AxleEvent;
  try {
    event = deps.provider.readWebhook(raw, header);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new AppError('INVALID_INPUT', err.message);
    throw err;
  }
  const source = `insurance-${deps.provider.kind}`;
  if (await webhooks.wasReceived(deps.db, source, event.id)) return { received: true, duplicate: true };
  const row = await connections.connectionByToken(deps.db, deps.provider.kind, event.data.token);

  // Read what a completion connected before opening the transaction.
  let judged: {
    status: InsuranceState;
    result: InsuranceResult | null;
    error: string | null;
    account: AxleAccount;
    policy: AxlePolicy | null;
  } | null = null;
  let fetchError: string | null = null;
  if (row && !finished(row) && event.type === 'ignition.completed' && event.data.authCode) {
    try {
      const access = await deps.provider.exchange(event.data.authCode);
      const account = await deps.provider.getAccount(access.accessToken, access.account);
      const policyId = access.policies[0];
      const policy = policyId ? await deps.provider.getPolicy(access.accessToken, policyId) : null;
      const coverUntil =
        row.return_at && row.timezone
          ? toLocal(new Date(row.return_at), row.timezone).date
          : toLocal(deps.clock(), 'America/Chicago').date;
      judged = policy
        ? { ...judgePolicy(account, policy, coverUntil), account, policy }
        : {
            status: CONNECTION_STATE[account.connection.status] ?? 'PENDING',
            result: null,
            error: 'No policy was shared.',
            account,
            policy: null,
          };
    } catch (err) {
      if (!(err instanceof InsuranceProviderError)) throw err;
      // A used or expired code: a retry of an event already applied elsewhere, or too late. Record it and move on.
      fetchError = err.message;
      deps.log?.warn(
        { err, eventId: event.id },
        'insurance: a completed connection could not be read from the provider',
      );
    }
  }

  const outcome = await transact(deps.db, async (trx) => {
    const recorded = await webhooks.recordEvent(
      trx,
      {
        provider: source,
        eventId: event.id,
        type: event.type,
        objectId: event.data.token,
        payload: JSON.parse(raw.toString('utf8')),
      },
      deps.clock(),
    );
    if (!recorded) return { duplicate: true as const };
    if (!row) return { userId: null };
    const current = await connections.lockConnection(trx, row.id);
    if (finished(current)) return { userId: null };
    const now = deps.clock();
    if (judged) {
      await connections.recordConnected(
        trx,
        row.id,
        {
          status: judged.status,
          result: judged.result,
          error: judged.error,
          accountId: judged.account.id,
          policyId: judged.policy?.id ?? null,
          carrier: judged.policy?.carrier ?? judged.account.carrier,
          policyNumber: judged.policy?.policyNumber ?? null,
          policyExpiresOn: judged.policy?.expirationDate ?? null,
        },
        now,
      );
      return {
        userId: row.user_id,
        realtime: realtimeEventFor(event.type, judged.status),
        status: judged.status,
        message: judged.status === 'ACTIVE' ? null : judged.error,
        retry: false,
        carrier: judged.policy?.carrier ?? judged.account.carrier,
      };
    }
    // An ended session is not handed out again: the next attempt starts a new one. Closed after a
    // sign-in the carrier refused, the connection keeps that reason: it is what the renter should hear.
    const error =
      fetchError ??
      event.data.message ??
      (event.type === 'ignition.exited' ? (current.last_error ?? 'Closed before connecting.') : null);
    if (
      event.type === 'ignition.errored' ||
      event.type === 'ignition.attempted' ||
      event.type === 'ignition.exited' ||
      fetchError
    ) {
      await connections.recordConnectionError(trx, row.id, error, now);
    }
    return {
      userId: row.user_id,
      realtime: fetchError ? ('insurance-error' as const) : realtimeEventFor(event.type, null),
      status: current.status,
      message: event.type === 'ignition.exited' ? current.last_error : error,
      // A refused sign-in (ignition.attempted) leaves the window open for another try (spec 4).
      retry: event.type === 'ignition.attempted' && !fetchError,
    };
  });
  if ('duplicate' in outcome) return { received: true, duplicate: true };
  if (outcome.userId && 'carrier' in outcome && outcome.status === 'ACTIVE' && deps.analytics) {
    // Spec 7: insurance_verified, once per connection judged ACTIVE (a finished connection takes no more events).
    await recordServerEvent(deps.analytics, deps.log, {
      name: 'insurance_verified',
      userId: outcome.userId,
      properties: { insurance_verification_id: row!.id, carrier: outcome.carrier, provider: deps.provider.kind },
      now: deps.clock(),
    });
  }
  if (outcome.userId) {
    if (outcome.status === 'ACTIVE' && deps.afterVerification) {
      try {
        await deps.afterVerification(outcome.userId);
      } catch (err) {
        deps.log?.warn({ err }, 'insurance: a follow-up to a connected policy failed');
      }
    }
    if (outcome.realtime)
      await deps.realtime?.publish(outcome.userId, outcome.realtime, {
        insurance_verification_id: row!.id,
        status: outcome.status,
        message: outcome.message,
        retry: outcome.retry,
      } satisfies InsuranceEventData);
  }
  return { received: true };
}
