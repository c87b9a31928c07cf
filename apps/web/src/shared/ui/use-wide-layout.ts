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
 * Whether the window is wide enough for the desktop layout (spec: 768 px), known from the first
 * render. A guess corrected after mount drew a phone the wide layout first and then moved
 * everything under it (the search filters folded away under the renter's eyes).
 */
export function useWideLayout(): boolean {
  return useSyncExternalStore(subscribe, isWide);
}
