import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { User } from '@ampere/domain/contract/account';
import { api } from '../api/client.ts';
import { setSessionUser } from './session-store.ts';

export const userKeys = {
  all: ['users'] as const,
  current: (token: string) => ['users', 'current', token] as const,
};

export const getUser = async (signal?: AbortSignal) => (await api<{ user: User }>('/api/v1/users', { signal })).user;

export const userQueryOptions = (token: string) =>
  queryOptions({ queryKey: userKeys.current(token), queryFn: ({ signal }) => getUser(signal), retry: false });

/**
 * Spec 4: the user loads when a session is present. The answer refreshes the stored renter; a 401
 * clears the session (in the client), which sends a protected page to sign in.
 */
export function useUser(token: string | null) {
  const query = useQuery({ ...userQueryOptions(token ?? ''), enabled: !!token });
  useEffect(() => {
    if (query.data) setSessionUser(query.data);
  }, [query.data]);
  useEffect(() => {
    if (query.error) console.error('Could not load the signed-in renter', query.error);
  }, [query.error]);
  return query;
}
