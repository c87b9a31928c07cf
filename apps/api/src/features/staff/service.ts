import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import type { StaffEditBody, StaffInviteBody, StaffMember } from '@ampere/domain/contract/ops-staff';
import { STAFF_ROLE_LABELS, type StaffRole } from '@ampere/domain/staff';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { maskPhone, parsePhone } from '../auth/service.ts';
import type { SmsSender } from '../auth/sms-sender.ts';
import * as repo from './repository.ts';

export const STAFF_MESSAGES = {
  lastOwner: 'This is the last active owner: make someone else an owner first, so the console always has one.',
  alreadyStaff: (phone: string, role: StaffRole) =>
    `${phone} is already on the staff (${STAFF_ROLE_LABELS[role]}): change their role in the list instead.`,
  notFound: 'No staff member has that id.',
  alreadyInactive: 'This staff member is already deactivated.',
  inactive: 'This staff member is deactivated: their role, locations and passkey can no longer change.',
  noPasskey: 'This staff member has no passkey yet: they create one at their next sign-in.',
  unknownLocations: (ids: string[]) => `No location has the id ${ids.join(', ')}: choose from the locations listed.`,
} as const;

type Row = Awaited<ReturnType<typeof repo.listStaff>>[number];
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toMember(row: Row): z.input<typeof StaffMember> {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    role: row.role,
    locationIds: row.role === 'owner' || row.location_ids === null ? 'all' : row.location_ids,
    active: row.active,
    hasPasskey: Boolean(row.has_passkey),
    createdAt: iso(row.created_at)!,
    lastSignInAt: iso(row.last_sign_in_at),
  };
}

/** What a staff member's locations are stored as: null for every location (and always for an owner). */
const storedLocations = (role: StaffRole, ids: string[] | 'all') => (role === 'owner' || ids === 'all' ? null : ids);

async function checkLocations(db: Kysely<Database>, ids: string[] | 'all' | undefined): Promise<void> {
  if (ids === undefined || ids === 'all') return;
  const wanted = [...new Set(ids.map(Number))];
  const found = new Set(await repo.existingLocationIds(db, wanted));
  const missing = wanted.filter((id) => !found.has(id)).map(String);
  if (missing.length > 0) throw unprocessable(STAFF_MESSAGES.unknownLocations(missing), 'locationIds');
}

export interface StaffServiceDeps {
  db: Kysely<Database>;
  sms: SmsSender;
  smsAllowedCountries: readonly string[];
}

