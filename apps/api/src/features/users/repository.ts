import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Database, UserTable } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The columns a renter may see; gateway ids and bookkeeping columns stay inside. */
const USER_COLUMNS = [
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

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

export async function findUserById(db: Db, id: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findUserByPhone(db: Db, phone: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('phone', '=', phone).executeTakeFirst();
}

/** Inserts the renter unless one with this phone exists (then nothing happens). */
export async function insertUserIfAbsent(
  db: Db,
  values: { stytch_user_id: string; phone: string; now: Date },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      stytch_user_id: values.stytch_user_id,
      phone: values.phone,
      created_at: values.now,
      updated_at: values.now,
    })
    .onConflict((oc) => oc.column('phone').doNothing())
    .execute();
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

export async function updateUser(db: Db, id: string, changes: ProfileChanges, now: Date) {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning(USER_COLUMNS)
    .executeTakeFirst();
}

export async function recentInsuranceVerifications(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('insurance_verifications')
    .select(['id', 'status', 'carrier', 'policy_number', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** What the key rules need to know of the renter's driver's license. */
export function licenseOf(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['license_number', 'license_expiration', 'license_status'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
