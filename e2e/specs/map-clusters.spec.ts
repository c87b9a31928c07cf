import { type Page } from '@playwright/test';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

interface Item {
  vin: string;
  location: { name: string; latitude: number; longitude: number };
}

/** The cars the page is showing, read from the search API with the page's own query. */
async function carsOnPage(page: Page): Promise<Item[]> {
  const url = new URL(page.url());
  const id = url.searchParams.get('searchQuery');
  const params = Object.fromEntries(
    ['pickupDate', 'returnDate', 'pickupTime', 'returnTime'].flatMap((k) =>
      url.searchParams.get(k) ? [[k, url.searchParams.get(k)!]] : [],
    ),
  );
  const res = await page.request.get(`/api/v1/vehicles/search/${id}`, { params: { ...params, limit: '100' } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { items: Item[] }).items;
}

const clusters = (page: Page) =>
  page
    .getByRole('region', { name: /Map of vehicles near/ })
    .getByRole('button', { name: /cars here, zoom in to see them$/ });
const pins = (page: Page) => page.locator('.ampere-map-pin');

async function openMap(page: Page, wide: boolean): Promise<void> {
  await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}`);
  await expect(page).toHaveURL(/searchQuery=\d+/);
  await expect(page.getByRole('heading', { name: /^[1-9]\d* vehicles?$/ })).toBeVisible();
  if (!wide) await page.getByRole('button', { name: 'Map', exact: true }).click();
  await expect(page.locator('[data-map-state="ready"]')).toBeVisible();
}

for (const [name, viewport] of [
  ['375 px', NARROW],
  ['1280 px', WIDE],
] as const) {
  test.describe(`map clusters at ${name}`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    test('cars at one lot show as a numbered group; clicking it zooms in until each car has its price pin', async ({
      page,
    }) => {
      await openMap(page, viewport === WIDE);
      const items = await carsOnPage(page);
      const lotOf = new Map(items.map((i) => [i.vin, i.location.name]));
      const perLot = new Map<string, number>();
      for (const i of items) perLot.set(i.location.name, (perLot.get(i.location.name) ?? 0) + 1);
      expect(Math.max(...perLot.values()), 'a lot with several cars free').toBeGreaterThan(1);

      // Zoomed out, the cars are grouped: each group's button says how many cars it holds.
      await expect(clusters(page).first()).toBeVisible();
      await expect(pins(page)).toHaveCount(0);
      let count = 0;
      for (let step = 0; step < 5 && (await pins(page).count()) === 0; step += 1) {
        const group = clusters(page).first();
        count = Number(await group.textContent());
        expect(count).toBeGreaterThan(1);
        await expect(group).toHaveAccessibleName(`${count} cars here, zoom in to see them`);
        // The clicked group's button goes once the map has zoomed in and regrouped the cars.
        const clicked = await group.elementHandle();
        await group.click();
        await page.waitForFunction((el) => !el?.isConnected, clicked);
        await expect(pins(page).or(clusters(page)).first()).toBeVisible();
      }

      // The last group was one lot: its cars share one spot, so their pins stand side by side, one per car.
      await expect(pins(page)).toHaveCount(count);
      const vins = await pins(page).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.markerId!));
      const lots = new Set(vins.map((v) => lotOf.get(v)));
      expect(lots.size).toBe(1);
      expect(perLot.get([...lots][0]!)).toBe(count);
      const boxes = await pins(page).evaluateAll((els) =>
        els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })),
      );
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!,
            b = boxes[j]!;
          const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
          expect(overlap, 'two pins covering each other').toBe(false);
        }
      }

      // A single car's pin: model, total, daily rate and the link to the car (spec 9, map markers).
      const pin = pins(page).first();
      await expect(pin).toHaveAccessibleName(/^\d{4} Model [3SXY].*, \$[\d,]+\.\d{2}$/);
      await pin.click();
      const popup = page.locator('.maplibregl-popup');
      await expect(popup).toContainText(/Model [3SXY]/);
      await expect(popup).toContainText(/\$[\d,]+\.\d{2} total · \$[\d,.]+\/day/);
      const vin = await pin.getAttribute('data-marker-id');
      await expect(popup.getByRole('link', { name: /^View / })).toHaveAttribute('href', new RegExp(`/vehicle/${vin}`));
      await expectNoAxeViolations(page);

      // Escape closes it, and the keyboard goes back to the pin it was opened from.
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      await expect(pin).toBeFocused();
    });
  });
}

test.describe('the map on a phone', () => {
  test.use({ viewport: NARROW, reducedMotion: 'reduce' });

  test('no group or pin is hidden behind the List/Map toggle', async ({ page }) => {
    await openMap(page, false);
    await expect(clusters(page).first()).toBeVisible();
    const toggle = (await page.getByRole('group', { name: 'Show vehicles as a list or on a map' }).boundingBox())!;
    const map = (await page.getByRole('region', { name: /Map of vehicles near/ }).boundingBox())!;
    expect(map.y + map.height).toBeLessThanOrEqual(toggle.y);
    for (const button of await clusters(page).all()) {
      const box = (await button.boundingBox())!;
      expect(box.y + box.height, 'a group above the toggle').toBeLessThanOrEqual(toggle.y);
    }
    const clicked = await clusters(page).first().elementHandle();
    await clusters(page).first().click();
    await page.waitForFunction((el) => !el?.isConnected, clicked);
    await expect(pins(page).or(clusters(page)).first()).toBeVisible();
    for (const el of await pins(page).or(clusters(page)).all()) {
      const box = await el.boundingBox();
      if (box && box.y > map.y && box.y < map.y + map.height) expect(box.y + box.height).toBeLessThanOrEqual(toggle.y);
    }
  });
});
