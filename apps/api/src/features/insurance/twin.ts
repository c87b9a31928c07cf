import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addDays, todayIn } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { TwinOutbox } from '../twins/outbox.ts';
import {
  type AxleAccount,
  type AxlePolicy,
  type InsuranceProvider,
  InsuranceProviderError,
  readAxleEvent,
} from './provider.ts';

/**
 * The built-in insurance twin: a stand-in for Axle with its own Ignition sessions, hosted page,
 * webhooks (written to the twins' outbox with the state change, delivered later) and the
 * token-exchange, account and policy reads, in Axle's shapes. A tester picks the outcome on the
 * page; decision 022 lists them.
 */

export const CARRIERS = ['State Farm', 'GEICO', 'Progressive', 'Allstate', 'USAA', 'Liberty Mutual'] as const;

export const TWIN_OUTCOMES = {
  active: { label: 'Connect an active policy', hint: 'Signs in and shares a policy in force for the next six months.' },
  inactive: { label: 'Connect an expired policy', hint: 'Signs in, but the policy ended last month.' },
  wrong_password: { label: 'Wrong password', hint: 'The carrier refuses the sign-in; you can try again.' },
  credentials_expired: { label: 'Credentials expired', hint: 'Connects, then the carrier login stops working.' },
  mfa_expired: { label: 'MFA expired', hint: 'Connects, but the two-step code ran out.' },
  account_disabled: { label: 'Account disabled', hint: 'The carrier has disabled this account.' },
  account_inaccessible: { label: 'Account inaccessible', hint: 'The carrier account cannot be reached.' },
  error: { label: 'Carrier error', hint: 'The carrier is not responding.' },
  exit: { label: 'Exit', hint: 'Leave without connecting.' },
} as const;
export type TwinOutcome = keyof typeof TWIN_OUTCOMES;

export function isTwinOutcome(value: unknown): value is TwinOutcome {
  return typeof value === 'string' && Object.hasOwn(TWIN_OUTCOMES, value);
}

/** Axle's auth codes live ten minutes and are used once. */
const AUTH_CODE_TTL_MS = 10 * 60_000;

const CONNECTION_STATUS: Partial<Record<TwinOutcome, AxleAccount['connection']['status']>> = {
  active: 'active',
  inactive: 'active',
  credentials_expired: 'credentials-expired',
  mfa_expired: 'mfa-expired',
  account_disabled: 'account-disabled',
  account_inaccessible: 'account-inaccessible',
};

const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

export type TwinIgnition = Awaited<ReturnType<TwinInsuranceProvider['getIgnition']>>;

