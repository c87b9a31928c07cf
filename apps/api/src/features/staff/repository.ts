import type { StaffRole } from '@ampere/domain/staff';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function staffByPhone(db: Db, phone: string) {
  return db
    .selectFrom('staff')
    .select(['id', 'phone', 'name', 'role', 'active'])
    .where('phone', '=', phone)
    .executeTakeFirst();
}

export function insertStaff(
  db: Db,
  row: { phone: string; name: string; role: StaffRole; invitedBy: string | null; now: Date },
) {
  return db
    .insertInto('staff')
    .values({ phone: row.phone, name: row.name, role: row.role, invited_by: row.invitedBy, created_at: row.now })
    .returning(['id', 'phone', 'name', 'role'])
    .executeTakeFirstOrThrow();
}

/** Every staff member, owners first, with whether they have a passkey yet. */
export function listStaff(db: Db) {
  return db
    .selectFrom('staff as s')
    .select(['s.id', 's.phone', 's.name', 's.role', 's.location_ids', 's.active', 's.created_at', 's.last_sign_in_at'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('staff_passkeys as p').select('p.credential_id').whereRef('p.staff_id', '=', 's.id'))
        .as('has_passkey'),
    )
    .orderBy('s.active', 'desc')
    .orderBy('s.role')
    .orderBy('s.name')
    .execute();
}

/** One staff member, locked until the transaction ends. */
export function lockStaff(db: Db, id: string) {
  return db
    .selectFrom('staff')
    .select(['id', 'phone', 'name', 'role', 'location_ids', 'active'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The active owners' ids, locked: the last one may be neither demoted nor deactivated. */
export async function lockActiveOwners(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('staff')
    .select('id')
    .where('role', '=', 'owner')
    .where('active', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

export function insertInvitedStaff(
  db: Db,
  row: { phone: string; name: string; role: StaffRole; locationIds: string[] | null; invitedBy: string; now: Date },
) {
  return db
    .insertInto('staff')
    .values({
      phone: row.phone,
      name: row.name,
      role: row.role,
      location_ids: row.locationIds,
      invited_by: row.invitedBy,
      created_at: row.now,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function updateStaff(
  db: Db,
  id: string,
  changes: { role?: StaffRole; locationIds?: string[] | null; active?: boolean },
): Promise<void> {
  await db
    .updateTable('staff')
    .set({
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.locationIds !== undefined ? { location_ids: changes.locationIds } : {}),
      ...(changes.active !== undefined ? { active: changes.active } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Ends every live session of a staff member at once. */
export async function revokeSessionsOf(db: Db, staffId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Which of these location ids exist. */
export async function existingLocationIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('locations').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/** Removes every passkey of a staff member; how many there were. */
export async function deletePasskeysOf(db: Db, staffId: string): Promise<number> {
  const result = await db.deleteFrom('staff_passkeys').where('staff_id', '=', staffId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
