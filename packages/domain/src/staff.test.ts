import { describe, expect, it } from 'vitest';
import {
  PERMISSIONS,
  STAFF_ACTION_IDS,
  STAFF_ROLES,
  type StaffAction,
  type StaffRole,
  can,
  inScope,
  invitableRoles,
  mayRefund,
  staffSessionEndsAt,
} from './staff.ts';

/** The matrix as a table a manager would read: for each action, who may do it. */
const EXPECTED: Record<StaffAction, string> = {
  'today.read': 'owner manager agent viewer',
  'trips.read': 'owner manager agent viewer',
  'fleet.read': 'owner manager agent viewer',
  'cars.create': 'owner manager',
  'cars.edit': 'owner manager',
  'cars.retire': 'owner manager',
  'fleet.import': 'owner manager',
  'fleet.export': 'owner manager',
  'photos.upload': 'owner manager agent',
  'photos.delete': 'owner manager',
  'holds.create': 'owner manager agent',
  'holds.edit': 'owner manager agent',
  'locations.edit': 'owner manager',
  'inspections.record': 'owner manager agent',
  'charges.post': 'owner manager agent',
  'disputes.decide': 'owner manager',
  'deposits.release': 'owner manager',
  'deposits.capture': 'owner manager',
  'refunds.issue': 'owner manager',
  'verifications.review': 'owner manager agent',
  'keys.manage': 'owner manager agent',
  'cars.command': 'owner manager agent',
  'support.resolve': 'owner manager agent',
  'renters.message': 'owner manager agent',
  'donotrent.edit': 'owner manager',
  'staff.read': 'owner manager',
  'staff.invite': 'owner',
  'staff.edit': 'owner',
  'staff.deactivate': 'owner',
  'audit.read': 'owner manager',
};

describe('the staff permission matrix', () => {
  it('names every action once, each with the roles a rental company would give it', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual([...STAFF_ACTION_IDS].sort());
    for (const action of STAFF_ACTION_IDS)
      expect(STAFF_ROLES.filter((r) => can(r, action)).join(' '), action).toBe(EXPECTED[action]);
  });

  it('gives the owner everything, and a viewer nothing that changes anything', () => {
    for (const action of STAFF_ACTION_IDS) {
      expect(can('owner', action), action).toBe(true);
      if (!action.endsWith('.read')) expect(can('viewer', action), action).toBe(false);
    }
  });

  it('never lets a role do more than the role above it', () => {
    const order: StaffRole[] = ['viewer', 'agent', 'manager', 'owner'];
    for (const action of STAFF_ACTION_IDS)
      for (let i = 0; i + 1 < order.length; i++)
        if (can(order[i]!, action)) expect(can(order[i + 1]!, action), `${order[i + 1]} ${action}`).toBe(true);
  });
});

describe('refund limits', () => {
  it('lets the front desk refund nothing, a manager up to $500.00 at once, and the owner any amount', () => {
    expect(mayRefund('agent', 1)).toBe(false);
    expect(mayRefund('viewer', 1)).toBe(false);
    expect(mayRefund('manager', 50_000)).toBe(true);
    expect(mayRefund('manager', 50_001)).toBe(false);
    expect(mayRefund('owner', 5_000_000)).toBe(true);
  });
});

describe('location scope', () => {
  it('keeps a manager of one city to its lots, and lets the owner and an all-locations grant see every lot', () => {
    expect(inScope({ role: 'manager', locationIds: ['nashville'] }, 'nashville')).toBe(true);
    expect(inScope({ role: 'manager', locationIds: ['nashville'] }, 'austin')).toBe(false);
    expect(inScope({ role: 'agent', locationIds: [] }, 'austin')).toBe(false);
    expect(inScope({ role: 'viewer', locationIds: 'all' }, 'austin')).toBe(true);
    expect(inScope({ role: 'owner', locationIds: [] }, 'austin')).toBe(true);
  });

  it('lets only the owner invite, to any role', () => {
    expect(invitableRoles('owner')).toEqual(STAFF_ROLES);
    expect(invitableRoles('manager')).toEqual([]);
    expect(invitableRoles('agent')).toEqual([]);
  });
});

describe('staff sessions', () => {
  const signedIn = new Date('2027-03-14T08:00:00Z');
  it('end 30 minutes after their last use', () => {
    expect(staffSessionEndsAt(signedIn, new Date('2027-03-14T09:10:00Z')).toISOString()).toBe(
      '2027-03-14T09:40:00.000Z',
    );
  });
  it('end 12 hours after signing in, however busy', () => {
    expect(staffSessionEndsAt(signedIn, new Date('2027-03-14T19:50:00Z')).toISOString()).toBe(
      '2027-03-14T20:00:00.000Z',
    );
  });
});
