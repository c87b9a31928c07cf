import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffMe } from '@ampere/domain/contract/ops';
import type { StaffAction } from '@ampere/domain/staff';
import { api } from './api.ts';

/** The signed-in staff member; a 401 (not signed in, or the passkey step not done) is an error. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => api<StaffMe>('/me'),
  retry: false,
  staleTime: 60_000,
  // Back at the tab after a while: an ended session shows the sign-in page at once, saying so.
  refetchOnWindowFocus: true,
});

/** The signed-in staff member, once the layout has them. */
export function useMe(): StaffMe {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('useMe needs the signed-in layout around it.');
  return data;
}

/** Whether the signed-in staff member's role allows the action: the console hides what it does not. */
export function useCan(): (action: StaffAction) => boolean {
  const me = useMe();
  return (action) => me.actions.includes(action);
}
