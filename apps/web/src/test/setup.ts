/**
 * Setup for the component tests (`*.component.test.tsx`, Vitest's `component` project, jsdom).
 * jsdom draws nothing and measures nothing: what Mantine and the pages ask of a real browser's
 * layout is answered here, once, with what a wide desktop window would say.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSession } from '../shared/auth/session-store.ts';

// On a busy machine (two cores, several suites) a page's answers can take more than the default
// second to land: waiting longer costs a passing test nothing.
configure({ asyncUtilTimeout: 5_000 });

/** The window's width the media queries answer for; a test may narrow it (`setWindowWidth`). */
let windowWidth = 1280;
const listeners = new Set<() => void>();

/** Answers `(min-width: …)` and `(max-width: …)` queries for the current width; anything else is false. */
function matches(query: string): boolean {
  const min = /min-width:\s*(\d+(?:\.\d+)?)(px|em)/.exec(query);
  const max = /max-width:\s*(\d+(?:\.\d+)?)(px|em)/.exec(query);
  const px = (m: RegExpExecArray) => Number(m[1]) * (m[2] === 'em' ? 16 : 1);
  if (!min && !max) return false;
  return (!min || windowWidth >= px(min)) && (!max || windowWidth <= px(max));
}

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

/** Draws the page as in a window this wide (the app's wide layout starts at 768 px). */
export function setWindowWidth(px: number): void {
  windowWidth = px;
  for (const listener of [...listeners]) listener();
}

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
// Pages bring messages into view; jsdom has no scrolling.
Element.prototype.scrollIntoView ??= () => {};
window.scrollTo = () => {};

beforeEach(() => {
  windowWidth = 1280;
  localStorage.clear();
  // Signed out to begin with (the store keeps the session it read; this tells it).
  clearSession();
  window.__ampereEvents = [];
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
