import { z } from './zod.ts';
import { STAFF_ROLES } from '../staff.ts';

/**
 * The operator console's calls (issue 29): every one under OPS_API, answered in the renter API's
 * error shape. A staff session travels only in the OPS_SESSION_COOKIE cookie (HttpOnly,
 * SameSite=Strict), never in the renter's session header, so neither session opens the other's routes.
 */
export const OPS_API = '/api/ops/v1';
export const OPS_SESSION_COOKIE = 'ampere_ops_session';
/** Where the console is served. */
export const OPS_BASE = '/ops';

export const StaffRoleSchema = z.enum(STAFF_ROLES);

/** The signed-in staff member, as the console shows them and hides what their role cannot do. */
export const StaffMe = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  role: StaffRoleSchema,
  /** The locations they work at; 'all' for every location. */
  locationIds: z.union([z.array(z.string()), z.literal('all')]),
  /** The actions their role may take (the permission matrix, read for them). */
  actions: z.array(z.string()),
  /** When the session ends unless used before then. */
  sessionEndsAt: z.string(),
});
export type StaffMe = z.infer<typeof StaffMe>;

/** The audit log page's filters; newest first, a page at a time. */
export const AuditQuery = z
  .object({
    staffId: z.uuid().optional(),
    action: z.string().max(60).optional(),
    targetType: z.string().max(40).optional(),
    targetId: z.string().max(200).optional(),
    outcome: z.enum(['success', 'failure']).optional(),
    /** Records older than this id: the next page. */
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const AuditRecord = z.object({
  id: z.number(),
  at: z.string(),
  staffId: z.string().nullable(),
  staffName: z.string().nullable(),
  staffRole: StaffRoleSchema.nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  locationId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  sourceAddress: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  reason: z.string().nullable(),
});
export const AuditPage = z.object({
  records: z.array(AuditRecord),
  /** The `before` of the next page; null on the last. */
  next: z.number().nullable(),
});
