import type { z } from 'zod';
import type { AuditPage } from '@ampere/domain/contract/ops';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type AuditFilter, listAudit } from './repository.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

/** A page of the audit log, newest first, with the `before` of the next page. */
export async function readAuditLog(
  db: Kysely<Database>,
  filter: Omit<AuditFilter, 'limit'> & { limit: number },
): Promise<z.input<typeof AuditPage>> {
  const rows = await listAudit(db, { ...filter, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  return {
    records: page.map((row) => ({
      id: Number(row.id),
      at: iso(row.at),
      staffId: row.staff_id,
      staffName: row.staff_name,
      staffRole: row.staff_role,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      locationId: row.location_id,
      before: row.before,
      after: row.after,
      sourceAddress: row.source_address,
      outcome: row.outcome,
      reason: row.reason,
    })),
    next: rows.length > filter.limit ? Number(page.at(-1)!.id) : null,
  };
}
