import { useDeferredValue } from 'react';

/**
 * A read's data for drawing a page. Data already at hand when the page opens is drawn at once (no
 * placeholder flashes); data that arrives later is drawn as a transition, in slices the browser can
 * interleave with other work, while the placeholder stays a moment longer, instead of in one long
 * task the moment it lands.
 */
export function useDeferredData<T>(data: T | undefined): T | null {
  return useDeferredValue(data ?? null, data ?? null);
}