export class TwinInsuranceProvider implements InsuranceProvider {
  readonly kind = 'twin' as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly outbox: TwinOutbox,
  ) {}

  async startIgnition(input: { userRef: string }) {
    const t = token('ign');
    const now = this.clock();
    await this.db
      .insertInto('twin_axle_ignitions')
      .values({
        token: t,
        status: 'created',
        user_ref: input.userRef,
        carrier: null,
        outcome: null,
        auth_code: null,
        auth_code_expires_at: null,
        access_token: null,
        account: null,
        policy: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { token: t, ignitionUri: `/twin/insurance/${t}` };
  }

  readWebhook(raw: Buffer, header: string | undefined) {
    return readAxleEvent(this.outbox.secret, raw, header);
  }

  getIgnition(t: string) {
    return this.db.selectFrom('twin_axle_ignitions').selectAll().where('token', '=', t).executeTakeFirst();
  }

  /**
   * The renter finished on the hosted page. A wrong password is an attempt (the session stays open,
   * as on Axle); every other outcome ends it with ignition.completed (with a one-time auth code),
   * .exited or .errored.
   */
  async finish(t: string, outcome: TwinOutcome, carrier: string): Promise<void> {
    await transact(this.db, async (trx) => {
      const ignition = await trx
        .selectFrom('twin_axle_ignitions')
        .selectAll()
        .where('token', '=', t)
        .forUpdate()
        .executeTakeFirst();
      if (!ignition) throw notFound('No insurance connection with that token.');
      if (ignition.status !== 'created' && ignition.status !== 'opened')
        throw new AppError(
          'CONFLICT',
          'This insurance connection is already finished. Start a new one from your trip.',
        );
      const now = this.clock();
      const base = { token: t, client: 'cli_twin', user: { id: ignition.user_ref } };
      const event = (type: string, data: Record<string, unknown>) =>
        this.outbox.enqueue(trx, now, type, {
          id: token('evt'),
          type,
          data: { ...base, ...data },
          createdAt: now.toISOString(),
        });
      if (outcome === 'wrong_password') {
        await event('ignition.attempted', {
          step: 'login',
          message: `${carrier} did not accept that username and password.`,
        });
        await trx
          .updateTable('twin_axle_ignitions')
          .set({ status: 'opened', carrier, updated_at: now })
          .where('token', '=', t)
          .execute();
        return;
      }
      if (outcome === 'exit') {
        await event('ignition.exited', { step: 'carrier-select' });
        await trx
          .updateTable('twin_axle_ignitions')
          .set({ status: 'exited', carrier, outcome, updated_at: now })
          .where('token', '=', t)
          .execute();
        return;
      }
      if (outcome === 'error') {
        await event('ignition.errored', { message: `${carrier} is not responding. Try again later.` });
        await trx
          .updateTable('twin_axle_ignitions')
          .set({ status: 'errored', carrier, outcome, updated_at: now })
          .where('token', '=', t)
          .execute();
        return;
      }
      const today = todayIn(now, 'America/Chicago');
      const accountId = token('acc');
      const policyId = token('pol');
      const account: AxleAccount = {
        id: accountId,
        carrier,
        connection: { status: CONNECTION_STATUS[outcome] ?? 'active' },
        policies: [policyId],
      };
      const policy: AxlePolicy = {
        id: policyId,
        account: accountId,
        carrier,
        policyNumber: `${carrier.slice(0, 2).toUpperCase()}-${randomInt(10_000_000, 99_999_999)}`,
        isActive: outcome !== 'inactive',
        effectiveDate: addDays(today, outcome === 'inactive' ? -395 : -30),
        expirationDate: addDays(today, outcome === 'inactive' ? -30 : 182),
      };
      const authCode = token('cod');
      await event('ignition.completed', { authCode, result: 'link' });
      await trx
        .updateTable('twin_axle_ignitions')
        .set({
          status: 'completed',
          carrier,
          outcome,
          auth_code: authCode,
          auth_code_expires_at: new Date(now.getTime() + AUTH_CODE_TTL_MS),
          account: JSON.stringify(account),
          policy: JSON.stringify(policy),
          updated_at: now,
        })
        .where('token', '=', t)
        .execute();
    });
    this.outbox.nudge();
  }

  async exchange(authCode: string) {
    return transact(this.db, async (trx) => {
      const row = await trx
        .selectFrom('twin_axle_ignitions')
        .selectAll()
        .where('auth_code', '=', authCode)
        .forUpdate()
        .executeTakeFirst();
      if (
        !row ||
        row.access_token !== null ||
        !row.auth_code_expires_at ||
        row.auth_code_expires_at.getTime() < this.clock().getTime()
      ) {
        throw new InsuranceProviderError(
          'Axle refused POST /token/exchange (HTTP 400): the auth code is invalid, used or expired.',
        );
      }
      const accessToken = token('tok');
      await trx
        .updateTable('twin_axle_ignitions')
        .set({ access_token: accessToken, updated_at: this.clock() })
        .where('token', '=', row.token)
        .execute();
      const account = row.account as AxleAccount;
      return { accessToken, account: account.id, policies: account.policies };
    });
  }

  private async byAccessToken(accessToken: string) {
    const row = await this.db
      .selectFrom('twin_axle_ignitions')
      .select(['account', 'policy'])
      .where('access_token', '=', accessToken)
      .executeTakeFirst();
    if (!row) throw new InsuranceProviderError('Axle refused the access token (HTTP 401).');
    return { account: row.account as AxleAccount, policy: row.policy as AxlePolicy };
  }

  async getAccount(accessToken: string, id: string): Promise<AxleAccount> {
    const { account } = await this.byAccessToken(accessToken);
    if (account.id !== id) throw new InsuranceProviderError('Axle has no such account for this token (HTTP 404).');
    return account;
  }

  async getPolicy(accessToken: string, id: string): Promise<AxlePolicy> {
    const { policy } = await this.byAccessToken(accessToken);
    if (policy.id !== id) throw new InsuranceProviderError('Axle has no such policy for this token (HTTP 404).');
    return policy;
  }
}
