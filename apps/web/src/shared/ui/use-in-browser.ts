import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server draws a page's first screen and while the browser takes that screen over;
 * true otherwise. For what only the browser can produce (sanitised HTML needs its DOM), drawn
 * just after the take-over so both draw the same first screen (decision 046).
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
