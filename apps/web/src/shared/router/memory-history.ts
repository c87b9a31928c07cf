import type { HistoryEntry, RouterHistory } from './core.ts';

/**
 * A history kept in a list, for running the router without a browser (its tests): the entries, where
 * the renter is among them, and each entry's scroll position, saved on leaving it and given back on
 * returning, as a browser does for Back. A move through it (`go`) is reported to the router a task
 * later, as the browser's popstate is.
 */
export interface MemoryHistory extends RouterHistory {
  /** The addresses, oldest first. */
  readonly entries: readonly string[];
  /** Where the renter is among them. */
  readonly index: number;
  /** The current entry's scroll position (what the page would set). */
  scrollY: number;
}

export function createMemoryHistory(first = '/'): MemoryHistory {
  const stack: { href: string; entry: HistoryEntry | null; scrollY: number }[] = [
    { href: first, entry: null, scrollY: 0 },
  ];
  let index = 0;
  let scrollY = 0;
  const listeners: (() => void)[] = [];
  const leave = () => {
    stack[index]!.scrollY = scrollY;
    scrollY = 0;
  };
  return {
    origin: 'http://app.test',
    get entries() {
      return stack.map((s) => s.href);
    },
    get index() {
      return index;
    },
    get scrollY() {
      return scrollY;
    },
    set scrollY(y: number) {
      scrollY = y;
    },
    current: () => ({ href: stack[index]!.href, entry: stack[index]!.entry }),
    push(entry, href) {
      leave();
      stack.splice(index + 1, stack.length, { href, entry, scrollY: 0 });
      index += 1;
    },
    replace(entry, href) {
      stack[index] = { href, entry, scrollY };
    },
    go(delta) {
      const to = index + delta;
      if (delta === 0 || to < 0 || to >= stack.length) return;
      leave();
      index = to;
      scrollY = stack[to]!.scrollY;
      setTimeout(() => {
        for (const listener of listeners) listener();
      });
    },
    listen(onMove) {
      listeners.push(onMove);
    },
  };
}
