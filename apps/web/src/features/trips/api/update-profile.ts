import type { QueryClient } from '@tanstack/react-query';
import type { ProfilePatchBody, User } from '@ampere/domain/contract/account';
import { api } from '../../../shared/api/client.ts';
import { userKeys } from '../../../shared/auth/get-user.ts';
import { setSessionUser } from '../../../shared/auth/session-store.ts';

/** PATCH /api/v1/users/profile; the stored renter and the cached user follow the answer. */
export async function updateProfile(queryClient: QueryClient, body: ProfilePatchBody): Promise<User> {
  const { user } = await api<{ user: User }>('/api/v1/users/profile', { method: 'PATCH', body });
  setSessionUser(user);
  queryClient.setQueriesData<User>({ queryKey: userKeys.all }, user);
  return user;
}
