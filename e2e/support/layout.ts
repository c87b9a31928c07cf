import { type Locator, expect } from '@playwright/test';

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
