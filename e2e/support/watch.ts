import { type Page } from '@playwright/test';

/** What the renter was shown while the page was watched. */
export interface Seen {
  /** Whether a 'You're all caught up!' heading ever showed. */
  caughtUp: boolean;
  /** The highest percent a progress bar read. */
  maxPercent: number;
  /** Each loader (spinner or progress bar) that came on screen, in order, by what it was for. */
  loaders: string[];
}

type Watched = { __seen?: Seen; __watching?: boolean };

/**
 * Watches the page from now on, through the app's navigations (it is one document): whether
 * 'You're all caught up!' ever shows, the highest loading percent, and every loader that comes
 * into the viewport. Called again, it starts the tally afresh.
 */
export async function watchScreen(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as Watched;
    w.__seen = { caughtUp: false, maxPercent: 0, loaders: [] };
    if (w.__watching) return;
    w.__watching = true;
    const counted = new WeakSet<Element>();
    const onScreen = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
    };
    // A spinner is named by the button it turns in, its label, or the status it stands beside.
    const nameOf = (el: Element) =>
      el.closest('button')?.textContent?.trim() ||
      el.getAttribute('aria-label') ||
      el.closest('[role="status"]')?.textContent?.trim() ||
      'a loader';
    const look = () => {
      const seen = w.__seen!;
      if (document.querySelector('h1')?.textContent?.includes('caught up')) seen.caughtUp = true;
      const bar = document.querySelector('[role="progressbar"][aria-valuenow]');
      if (bar) seen.maxPercent = Math.max(seen.maxPercent, Number(bar.getAttribute('aria-valuenow')));
      // Mantine draws every spinner, a button's included, as .mantine-Loader-root.
      for (const el of Array.from(document.querySelectorAll('.mantine-Loader-root, [role="progressbar"]'))) {
        if (counted.has(el) || !onScreen(el)) continue;
        counted.add(el);
        seen.loaders.push(nameOf(el));
      }
    };
    new MutationObserver(look).observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
  });
}

export const seen = (page: Page): Promise<Seen> => page.evaluate(() => (window as unknown as Watched).__seen!);
