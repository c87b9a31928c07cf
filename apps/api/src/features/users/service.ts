import type { Kysely, Transaction } from 'kysely';
import { birthdayError, countryError, emailError, stateError, zipError } from '@ampere/domain/account';
import type { ProfilePatchBody, User } from '@ampere/domain/contract/account';
import { todayIn } from '@ampere/domain/time';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { invalid, signedOut } from '../../http/errors.ts';
import * as repo from './repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The zone whose calendar decides "today" for the minimum-age rule. The fleet's home market is
 * Central time (most cities are in it and the rest are within two hours), so this is the date on
 * the renter's own calendar nearly always; UTC would turn 18 a renter in the US evening up to six
 * hours before their birthday begins where they live.
 */
export const AGE_RULE_TIME_ZONE = 'America/Chicago';

/** Insurance connections listed on the profile. */
export const RECENT_INSURANCE_LIMIT = 10;

export function toUser(row: repo.UserRow): User {
  return {
    id: row.id,
    stytch_user_id: row.stytch_user_id,
    phone: row.phone,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    birthday: row.birthday,
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    city: row.city,
    state: row.state,
    zip_code: row.zip_code,
    country: row.country,
    license_name: row.license_name,
    license_number: row.license_number,
    license_expiration: row.license_expiration,
    license_status: row.license_status,
    license_override: row.license_override,
    created_at: new Date(row.created_at).toISOString(),
  };
}

async function requireUser(db: Db, userId: string): Promise<repo.UserRow> {
  const row = await repo.findUserById(db, userId);
  // A session outliving its account: treat it as signed out.
  if (!row) throw signedOut();
  return row;
}

export async function getUser(db: Db, userId: string): Promise<{ user: User }> {
  return { user: toUser(await requireUser(db, userId)) };
}

/** '' and null both mean "clear it". */
const cleared = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;

/** Checks every field sent and turns the patch into column values; the first problem is a 400 naming its field. */
export function profileChanges(patch: ProfilePatchBody, now: Date): repo.ProfileChanges {
  const changes: repo.ProfileChanges = {};
  if (patch.first_name !== undefined) changes.first_name = patch.first_name;
  if (patch.last_name !== undefined) changes.last_name = patch.last_name;
  if (patch.email !== undefined) {
    const problem = emailError(patch.email);
    if (problem) throw invalid(problem, 'email');
    changes.email = patch.email;
  }
  if (patch.birthday !== undefined) {
    const problem = birthdayError(patch.birthday, todayIn(now, AGE_RULE_TIME_ZONE));
    if (problem) throw invalid(problem, 'birthday');
    changes.birthday = patch.birthday;
  }
  if (patch.address_line1 !== undefined) changes.address_line1 = cleared(patch.address_line1);
  if (patch.address_line2 !== undefined) changes.address_line2 = cleared(patch.address_line2);
  if (patch.city !== undefined) changes.city = cleared(patch.city);
  if (patch.state !== undefined) {
    const state = cleared(patch.state);
    if (state !== null) {
      const problem = stateError(state);
      if (problem) throw invalid(problem, 'state');
    }
    changes.state = state?.toUpperCase() ?? null;
  }
  if (patch.zip_code !== undefined) {
    const zip = cleared(patch.zip_code);
    if (zip !== null) {
      const problem = zipError(zip);
      if (problem) throw invalid(problem, 'zip_code');
    }
    changes.zip_code = zip;
  }
  if (patch.country !== undefined) {
    const country = cleared(patch.country);
    if (country !== null) {
      const problem = countryError(country);
      if (problem) throw invalid(problem, 'country');
    }
    changes.country = country?.toLowerCase() ?? null;
  }
  return changes;
}

/**
 * PATCH /api/v1/users/profile. A changed birthday can change what the renter's trips owe (the
 * underage fee): `onBirthdayChange` runs in the same transaction as the update, so the fee and the
 * retiring of any charge for the old amount commit with the birthday or not at all.
 */
export async function updateProfile(
  db: Kysely<Database>,
  userId: string,
  patch: ProfilePatchBody,
  now: Date,
  onBirthdayChange?: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<{ user: User }> {
  const changes = profileChanges(patch, now);
  if (Object.keys(changes).length === 0) return getUser(db, userId);
  return transact(db, async (trx) => {
    const updated = await repo.updateUser(trx, userId, changes, now);
    if (!updated) throw signedOut();
    const { birthday_before, ...row } = updated;
    if (onBirthdayChange && changes.birthday !== undefined && birthday_before !== row.birthday)
      await onBirthdayChange(trx);
    return { user: toUser(row) };
  });
}

export async function recentInsurance(db: Kysely<Database>, userId: string) {
  const [user, rows] = await Promise.all([
    requireUser(db, userId),
    repo.recentInsuranceVerifications(db, userId, RECENT_INSURANCE_LIMIT),
  ]);
  return {
    insurance_verifications: rows.map((r) => ({
      id: r.id,
      status: r.status,
      created_at: new Date(r.created_at).toISOString(),
      policies:
        r.carrier && r.policy_number ? [{ axle_policy_carrier: r.carrier, axle_policy_number: r.policy_number }] : [],
    })),
    user: toUser(user),
  };
}