export function createStaffService(deps: StaffServiceDeps) {
  const { db, sms } = deps;

  /**
   * The staff list as the reader may see it: everyone for whoever works everywhere; for a manager of
   * some locations, those who work at one of them, and those who work everywhere (whom they report to).
   */
  async function list(ops: OpsContext): Promise<{ staff: z.input<typeof StaffMember>[] }> {
    const rows = await repo.listStaff(db);
    const mine = ops.staff.locationIds;
    const seen =
      mine === 'all'
        ? rows
        : rows.filter(
            (r) => r.role === 'owner' || r.location_ids === null || r.location_ids.some((id) => mine.includes(id)),
          );
    return { staff: seen.map(toMember) };
  }

  async function memberById(id: string): Promise<z.input<typeof StaffMember>> {
    const row = (await repo.listStaff(db)).find((r) => r.id === id);
    if (!row) throw notFound(STAFF_MESSAGES.notFound);
    return toMember(row);
  }

  /** Adds a staff member and texts them the console's address; they sign in with their own phone. */
  async function invite(
    ops: OpsContext,
    body: z.output<typeof StaffInviteBody>,
    consoleUrl: string,
    log: FastifyBaseLogger,
  ) {
    const phone = parsePhone(body.phone, deps.smsAllowedCountries);
    await checkLocations(db, body.role === 'owner' ? 'all' : body.locationIds);
    const id = await transact(db, async (trx) => {
      const known = await repo.staffByPhone(trx, phone);
      if (known) throw new AppError('CONFLICT', STAFF_MESSAGES.alreadyStaff(phone, known.role), 'phone');
      const locationIds = storedLocations(body.role, body.locationIds);
      const row = await repo.insertInvitedStaff(trx, {
        phone,
        name: body.name,
        role: body.role,
        locationIds,
        invitedBy: ops.staff.id,
        now: ops.now,
      });
      await ops.audit(trx, {
        target: { type: 'staff', id: row.id },
        after: { phone, name: body.name, role: body.role, locationIds: locationIds ?? 'all' },
      });
      return row.id;
    });
    const message =
      `${ops.staff.name} invited you to the ${PRODUCT_NAME} operator console as ${STAFF_ROLE_LABELS[body.role]}. ` +
      `Open ${consoleUrl} and sign in with this phone number.`;
    let invitationSent = true;
    try {
      await sms.send(phone, message);
    } catch (err) {
      invitationSent = false;
      log.warn({ err, to: maskPhone(phone) }, 'staff invitation not sent');
    }
    return { staff: await memberById(id), invitationSent };
  }

  /** Changes a role or locations; the last active owner stays an owner. */
  async function edit(ops: OpsContext, staffId: string, body: z.output<typeof StaffEditBody>) {
    await checkLocations(db, body.locationIds);
    await transact(db, async (trx) => {
      const owners = await repo.lockActiveOwners(trx);
      const member = await repo.lockStaff(trx, staffId);
      if (!member) throw notFound(STAFF_MESSAGES.notFound);
      if (!member.active) throw new AppError('CONFLICT', STAFF_MESSAGES.inactive);
      const role = body.role ?? member.role;
      if (member.role === 'owner' && role !== 'owner' && owners.filter((id) => id !== member.id).length === 0)
        throw new AppError('CONFLICT', STAFF_MESSAGES.lastOwner, 'role');
      const locationIds =
        body.locationIds !== undefined
          ? storedLocations(role, body.locationIds)
          : role === 'owner'
            ? null
            : member.location_ids;
      await repo.updateStaff(trx, member.id, { role, locationIds });
      await ops.audit(trx, {
        target: { type: 'staff', id: member.id },
        before: { role: member.role, locationIds: member.location_ids ?? 'all' },
        after: { role, locationIds: locationIds ?? 'all' },
      });
    });
    return memberById(staffId);
  }

  /** Deactivates a staff member and ends their sessions at once; the last active owner stays. */
  async function deactivate(ops: OpsContext, staffId: string) {
    await transact(db, async (trx) => {
      const owners = await repo.lockActiveOwners(trx);
      const member = await repo.lockStaff(trx, staffId);
      if (!member) throw notFound(STAFF_MESSAGES.notFound);
      if (!member.active) throw new AppError('CONFLICT', STAFF_MESSAGES.alreadyInactive);
      if (member.role === 'owner' && owners.filter((id) => id !== member.id).length === 0)
        throw new AppError('CONFLICT', STAFF_MESSAGES.lastOwner);
      await repo.updateStaff(trx, member.id, { active: false });
      const ended = await repo.revokeSessionsOf(trx, member.id, ops.now);
      await ops.audit(trx, {
        target: { type: 'staff', id: member.id },
        before: { active: true },
        after: { active: false, sessionsEnded: ended },
      });
    });
    return memberById(staffId);
  }

  /**
   * A lost or replaced device: the staff member's passkeys are removed and their sessions ended, so
   * their next sign-in (code first) registers a new passkey.
   */
  async function resetPasskeys(ops: OpsContext, staffId: string) {
    await transact(db, async (trx) => {
      const member = await repo.lockStaff(trx, staffId);
      if (!member) throw notFound(STAFF_MESSAGES.notFound);
      if (!member.active) throw new AppError('CONFLICT', STAFF_MESSAGES.inactive);
      const removed = await repo.deletePasskeysOf(trx, member.id);
      if (removed === 0) throw new AppError('CONFLICT', STAFF_MESSAGES.noPasskey);
      const ended = await repo.revokeSessionsOf(trx, member.id, ops.now);
      await ops.audit(trx, {
        target: { type: 'staff', id: member.id },
        before: { passkeys: removed },
        after: { passkeys: 0, sessionsEnded: ended },
      });
    });
    return memberById(staffId);
  }

  return { list, invite, edit, deactivate, resetPasskeys };
}
