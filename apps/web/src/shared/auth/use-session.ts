import { useSyncExternalStore } from 'react';
import { type Session, getSession, subscribeSession } from './session-store.ts';

/** The live session (null when signed out or expired); re-renders when it changes, in any tab. */
export function useSession(): Session | null {
  // The server draws only signed-out screens (main.tsx hydrates one only when signed out).
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}
