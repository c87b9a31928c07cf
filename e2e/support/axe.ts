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
