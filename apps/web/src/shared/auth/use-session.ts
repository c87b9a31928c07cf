import { useSyncExternalStore } from 'react';
import { type Session, getDrawnSession, getSession, subscribeSession } from './session-store.ts';

/** The live session (null when signed out or expired); re-renders when it changes, in any tab. */
export function useSession(): Session | null {
  // A screen drawn on the server is drawn, and taken over, with the session it was drawn for.
  return useSyncExternalStore(subscribeSession, getSession, getDrawnSession);
}
