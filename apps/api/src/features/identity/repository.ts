import type { Kysely, Selectable, Transaction } from 'kysely';
import type { IdentitySessionStatus, LicenseStatusValue } from '@ampere/domain/verification';
import type { Database, IdentityVerificationTable } from '../../db/schema.ts';

export type VerificationRow = Selectable<IdentityVerificationTable>;

/** The renter's newest session with this provider that is still open (created or started) and began after `since`. */
export async function findOpenVerification(
  db: Kysely<Database>,
  userId: string,
  provider: string,
  since: Date,
): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('identity_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('status', 'in', ['created', 'started'])
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The renter's newest session, whatever its status. */
export async function latestVerification(db: Kysely<Database>, userId: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('identity_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The name the provider is told, so its check can compare it with the license. */
export async function renterName(
  db: Kysely<Database>,
  userId: string,
): Promise<{ id: string; first_name: string | null; last_name: string | null }> {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function insertVerification(
  db: Kysely<Database>,
  values: {
    userId: string;
    reservationId: string | null;
    provider: string;
    providerSessionId: string;
    url: string;
    now: Date;
  },
): Promise<VerificationRow> {
  return db
    .insertInto('identity_verifications')
    .values({
      user_id: values.userId,
      reservation_id: values.reservationId,
      provider: values.provider,
      provider_session_id: values.providerSessionId,
      status: 'created',
      url: values.url,
      reason: null,
      decided_at: null,
      created_at: values.now,
      updated_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The session a webhook is about, locked until the transaction ends (a second delivery waits here). */
export async function lockVerificationBySession(
  trx: Transaction<Database>,
  provider: string,
  providerSessionId: string,
): Promise<VerificationRow | undefined> {
  return trx
    .selectFrom('identity_verifications')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_session_id', '=', providerSessionId)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateVerification(
  trx: Transaction<Database>,
  id: string,
  change: { status: IdentitySessionStatus; reason: string | null; decidedAt: Date | null; now: Date },
): Promise<void> {
  await trx
    .updateTable('identity_verifications')
    .set({ status: change.status, reason: change.reason, decided_at: change.decidedAt, updated_at: change.now })
    .where('id', '=', id)
    .execute();
}

/** Whether another of the renter's sessions reached one of `statuses` after `decidedAt`. */
export async function hasLaterDecision(
  trx: Transaction<Database>,
  userId: string,
  exceptId: string,
  decidedAt: Date,
  statuses: readonly IdentitySessionStatus[],
): Promise<boolean> {
  const row = await trx
    .selectFrom('identity_verifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '!=', exceptId)
    .where('decided_at', '>', decidedAt)
    .where('status', 'in', statuses)
    .executeTakeFirst();
  return row !== undefined;
}

/** The renter's birthday, with their row locked until the transaction ends. */
export async function lockBirthday(trx: Transaction<Database>, userId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('users')
    .select(['birthday'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.birthday;
}

/** An approved license: its name, number and expiry, and the birthday on it when it has one. */
export async function recordApprovedLicense(
  trx: Transaction<Database>,
  userId: string,
  license: { name: string | null; number: string | null; validUntil: string | null; birthday: string | null },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      license_status: 'approved',
      license_name: license.name,
      license_number: license.number,
      license_expiration: license.validUntil,
      ...(license.birthday ? { birthday: license.birthday } : {}),
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

export async function setLicenseStatus(
  trx: Transaction<Database>,
  userId: string,
  status: LicenseStatusValue,
  now: Date,
): Promise<void> {
  await trx.updateTable('users').set({ license_status: status, updated_at: now }).where('id', '=', userId).execute();
}
