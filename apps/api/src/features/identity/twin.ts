import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addDays, todayIn } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { TwinOutbox } from '../twins/outbox.ts';
import { AGE_RULE_TIME_ZONE } from '../users/service.ts';
import type { IdentityProvider } from './provider.ts';
import { DECISION_CODES, type DecisionStatus, readWebhook } from './veriff-webhook.ts';

/**
 * The built-in identity twin: a stand-in for Veriff that keeps its own sessions, shows its own
 * hosted page, and decides asynchronously through signed webhooks, as Veriff does. A tester picks
 * the outcome on the page; decision 021 lists them.
 */

export const TWIN_OUTCOMES = {
  approve: { label: 'Approve', hint: 'A valid license; the renter is 35.' },
  approve_under_25: {
    label: 'Approve — renter under 25',
    hint: 'A valid license; the renter is 21, so the underage fee applies.',
  },
  expires_soon: { label: 'License expires soon', hint: 'Approved, but the license runs out in 3 days.' },
  decline: { label: 'Decline', hint: 'The document does not pass.' },
  resubmit: { label: 'Ask to resubmit', hint: 'The photos could not be read.' },
  expired_license: { label: 'Expired license', hint: 'The license ran out 30 days ago.' },
  under_18: { label: 'Under 18', hint: 'The renter is 16.' },
  cancel: { label: 'Cancel', hint: 'Leave without finishing.' },
} as const;
export type TwinOutcome = keyof typeof TWIN_OUTCOMES;

export function isTwinOutcome(value: unknown): value is TwinOutcome {
  return typeof value === 'string' && Object.hasOwn(TWIN_OUTCOMES, value);
}

/** Open sessions take the renter's document; a decided one is finished. */
const OPEN = ['created', 'started'];

function yearsBefore(date: string, years: number): string {
  const [y, m, d] = date.split('-');
  // 29 February in a year without one reads as the 28th, as a license would print it.
  const day = m === '02' && d === '29' ? '28' : d;
  return `${String(Number(y) - years).padStart(4, '0')}-${m}-${day}`;
}

function licenseNumber(sessionId: string): string {
  const digits = BigInt(`0x${createHash('sha256').update(sessionId).digest('hex').slice(0, 12)}`) % 10_000_000n;
  return `D${digits.toString().padStart(7, '0')}`;
}

interface TwinDecision {
  status: DecisionStatus;
  reason: string | null;
  dateOfBirth: string;
  validUntil: string;
}

function decisionFor(outcome: Exclude<TwinOutcome, 'cancel'>, today: string): TwinDecision {
  const adult = yearsBefore(today, 35);
  const valid = yearsBefore(today, -4);
  switch (outcome) {
    case 'approve':
      return { status: 'approved', reason: null, dateOfBirth: adult, validUntil: valid };
    case 'approve_under_25':
      return { status: 'approved', reason: null, dateOfBirth: yearsBefore(today, 21), validUntil: valid };
    case 'expires_soon':
      return { status: 'approved', reason: null, dateOfBirth: adult, validUntil: addDays(today, 3) };
    case 'decline':
      return { status: 'declined', reason: 'Physical document not used', dateOfBirth: adult, validUntil: valid };
    case 'resubmit':
      return {
        status: 'resubmission_requested',
        reason: 'Document photo is not readable',
        dateOfBirth: adult,
        validUntil: valid,
      };
    case 'expired_license':
      return { status: 'declined', reason: 'Document expired', dateOfBirth: adult, validUntil: addDays(today, -30) };
    case 'under_18':
      return {
        status: 'declined',
        reason: 'Person is under the minimum age',
        dateOfBirth: yearsBefore(today, 16),
        validUntil: valid,
      };
  }
}

export type TwinSession = Awaited<ReturnType<TwinIdentityProvider['getSession']>>;

export class TwinIdentityProvider implements IdentityProvider {
  readonly kind = 'twin' as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly outbox: TwinOutbox,
  ) {}

  async createSession(input: { vendorData: string; firstName: string | null; lastName: string | null }) {
    const id = randomUUID();
    const now = this.clock();
    await this.db
      .insertInto('twin_identity_sessions')
      .values({
        id,
        status: 'created',
        first_name: input.firstName,
        last_name: input.lastName,
        vendor_data: input.vendorData,
        decision: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { id, url: `/twin/identity/${id}` };
  }

  readWebhook(raw: Buffer, signature: string | undefined) {
    return readWebhook(this.outbox.secret, raw, signature);
  }

  getSession(id: string) {
    return this.db.selectFrom('twin_identity_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The renter finished on the hosted page. Like Veriff: an event webhook ('submitted') and then
   * the decision webhook, both written with the state change and delivered later. Cancelling
   * abandons the session (a decision webhook with status 'abandoned', no 'submitted').
   */
  async finish(
    id: string,
    outcome: TwinOutcome,
    names: { firstName: string | null; lastName: string | null },
  ): Promise<void> {
    await transact(this.db, async (trx) => {
      const session = await trx
        .selectFrom('twin_identity_sessions')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!session) throw notFound('No identity check with that id.');
      if (!OPEN.includes(session.status))
        throw new AppError('CONFLICT', 'This identity check is already finished. Start a new one from your trip.');
      const now = this.clock();
      const firstName = names.firstName ?? session.first_name;
      const lastName = names.lastName ?? session.last_name;
      let verification: Record<string, unknown>;
      let status: DecisionStatus;
      if (outcome === 'cancel') {
        status = 'abandoned';
        verification = {
          id,
          code: DECISION_CODES.abandoned,
          status,
          reason: null,
          reasonCode: null,
          person: null,
          document: null,
        };
      } else {
        const d = decisionFor(outcome, todayIn(now, AGE_RULE_TIME_ZONE));
        status = d.status;
        await this.outbox.enqueue(trx, now, 'submitted', {
          id,
          attemptId: randomUUID(),
          feature: 'selfid',
          code: 7002,
          action: 'submitted',
          vendorData: session.vendor_data,
        });
        verification = {
          id,
          code: DECISION_CODES[d.status],
          status: d.status,
          reason: d.reason,
          reasonCode: d.reason ? 102 : null,
          person: { firstName, lastName, dateOfBirth: d.dateOfBirth, idNumber: null },
          document: { number: licenseNumber(id), type: 'DRIVERS_LICENSE', country: 'US', validUntil: d.validUntil },
        };
      }
      const decision = {
        status: 'success',
        verification: {
          ...verification,
          decisionTime: now.toISOString(),
          acceptanceTime: session.created_at.toISOString(),
          vendorData: session.vendor_data,
        },
      };
      await this.outbox.enqueue(trx, now, `decision.${status}`, decision);
      await trx
        .updateTable('twin_identity_sessions')
        .set({
          status,
          first_name: firstName,
          last_name: lastName,
          decision: JSON.stringify(decision),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    });
    this.outbox.nudge();
  }
}
