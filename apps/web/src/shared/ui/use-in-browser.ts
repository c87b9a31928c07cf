import { startTransition, useEffect, useState } from 'react';

/** Whether the app runs in a browser and has taken over the screen the server drew (if it drew one). */
let running = false;

/** The browser draws the page afresh (no screen from the server to take over): running from the start. */
export function startWithoutTakeOver(): void {
  running = true;
}

/**
 * False while the server draws a page's first screen and while the browser takes that screen over;
 * true otherwise. For what only the browser can produce (sanitised HTML needs its DOM), drawn
 * just after the take-over so both draw the same first screen (decision 046).
 *
 * After a take-over it turns true from an effect, as a transition: React runs that in a task of its
 * own and draws the change in slices that yield to the renter, rather than in the take-over's
 * commit (decision 047). Whatever mounts later starts true.
 */
export function useInBrowser(): boolean {
  const [inBrowser, setInBrowser] = useState(running);
  useEffect(() => {
    running = true;
    if (!inBrowser) startTransition(() => setInBrowser(true));
    // Once: it only ever turns true.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return inBrowser;
}
