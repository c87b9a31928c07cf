import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';

/** Runs axe-core on the page as it stands and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A dialog fading in is half transparent: judge colour contrast once transitions have ended
  // (endless animations, such as a loading spinner, are not waited for).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity), undefined, { timeout: 5_000 });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`);
  expect(summary, 'axe-core violations').toEqual([]);
}

export const NARROW = { width: 375, height: 812 };
export const WIDE = { width: 1280, height: 900 };
