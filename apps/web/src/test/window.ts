/**
 * What jsdom lacks of a browser window that Mantine and the pages ask for: media queries answered
 * for a window width a test chooses (a wide desktop one unless told), resize observers that never
 * fire, and scrolling that does nothing. setup.ts installs them once per test file.
 */

const DESKTOP_WIDTH = 1280;
/** The window's width the media queries answer for. */
let windowWidth = DESKTOP_WIDTH;
const listeners = new Set<() => void>();

/** Answers `(min-width: …)` and `(max-width: …)` queries for the current width; anything else is false. */
function matches(query: string): boolean {
  const min = /min-width:\s*(\d+(?:\.\d+)?)(px|em)/.exec(query);
  const max = /max-width:\s*(\d+(?:\.\d+)?)(px|em)/.exec(query);
  const px = (m: RegExpExecArray) => Number(m[1]) * (m[2] === 'em' ? 16 : 1);
  if (!min && !max) return false;
  return (!min || windowWidth >= px(min)) && (!max || windowWidth <= px(max));
}

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

export function installWindowShims(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string): MediaQueryList => {
      const list = {
        media: query,
        get matches() {
          return matches(query);
        },
        onchange: null,
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
        addListener: (listener: () => void) => listeners.add(listener),
        removeListener: (listener: () => void) => listeners.delete(listener),
        dispatchEvent: () => false,
      };
      return list as unknown as MediaQueryList;
    },
  });
  globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
  // Pages bring messages into view; jsdom has no scrolling.
  Element.prototype.scrollIntoView ??= () => {};
  window.scrollTo = () => {};
}

/** Draws the page as in a window this wide from now on (the app's wide layout starts at 768 px). */
export function setWindowWidth(px: number): void {
  windowWidth = px;
  for (const listener of [...listeners]) listener();
}

/** Back to a desktop window, before each test. */
export const resetWindowWidth = () => setWindowWidth(DESKTOP_WIDTH);
