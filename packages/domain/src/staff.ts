/**
 * Staff of the operator console: their roles, what each role may do, where, and for how long a
 * staff session lasts (decision 079). One matrix, read by the ops API before every action (a
 * forbidden one answers 403 and is audited) and by the console to hide what a role cannot do.
 */

/** Spec-free, as a rental company staffs a lot: the owner, a manager per city, the front desk, a read-only seat. */
export const STAFF_ROLES = ['owner', 'manager', 'agent', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  agent: 'Front desk',
  viewer: 'Viewer',
};

/** Everything a staff member can do in the console, each with what the audit log calls it. */
export const STAFF_ACTIONS = {
  // The day
  'today.read': 'See the day’s pickups and returns',
  'trips.read': 'Look up trips and renters',
  // The fleet
  'fleet.read': 'See the cars',
  'cars.create': 'Add a car',
  'cars.edit': 'Edit a car',
  'cars.retire': 'Retire a car',
  'fleet.import': 'Import cars from a CSV file',
  'fleet.export': 'Export the fleet as a CSV file',
  'photos.upload': 'Upload a car’s photos',
  'photos.delete': 'Remove a car’s photo',
  'holds.create': 'Put a car on hold',
  'holds.edit': 'Change or end a hold',
  'locations.edit': 'Edit a location',
  // After the trip (part 2)
  'inspections.record': 'Record an inspection',
  'charges.post': 'Post a charge after a trip',
  'disputes.decide': 'Accept or reject a disputed charge',
  'deposits.release': 'Release a deposit hold',
  'deposits.capture': 'Capture part of a deposit hold',
  'refunds.issue': 'Refund a payment',
  'verifications.review': 'Review a renter’s verification',
  // The key and the car (issue 30 §5)
  'keys.manage': 'Pause, resume, revoke or replace a trip’s key',
  'cars.command': 'Lock or unlock a trip’s car',
  'support.resolve': 'Close a support note',
  // Renters (issue 30 §4)
  'renters.message': 'Text a renter',
  'donotrent.edit': 'Add a renter to the do-not-rent list or lift them off it',
  // Staff and the log
  'staff.read': 'See the staff list',
  'staff.invite': 'Invite staff',
  'staff.edit': 'Change a staff member’s role or locations',
  'staff.deactivate': 'Deactivate a staff member',
  'audit.read': 'Read the audit log',
} as const;
export type StaffAction = keyof typeof STAFF_ACTIONS;

/**
 * The steps of signing in, written to the audit log beside the actions (decision 081); they need
 * no permission, so they are not in the matrix.
 */
export const SIGN_IN_AUDIT_ACTIONS = {
  'staff.sign_in': 'Sign in with a texted code',
  'staff.passkey_register': 'Register a passkey',
  'staff.passkey_sign_in': 'Sign in with a passkey',
  'staff.sign_out': 'Sign out',
  'staff.create_owner': 'Make the first owner',
} as const;
export type SignInAuditAction = keyof typeof SIGN_IN_AUDIT_ACTIONS;
export const STAFF_ACTION_IDS = Object.keys(STAFF_ACTIONS) as StaffAction[];

const EVERYONE: readonly StaffRole[] = ['owner', 'manager', 'agent', 'viewer'];
const DESK: readonly StaffRole[] = ['owner', 'manager', 'agent'];
const MANAGERS: readonly StaffRole[] = ['owner', 'manager'];
const OWNER: readonly StaffRole[] = ['owner'];

/**
 * Who may do what. The front desk runs the day (holds for cleaning or charging, inspections, photos,
 * a charge with its evidence); managers run the fleet and the money within their limit; only the
 * owner manages staff. A viewer reads.
 */
export const PERMISSIONS: Record<StaffAction, readonly StaffRole[]> = {
  'today.read': EVERYONE,
  'trips.read': EVERYONE,
  'fleet.read': EVERYONE,
  'cars.create': MANAGERS,
  'cars.edit': MANAGERS,
  'cars.retire': MANAGERS,
  'fleet.import': MANAGERS,
  'fleet.export': MANAGERS,
  'photos.upload': DESK,
  'photos.delete': MANAGERS,
  'holds.create': DESK,
  'holds.edit': DESK,
  'locations.edit': MANAGERS,
  'inspections.record': DESK,
  'charges.post': DESK,
  'disputes.decide': MANAGERS,
  'deposits.release': MANAGERS,
  'deposits.capture': MANAGERS,
  'refunds.issue': MANAGERS,
  'verifications.review': DESK,
  'keys.manage': DESK,
  'cars.command': DESK,
  'support.resolve': DESK,
  'renters.message': DESK,
  'donotrent.edit': MANAGERS,
  'staff.read': MANAGERS,
  'staff.invite': OWNER,
  'staff.edit': OWNER,
  'staff.deactivate': OWNER,
  'audit.read': MANAGERS,
};

export const can = (role: StaffRole, action: StaffAction): boolean => PERMISSIONS[action].includes(role);

/** The most one refund may return, by role; null: no limit. A role that cannot refund has 0. */
export const REFUND_LIMIT_CENTS: Record<StaffRole, number | null> = {
  owner: null,
  manager: 50_000,
  agent: 0,
  viewer: 0,
};

/** Whether `role` may refund `cents` in one refund. */
export function mayRefund(role: StaffRole, cents: number): boolean {
  if (!can(role, 'refunds.issue')) return false;
  const limit = REFUND_LIMIT_CENTS[role];
  return limit === null || cents <= limit;
}

/** The staff member an action is checked for: their role and the locations they work at. */
export interface StaffScope {
  role: StaffRole;
  /** The locations they may see and act on; an owner's, or an 'all' grant, is every location. */
  locationIds: readonly string[] | 'all';
}

/** Whether the staff member may see and act on what belongs to `locationId`. */
export function inScope(staff: StaffScope, locationId: string): boolean {
  return staff.role === 'owner' || staff.locationIds === 'all' || staff.locationIds.includes(locationId);
}

/** The roles an inviter may give: the owner invites anyone, including another owner; nobody else invites. */
export function invitableRoles(inviter: StaffRole): readonly StaffRole[] {
  return can(inviter, 'staff.invite') ? STAFF_ROLES : [];
}

/**
 * Staff sessions are shorter than a renter's day: they end after 30 minutes without use, and
 * 12 hours (a long shift) after signing in, however busy.
 */
export const STAFF_SESSION_IDLE_MINUTES = 30;
export const STAFF_SESSION_MAX_HOURS = 12;

/** When a staff session signed in at `signedInAt` and last used at `lastUsedAt` ends. */
export function staffSessionEndsAt(signedInAt: Date, lastUsedAt: Date): Date {
  const idle = lastUsedAt.getTime() + STAFF_SESSION_IDLE_MINUTES * 60_000;
  const max = signedInAt.getTime() + STAFF_SESSION_MAX_HOURS * 3_600_000;
  return new Date(Math.min(idle, max));
}

/** An audit record's outcome: the action done, or refused (by the matrix, the scope, or bad input). */
export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
