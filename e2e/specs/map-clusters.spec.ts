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
  test.describe(`map pins at ${name}`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    test('at the first zoom every car has a price on the map: one pin per lot, listing its cars', async ({ page }) => {
      await openMap(page, viewport === WIDE);
      const items = await carsOnPage(page);
      const perLot = new Map<string, Item[]>();
      for (const i of items) perLot.set(i.location.name, [...(perLot.get(i.location.name) ?? []), i]);
      const [lotName, lotCars] = [...perLot].find(([, cars]) => cars.length > 1)!;
      expect(lotCars, 'a lot with several cars free').toBeDefined();

      // No numbered groups: a pin per lot, each with a price, none covering another.
      await expect(pins(page)).toHaveCount(perLot.size);
      await expect(page.getByRole('button', { name: /zoom in to see them/ })).toHaveCount(0);
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

      // The lot's pin: '9 cars · from $558.27'; its popup lists each car with its prices and link.
      const lotPin = page.getByRole('button', { name: new RegExp(`^${lotCars.length} cars · from .* at ${lotName}$`) });
      await expect(lotPin).toHaveText(/^\d+ cars · from \$[\d,]+\.\d{2}$/);
      await lotPin.click();
      const popup = page.locator('.maplibregl-popup');
      await expect(popup.getByRole('list', { name: `${lotCars.length} cars at ${lotName}` })).toBeVisible();
      const links = popup.getByRole('link', { name: /^\d{4} Model [3SXY]/ });
      await expect(links).toHaveCount(lotCars.length);
      await expect(popup).toContainText(/\$[\d,]+\.\d{2} total · \$[\d,.]+\/day/);
      const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
      expect(hrefs.map((h) => h?.match(/\/vehicle\/([^?]+)/)?.[1]).sort()).toEqual(lotCars.map((c) => c.vin).sort());
      await expectNoAxeViolations(page);

      // Escape closes it, and the keyboard goes back to the pin it was opened from.
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      await expect(lotPin).toBeFocused();

      // Closer in, the lot's name and street stand under its pin (the offline basemap has no streets).
      const label = page.locator('.ampere-map-label', { hasText: lotName });
      await expect(label).toBeHidden();
      for (let i = 0; i < 3; i += 1) await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect(label).toBeVisible();
      await expect(label).toContainText(/\d+ \S+/);
    });
  });
}

test.describe('the map dragged away from the cars', () => {
  test.use({ viewport: WIDE, reducedMotion: 'reduce' });

  test('says there are no cars in this area and zooms out to them', async ({ page }) => {
    await openMap(page, true);
    const count = page.getByRole('heading', { name: /^[1-9]\d* vehicles?$/ });
    const before = await count.textContent();
    const canvas = page.locator('.maplibregl-canvas');
    const box = (await canvas.boundingBox())!;
    for (let i = 0; i < 3; i += 1) {
      await page.mouse.move(box.x + box.width - 40, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
    }
    await expect(page.getByText('There are no cars in this area.')).toBeVisible();
    await expect(page.getByText('There are no cars that match your search.')).toHaveCount(0);
    await page.getByRole('button', { name: 'Zoom out to the cars' }).click();
    await expect(count).toHaveText(before!);
    await expect(pins(page).first()).toBeInViewport();
  });
});

test.describe('the map on a phone', () => {
  test.use({ viewport: NARROW, reducedMotion: 'reduce' });

  test('prices stand on the map before it has loaded, and no pin is hidden behind the List/Map toggle', async ({
    page,
  }) => {
    // The map's code held back: the prices are drawn in place all the same.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/map-view-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}`);
    await expect(page.getByRole('heading', { name: /^[1-9]\d* vehicles?$/ })).toBeVisible();
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    await expect(page.locator('.ampere-map-preview-pin').first()).toHaveText(/\$[\d,]+\.\d{2}$/);
    await expect(page.locator('[data-map-state]')).toHaveCount(0);
    release();
    await expect(page.locator('[data-map-state="ready"]')).toBeVisible();
    await expect(page.locator('.ampere-map-preview-pin')).toHaveCount(0);
    await expect(pins(page).first()).toBeVisible();
    const toggle = (await page.getByRole('group', { name: 'Show vehicles as a list or on a map' }).boundingBox())!;
    const map = (await page.getByRole('region', { name: /Map of vehicles near/ }).boundingBox())!;
    expect(map.y + map.height).toBeLessThanOrEqual(toggle.y);
    for (const el of await pins(page).all()) {
      const box = await el.boundingBox();
      if (box && box.y > map.y && box.y < map.y + map.height) expect(box.y + box.height).toBeLessThanOrEqual(toggle.y);
    }
  });
});
