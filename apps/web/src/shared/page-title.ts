import { useEffect, useSyncExternalStore } from 'react';

/**
 * A page's own title, for when what it shows is not what its route says: a car page that found no
 * car is a not-found page and must not be titled 'Vehicle NOTAVIN123'. The root layout prefers it
 * to the route's title while the page that set it is on screen.
 */
let override: string | null = null;
const listeners = new Set<() => void>();

function set(title: string | null) {
  override = title;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Sets the title (without the product suffix) while the calling component is mounted. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    set(title);
    return () => set(null);
  }, [title]);
}

/** The title a page set, or null to use the route's. */
export function usePageTitleOverride(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => override,
    () => null,
  );
}
