import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { clearSession, getSession } from '../../../shared/auth/session-store.ts';

/** POST /api/v1/auth/logout: revokes the session on the server. Failures are logged and ignored. */
export async function revokeSession(): Promise<void> {
  if (!getSession()) return;
  try {
    await api<{ ok: true }>('/api/v1/auth/logout', { method: 'POST' });
  } catch (err) {
    console.error('Could not revoke the session; clearing it here anyway', err);
  }
}

/** Spec 2: logout clears the user and session (and everything cached for them). */
export function forgetSession(queryClient: QueryClient): void {
  clearSession();
  queryClient.clear();
}
