import type { Kysely, Transaction } from 'kysely';
import type { InsuranceResult, InsuranceState } from '@ampere/domain/verification';
import type { Database } from '../../db/schema.ts';

/**
 * The renter's newest connection with this provider that can be handed out again: pending, with
 * no account connected and no error, for this trip (or, with a null trip, for none).
 */
export async function findOpenConnection(
  db: Kysely<Database>,
  userId: string,
  provider: string,
  reservationId: string | null,
): Promise<{ id: string; status: InsuranceState; ignition_token: string | null } | undefined> {
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'status', 'ignition_token'])
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('status', '=', 'PENDING')
    .where('account_id', 'is', null)
    .where('last_error', 'is', null)
    .where(
      reservationId === null
        ? (eb) => eb('reservation_id', 'is', null)
        : (eb) => eb('reservation_id', '=', reservationId),
    )
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The Ignition address kept for a session token; null when none is kept. */
export async function ignitionUriOf(db: Kysely<Database>, provider: string, token: string): Promise<string | null> {
  const row = await db
    .selectFrom('insurance_verifications')
    .select('ignition_uri')
    .where('provider', '=', provider)
    .where('ignition_token', '=', token)
    .executeTakeFirst();
  return row?.ignition_uri ?? null;
}

/** A new pending connection for an Ignition session; its id. */
export async function insertConnection(
  db: Kysely<Database>,
  values: {
    userId: string;
    reservationId: string | null;
    provider: string;
    ignitionToken: string;
    ignitionUri: string;
    now: Date;
  },
): Promise<string> {
  const row = await db
    .insertInto('insurance_verifications')
    .values({
      user_id: values.userId,
      reservation_id: values.reservationId,
      status: 'PENDING',
      carrier: null,
      policy_number: null,
      created_at: values.now,
      provider: values.provider,
      ignition_token: values.ignitionToken,
      account_id: null,
      policy_id: null,
      policy_expires_on: null,
      result: null,
      last_error: null,
      updated_at: values.now,
      ignition_uri: values.ignitionUri,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The connection an Ignition token names, with its trip's return (when it is for a trip). */
export async function connectionByToken(
  db: Kysely<Database>,
  provider: string,
  token: string,
): Promise<
  | { id: string; user_id: string; account_id: string | null; return_at: Date | null; timezone: string | null }
  | undefined
> {
  return db
    .selectFrom('insurance_verifications as iv')
    .leftJoin('reservations as r', 'r.id', 'iv.reservation_id')
    .select(['iv.id', 'iv.user_id', 'iv.account_id', 'r.return_at', 'r.timezone'])
    .where('iv.provider', '=', provider)
    .where('iv.ignition_token', '=', token)
    .executeTakeFirst();
}

/** A connection's state, locked until the transaction ends (a concurrent event waits here). */
export async function lockConnection(
  trx: Transaction<Database>,
  id: string,
): Promise<{ id: string; status: InsuranceState; account_id: string | null; last_error: string | null }> {
  return trx
    .selectFrom('insurance_verifications')
    .select(['id', 'status', 'account_id', 'last_error'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** What a completed connection found: the account, the policy (if one was shared) and the judgement. */
export async function recordConnected(
  trx: Transaction<Database>,
  id: string,
  found: {
    status: InsuranceState;
    result: InsuranceResult | null;
    error: string | null;
    accountId: string;
    policyId: string | null;
    carrier: string;
    policyNumber: string | null;
    policyExpiresOn: string | null;
  },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('insurance_verifications')
    .set({
      status: found.status,
      result: found.result,
      last_error: found.error,
      account_id: found.accountId,
      policy_id: found.policyId,
      carrier: found.carrier,
      policy_number: found.policyNumber,
      policy_expires_on: found.policyExpiresOn,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function recordConnectionError(
  trx: Transaction<Database>,
  id: string,
  error: string | null,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('insurance_verifications')
    .set({ last_error: error, updated_at: now })
    .where('id', '=', id)
    .execute();
}
