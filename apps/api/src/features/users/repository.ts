import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Database, UserTable } from '../../db/schema.ts';
import { effectiveInsuranceStatus } from '@ampere/domain/renter-review';
import { insurancePassedByStaff, licenseOverrideOf } from '../renter-review/gates-repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The columns a renter may see; gateway ids and bookkeeping columns stay inside. */
export const USER_COLUMNS = [
  'id',
  'stytch_user_id',
  'phone',
  'first_name',
  'last_name',
  'email',
  'birthday',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip_code',
  'country',
  'license_name',
  'license_number',
  'license_expiration',
  'license_status',
  'created_at',
] as const;

/** Whether staff let the renter's newest failed license check through (decision 094). */
const licenseOverride = () => licenseOverrideOf('users.id').as('license_override');

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

export async function findUserById(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select([...USER_COLUMNS, licenseOverride()])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findUserByPhone(db: Db, phone: string) {
  return db
    .selectFrom('users')
    .select([...USER_COLUMNS, licenseOverride()])
    .where('phone', '=', phone)
    .executeTakeFirst();
}

export type ProfileChanges = Pick<
  Updateable<UserTable>,
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'birthday'
  | 'address_line1'
  | 'address_line2'
  | 'city'
  | 'state'
  | 'zip_code'
  | 'country'
>;

/**
 * Applies the changes and answers the renter as they now are, with the birthday they had before.
 * A query does not see its own statement's writes: the subquery reads the row as it was.
 */
export async function updateUser(db: Db, id: string, changes: ProfileChanges, now: Date) {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning([
      ...USER_COLUMNS,
      licenseOverride(),
      (eb) =>
        eb
          .selectFrom('users as before')
          .select('before.birthday')
          .whereRef('before.id', '=', 'users.id')
          .as('birthday_before'),
    ])
    .executeTakeFirst();
}

export async function recentInsuranceVerifications(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'status', 'carrier', 'policy_number', 'created_at'])
    .select(insurancePassedByStaff('insurance_verifications.id').as('passed_by_staff'))
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
    .then((rows) =>
      rows.map(({ passed_by_staff, ...r }) => ({ ...r, status: effectiveInsuranceStatus(r.status, passed_by_staff) })),
    );
}
