import type { Kysely } from 'kysely';
import { FLAG_DEFAULTS, type FlagKey } from '@ampere/domain/account';
import type { FlagValues } from '@ampere/domain/contract/account';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';

const isFlagKey = (key: string): key is FlagKey => Object.hasOwn(FLAG_DEFAULTS, key);

/**
 * The defaults with this renter's overrides laid over them. An override for an unknown flag, or
 * of another type than the default (a string where a boolean is expected), is ignored rather than
 * handed to the web, where it would misbehave.
 */
export function mergeFlags(overrides: { key: string; value: unknown }[]): FlagValues {
  const flags: Record<string, unknown> = { ...FLAG_DEFAULTS };
  for (const { key, value } of overrides) {
    if (isFlagKey(key) && typeof value === typeof FLAG_DEFAULTS[key]) flags[key] = value;
  }
  return flags as FlagValues;
}

export async function flagsFor(db: Kysely<Database>, userId: string | null): Promise<{ flags: FlagValues }> {
  return { flags: mergeFlags(userId ? await repo.overridesFor(db, userId) : []) };
}
