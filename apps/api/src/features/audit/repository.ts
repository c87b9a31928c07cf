import type { AuditOutcome, StaffRole } from '@ampere/domain/staff';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The audit log (decision 079): one row per staff action or refused attempt, never changed or
 * removed (the database refuses it). Written in the transaction of the action it records, so an
 * action and its record land together or not at all; a refusal is written on its own.
 */
export interface AuditEntry {
  at: Date;
  staff: { id: string; role: StaffRole } | null;
  action: string;
  target?: { type: string; id: string };
  locationId?: string | null;
  before?: unknown;
  after?: unknown;
  sourceAddress?: string | null;
  outcome: AuditOutcome;
  reason?: string;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<number> {
  const row = await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      staff_id: entry.staff?.id ?? null,
      staff_role: entry.staff?.role ?? null,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      location_id: entry.locationId ?? null,
      before: json(entry.before),
      after: json(entry.after),
      source_address: entry.sourceAddress ?? null,
      outcome: entry.outcome,
      reason: entry.reason ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface AuditFilter {
  staffId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  /** Only records of these locations, and the reader's own: a manager of one city reads its log. */
  scope?: { locationIds: readonly string[]; staffId: string };
  /** Newest first, this many at most. */
  limit: number;
  /** Records older than this id (the next page). */
  before?: number;
}

export function listAudit(db: Kysely<Database>, filter: AuditFilter) {
  let q = db
    .selectFrom('audit_log as a')
    .leftJoin('staff as s', 's.id', 'a.staff_id')
    .selectAll('a')
    .select('s.name as staff_name')
    .orderBy('a.id', 'desc')
    .limit(filter.limit);
  if (filter.staffId) q = q.where('a.staff_id', '=', filter.staffId);
  if (filter.action) q = q.where('a.action', '=', filter.action);
  if (filter.targetType) q = q.where('a.target_type', '=', filter.targetType);
  if (filter.targetId) q = q.where('a.target_id', '=', filter.targetId);
  if (filter.outcome) q = q.where('a.outcome', '=', filter.outcome);
  if (filter.before !== undefined) q = q.where('a.id', '<', filter.before);
  const scope = filter.scope;
  if (scope)
    q = q.where((eb) =>
      eb.or([
        eb('a.staff_id', '=', scope.staffId),
        ...(scope.locationIds.length > 0 ? [eb('a.location_id', 'in', scope.locationIds)] : []),
      ]),
    );
  return q.execute();
}
