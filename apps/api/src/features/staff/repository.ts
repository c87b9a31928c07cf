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
