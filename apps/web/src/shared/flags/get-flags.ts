import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { FLAG_DEFAULTS, FlagKey } from '@ampere/domain/account';
import type { FlagValues } from '@ampere/domain/contract/account';
import { api } from '../api/client.ts';
import { useSession } from '../auth/use-session.ts';

/**
 * Spec 3 defaults (FLAG_DEFAULTS in the domain package; its literal type makes the compiler hold
 * these values to it, without loading that module, and its phone library, on every page).
 */
export const flagDefaults: typeof FLAG_DEFAULTS = {
  'skip-damage-waiver': false,
  'button-background': '#0b3d2e',
  'icon-color': '#e6f7ef',
  'allow-add-card': true,
};

export const flagKeys = {
  all: ['flags'] as const,
  /** Spec 3: the flag service identifies the user by id, so each renter has their own answer. */
  forUser: (userId: string | null) => ['flags', userId ?? 'anonymous'] as const,
};

export const getFlags = async (signal?: AbortSignal) =>
  (await api<{ flags: FlagValues }>('/api/v1/flags', { signal })).flags;

export const flagsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: flagKeys.forUser(userId),
    queryFn: ({ signal }) => getFlags(signal),
    staleTime: 5 * 60_000,
  });

/** All flags, the spec's defaults until (or unless) the flag service answers. */
export function useFlags(): FlagValues {
  const userId = useSession()?.user?.id ?? null;
  const { data, error } = useQuery(flagsQueryOptions(userId));
  useEffect(() => {
    if (error) console.error('Could not load feature flags; using defaults', error);
  }, [error]);
  return data ?? flagDefaults;
}

export function useFlag<K extends FlagKey>(key: K): FlagValues[K] {
  return useFlags()[key];
}
