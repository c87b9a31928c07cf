import { useSyncExternalStore } from 'react';
import { WIDE_LAYOUT_MIN_PX } from '@ampere/domain/constants';

const WIDE = `(min-width: ${WIDE_LAYOUT_MIN_PX}px)`;

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isWide = () => window.matchMedia(WIDE).matches;

/**
 * The layout a page's first screen was drawn in on the server, which cannot see the window: its
 * guess from the request (apps/api, pages.ts), also what the browser hydrates that screen with.
 */
let drawnWide = false;
export function setServerLayout(wide: boolean): void {
  drawnWide = wide;
}
export const isWideWindow = isWide;

/**
 * Whether the window is wide enough for the desktop layout (spec: 768 px), known from the first
 * render. A guess corrected after mount drew a phone the wide layout first and then moved
 * everything under it (the search filters folded away under the renter's eyes).
 */
export function useWideLayout(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => drawnWide);
}
