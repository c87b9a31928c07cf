import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';

/** Runs axe-core on the page as it stands and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A dialog fading in is half transparent: judge colour contrast once transitions have ended
  // (endless animations, such as a loading spinner, are not waited for). A transition may not have
  // begun when this is first asked (a dialog just mounted), so an open dialog must also be fully opaque.
  await page
    .waitForFunction(
      () => {
        const still = document
          .getAnimations()
          .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
        if (still) return false;
        for (const dialog of Array.from(document.querySelectorAll('[role="dialog"]'))) {
          for (let el: Element | null = dialog; el; el = el.parentElement)
            if (getComputedStyle(el).opacity !== '1') return false;
        }
        return true;
      },
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => {
      // Still moving after 5 s (or a dialog kept faded on purpose): judge the page as it stands.
    });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 5)
        .join(' | ')}`,
  );
  expect(summary, 'axe-core violations').toEqual([]);
}

export const NARROW = { width: 375, height: 812 };
export const WIDE = { width: 1280, height: 900 };

/**
 * Runs `check` at the page's width, then at the suite's other one (375 ↔ 1280 px), and puts the
 * width back: a flow walked through once, with each screen it stops at judged as a phone and as a
 * laptop show it (decision 078).
 */
export async function atBothWidths(page: Page, check: () => Promise<void>): Promise<void> {
  const first = page.viewportSize();
  if (!first) throw new Error('atBothWidths needs a page with a fixed viewport.');
  await check();
  await page.setViewportSize(first.width < WIDE.width ? WIDE : NARROW);
  try {
    await check();
  } finally {
    await page.setViewportSize(first);
  }
}

/** `expectNoAxeViolations` at both of the suite's widths. */
export const expectNoAxeViolationsAtBothWidths = (page: Page) => atBothWidths(page, () => expectNoAxeViolations(page));
