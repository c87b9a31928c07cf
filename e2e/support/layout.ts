import { type Locator, type Page, expect } from '@playwright/test';

/** Elements inside `target` (and itself) whose content is wider than their box: cut off, ellipsised or spilling out. */
const cutOff = (target: Locator) =>
  target.evaluate((el) =>
    [el, ...Array.from(el.querySelectorAll('*'))]
      .filter((e) => e.scrollWidth > e.clientWidth)
      .map(
        (e) =>
          `<${e.tagName.toLowerCase()}> "${e.textContent?.trim().slice(0, 40) ?? ''}" ${e.scrollWidth}>${e.clientWidth}`,
      ),
  );

/**
 * A renter sees the whole of `target`: scrolled to, it lies entirely on screen (and inside `within`,
 * when given), and nothing in it is cut off — a button's label shrunk under its text, a name
 * ellipsised, a word spilling out of its box.
 */
export async function expectWhole(target: Locator, within?: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  await expect(target).toBeInViewport({ ratio: 1 });
  if (within) {
    const inner = (await target.boundingBox())!;
    const outer = (await within.boundingBox())!;
    expect(inner.x, 'left edge inside its container').toBeGreaterThanOrEqual(outer.x);
    expect(inner.x + inner.width, 'right edge inside its container').toBeLessThanOrEqual(outer.x + outer.width);
  }
  expect(await cutOff(target), 'content cut off').toEqual([]);
}

/** The text of `target` as the lines it is drawn on, read character by character from the layout. */
export const drawnLines = (target: Locator): Promise<string[]> =>
  target.evaluate((el) => {
    const lines: string[] = [];
    let top = -Infinity;
    const range = document.createRange();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i += 1) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (box.top > top + box.height / 2) {
          lines.push(text.charAt(i));
          top = box.top;
        } else lines.push(`${lines.pop() ?? ''}${text.charAt(i)}`);
      }
    }
    return lines;
  });

/**
 * From the next page load on, records how far content moves by itself (layout shifts a tap or key
 * did not cause), as a renter sees text jump under their thumb.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __ampereShifts: number[] }).__ampereShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's layout shift so far: the sum of the shifts `recordLayoutShifts` saw (its CLS). */
export const layoutShift = (page: Page): Promise<number> =>
  page.evaluate(() =>
    (window as unknown as { __ampereShifts: number[] }).__ampereShifts.reduce((sum, value) => sum + value, 0),
  );
