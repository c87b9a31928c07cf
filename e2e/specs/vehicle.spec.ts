import { type Page } from '@playwright/test';
import { expect, inDays, serverNow, test } from '../support/test.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { apiRenter, authHeader, tripDates } from '../support/booking.ts';
import { expectWhole } from '../support/layout.ts';

/**
 * A car search offers in that city for a period, and the vehicle page's address for exactly that
 * period and place, as a search card opens it: by decision 015 the page agrees with search,
 * whatever the demo bookings.
 */
async function carPage(page: Page, city: string, selfServe = true): Promise<{ vin: string; url: string }> {
  const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: city } });
  const id = (await res.json()).options[0].id;
  const trip = { ...tripDates(), pickupTime: '10:00', returnTime: '10:00' };
  const search = await (await page.request.get(`/api/v1/vehicles/search/${id}`, { params: trip })).json();
  const vin: string = search.items.find(
    (i: { is_self_serve_booking_allowed: boolean }) => i.is_self_serve_booking_allowed === selfServe,
  ).vin;
  return { vin, url: `/vehicle/${vin}?${new URLSearchParams({ searchQuery: String(id), ...trip }).toString()}` };
}

test('Book sends a signed-out renter to sign in, carrying the booking to resume', async ({ page }) => {
  const { vin, url } = await carPage(page, 'Nashville, TN');
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByLabel(/Collision Protection/).check();
  await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText('Collision Protection');
  // Spec 7: each tick of Collision Protection on the booking card is tracked; unticking is not.
  const waiverPicks = () =>
    page.evaluate(
      () =>
        ((window as unknown as { __ampereEvents?: { name: string }[] }).__ampereEvents ?? []).filter(
          (e) => e.name === 'damage_waiver_selected_on_booking_card',
        ).length,
    );
  expect(await waiverPicks()).toBe(1);
  await page.getByLabel(/Collision Protection/).uncheck();
  expect(await waiverPicks()).toBe(1);
  await page.getByLabel(/Collision Protection/).check();
  expect(await waiverPicks()).toBe(2);
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  // Spec 2: a create-booking login redirect carries redirect=create-booking plus the booking details.
  await expect(page).toHaveURL(/\/login\?redirect=create-booking&/);
  const login = new URL(page.url()).searchParams;
  expect(login.get('vehicleVin')).toBe(vin);
  expect(login.get('pickupDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(login.get('returnDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(JSON.parse(login.get('addonIds')!)).toEqual(['collision-protection']);
  expect(login.get('vehicleTimezone')).toBe('America/Chicago');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('a return location elsewhere makes it a one-way trip booked by text', async ({ page }) => {
  const { url } = await carPage(page, 'Austin, TX');
  await page.goto(url);
  const select = page.getByLabel('Return location');
  await expect(select.locator('option')).toHaveCount(3);
  const options = await select.locator('option').allTextContents();
  // An extra chosen for the round trip leaves the price with the extras list.
  await page.getByLabel(/Collision Protection/).check();
  const breakdown = page.getByRole('group', { name: 'Price breakdown' });
  await expect(breakdown).toContainText('Collision Protection');
  await select.selectOption({ label: options[1]! });
  await expect(page.getByText('One-way trips are booked by text')).toBeVisible();
  // Said by the field itself too, not only at the foot of the card.
  await expect(select).toHaveAccessibleDescription(
    `Returning to ${options[1]} makes this a one-way trip: our concierge books it by text.`,
  );
  await expect(breakdown).not.toContainText('Collision Protection');
  await expect(page.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Text / })).toHaveAttribute('href', /^sms:/);
});

test('vehicleUnavailableModal=true opens the Vehicle Unavailable dialog', async ({ page }) => {
  const { url } = await carPage(page, 'Phoenix, AZ');
  await page.goto(`${url}&vehicleUnavailableModal=true`);
  const dialog = page.getByRole('dialog', { name: 'Vehicle Unavailable' });
  await expect(dialog).toContainText(
    "We're sorry, but the vehicle you've selected is no longer available for your requested dates.",
  );
  await dialog.getByRole('button', { name: 'Modify Dates' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/vehicleUnavailableModal/);
});

test.describe('on a phone', () => {
  test.use({ viewport: NARROW });

  test('a car not bookable online says so at the top of its card, and shows no Book button', async ({ page }) => {
    const { url } = await carPage(page, 'Dallas, TX', false);
    await page.goto(url);
    const card = page.locator('section[aria-labelledby="booking-title"]');
    const note = page.getByTestId('team-booking-note');
    await expect(note).toContainText('Book with our team');
    await expect(note).toContainText('isn’t set up for online booking');
    // Above the dates and the price, where the renter starts reading the card.
    const noteBox = (await note.boundingBox())!;
    const dates = (await card.getByRole('button', { name: 'Change Dates' }).boundingBox())!;
    expect(noteBox.y).toBeLessThan(dates.y);
    await expect(page.getByText('Booked with our team')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test('dates with no times count at least a week (spec 5, 9)', async ({ page }) => {
    const { url } = await carPage(page, 'Nashville, TN');
    const link = new URL(url, 'http://x');
    link.searchParams.delete('pickupTime');
    link.searchParams.delete('returnTime');
    await page.goto(`${link.pathname}${link.search}`);
    const breakdown = page.getByRole('group', { name: 'Price breakdown' });
    await expect(breakdown).toContainText(/× 1 week/);
    await expect(
      page.getByRole('group', { name: 'Rental length' }).getByRole('checkbox', { name: '1 week' }),
    ).toBeChecked();
  });
});

test('an unknown VIN shows the not-found page', async ({ page }) => {
  await page.goto('/vehicle/5YJ3E1EA0NF999999');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.' })).toBeVisible();
  await expect(page).toHaveTitle('Page Not Found | Ampere');
});

test('a malformed VIN is not found either, and the title does not repeat it', async ({ page }) => {
  await page.goto('/vehicle/NOTAVIN123');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Search Vehicles' })).toHaveAttribute('href', '/search');
  await expect(page).toHaveTitle('Page Not Found | Ampere');
});

/** YYYY-MM-DD and HH:mm of an instant on a zone's clock. */
function localIn(at: Date, timeZone: string): { date: string; time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

test("the car's page starts at its pickup place's own notice, not the default 4 hours", async ({ page, baseURL }) => {
  // A car free from today for ten days, so no booking of it decides which times are open.
  const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: 'Nashville, TN' } });
  const id = (await res.json()).options[0].id;
  const free = await (
    await page.request.get(`/api/v1/vehicles/search/${id}`, {
      params: { pickupDate: inDays(0), returnDate: inDays(10), pickupTime: '00:00', returnTime: '10:00' },
    })
  ).json();
  const vin: string = free.items[0].vin;
  // This car's lot asks 30 hours' notice (spec 3: min_reservation_buffer_hours comes with the place).
  await page.route(new RegExp(`/api/v1/vehicles/${vin}$`), async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    await route.fulfill({
      response: answer,
      json: { ...body, location: { ...body.location, min_reservation_buffer_hours: 30 } },
    });
  });
  // Twenty past the hour on the page's clock, so the hour cannot turn under the test.
  const hour = Math.floor(serverNow().getTime() / 3_600_000) * 3_600_000;
  await page.clock.setFixedTime(new Date(hour + 20 * 60_000));
  // Spec 9: now rounded down to the hour + 30 h + 1 h, on Nashville's clock.
  const earliest = localIn(new Date(hour + 31 * 3_600_000), 'America/Chicago');

  // The page must read the car in the browser for the answer above to reach it: a browser marked
  // signed in gets the page to draw itself (decision 046), not the server's first screen.
  await page.context().addCookies([{ name: 'ampere_signed_in', value: '1', url: baseURL! }]);
  await page.goto(`/vehicle/${vin}`);
  await page.getByRole('button', { name: 'Change Dates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Dates' });
  const [y, m, d] = earliest.date.split('-');
  await expect(dialog).toContainText(`${m}/${d}/${y}`);
  const pickupTimes = dialog.getByLabel('Pickup time');
  await expect(pickupTimes).toHaveValue(earliest.time);
  if (earliest.time !== '00:00') {
    const [h, min] = earliest.time.split(':').map(Number) as [number, number];
    const before = `${String(min === 0 ? h - 1 : h).padStart(2, '0')}:${min === 0 ? '45' : String(min - 15).padStart(2, '0')}`;
    await expect(pickupTimes.locator(`option[value="${before}"]`)).toBeDisabled();
  }
  await expect(pickupTimes.locator(`option[value="${earliest.time}"]`)).toBeEnabled();
});

test('Copy Page Link says so, and the note goes away by itself; the Models menu keeps the place and dates', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { url } = await carPage(page, 'Nashville, TN');
  await page.goto(url);
  await page.getByRole('button', { name: 'Copy Page Link' }).click();
  const note = page.getByRole('status').filter({ hasText: 'Page URL copied!' });
  await expect(note).toBeVisible();
  await expect(note).toBeHidden({ timeout: 8_000 });
  const from = new URL(url, 'http://x').searchParams;
  await page.getByRole('button', { name: 'Models' }).click();
  await page.getByRole('menuitem', { name: 'Model X' }).click();
  await expect(page).toHaveURL(/\/search\?/);
  const to = new URL(page.url()).searchParams;
  expect([to.get('model'), to.get('searchQuery'), to.get('pickupDate'), to.get('returnDate')]).toEqual([
    'Model X',
    from.get('searchQuery'),
    from.get('pickupDate'),
    from.get('returnDate'),
  ]);
});

test.describe('vehicle page at 375 px', () => {
  test.use({ viewport: NARROW });
  test('the total and Book stay at the foot of the screen, and the figures do not wrap', async ({ page }) => {
    const { url } = await carPage(page, 'Nashville, TN');
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Features' })).toBeVisible();
    const book = page.getByRole('button', { name: 'Book', exact: true });
    // At the top of the page, far above the booking card, Book is already on screen, at its foot.
    await expect(book).toBeInViewport();
    const box = (await book.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(NARROW.height - 80);
    for (const label of ['0-60 mph', 'Range', 'Drivetrain']) {
      const value = page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
      const lines = await value.evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      );
      expect(lines, `${label} on one line`).toBe(1);
    }
    // The booking card's dates leave room for the whole of 'Change Dates'.
    const card = page.getByRole('region', { name: /\/day/ });
    await expectWhole(card.getByRole('button', { name: 'Change Dates' }), card);
  });

  test('shows all photos in a gallery and has no accessibility violations', async ({ page }) => {
    const { url } = await carPage(page, 'Las Vegas, NV');
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Features' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Show all photos' }).click();
    const gallery = page.getByRole('dialog', { name: /all photos/ });
    await expect(gallery).toBeVisible();
    // A full-screen slide per view the spec names, each described; the arrow keys move through them.
    const current = gallery.locator('.yarl__slide_current');
    await expect(gallery.getByText('1 / 11')).toBeVisible();
    await expect(current.getByRole('img', { name: /front three-quarter view$/ })).toBeVisible();
    const box = (await current.getByRole('img').boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(1.6, 1);
    expect(box.width).toBeGreaterThan(viewportWidth(page) * 0.9);
    await expectNoAxeViolations(page);
    const first = await current.getByRole('img').getAttribute('alt');
    await page.keyboard.press('ArrowRight');
    await expect(gallery.getByText('2 / 11')).toBeVisible();
    await expect(current.getByRole('img')).toHaveAccessibleName(/^20\d\d Model .*, [a-z ]+$/);
    await expect(current.getByRole('img')).not.toHaveAccessibleName(first!);
    // Zoom: the picture grows past the screen's width.
    await gallery.getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(async () => (await current.getByRole('img').boundingBox())!.width)
      .toBeGreaterThan(viewportWidth(page) * 1.2);
    await page.keyboard.press('Escape');
    await expect(gallery).toBeHidden();
  });
});

const viewportWidth = (page: Page) => page.viewportSize()!.width;

const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

for (const [name, viewport] of [
  ['375 px', NARROW],
  ['1280 px', WIDE],
] as const) {
  test.describe(`a partly taken day at ${name}`, () => {
    test.use({ viewport });
    test('the day a booking returns stays pickable: times within the turnaround are disabled and Book follows the same rule', async ({
      page,
    }) => {
      // This test makes its own booking: a car search offers for a whole span, taken by another renter for its first part.
      const first = tripDates(3);
      const spanEnd = plusDays(first.returnDate, 3);
      const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: 'Nashville, TN' } });
      const id = (await res.json()).options[0].id;
      const search = await (
        await page.request.get(`/api/v1/vehicles/search/${id}`, {
          params: { pickupDate: first.pickupDate, returnDate: spanEnd, pickupTime: '10:00', returnTime: '10:00' },
        })
      ).json();
      const vin: string = search.items.find(
        (i: { is_self_serve_booking_allowed: boolean }) => i.is_self_serve_booking_allowed,
      ).vin;
      const other = await apiRenter(page.request);
      const taken = await page.request.post('/api/v1/reservations', {
        headers: authHeader(other),
        data: {
          vehicleVin: vin,
          ...first,
          pickupTime: '10:00',
          returnTime: '10:00',
          addonIds: [],
          vehicleTimezone: 'America/Chicago',
        },
      });
      expect(taken.status(), await taken.text()).toBe(201);

      // That trip returns at 10:00; the car needs an hour before its next pickup.
      await page.goto(
        `/vehicle/${vin}?pickupDate=${first.returnDate}&pickupTime=10:00&returnDate=${spanEnd}&returnTime=10:00`,
      );
      const refusal = page.getByRole('alert').filter({ hasText: 'Not available' });
      await expect(refusal).toContainText('This car is booked for part of these dates');
      await expect(page.getByRole('button', { name: 'Book', exact: true })).toBeDisabled();

      await page.getByRole('button', { name: 'Change Dates' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change Dates' });
      const pickupTimes = dialog.getByLabel('Pickup time');
      await expect(pickupTimes.locator('option[value="10:45"]')).toBeDisabled();
      await expect(pickupTimes.locator('option[value="10:45"]')).toHaveText('10:45 AM (booked)');
      await expect(pickupTimes.locator('option[value="11:00"]')).toBeEnabled();
      await expect(pickupTimes.locator('option[value="09:00"]')).toBeDisabled();
      // The return day of the other trip is partly taken: still pickable; a day inside it is not.
      await expect(dialog.locator(`[data-date="${first.returnDate}"]`).first()).not.toHaveAttribute(
        'aria-disabled',
        'true',
      );
      await expectNoAxeViolations(page);
      await page.screenshot({
        path: test.info().outputPath(`partly-taken-times-${viewport.width}.png`),
        fullPage: true,
      });
      const inside = plusDays(first.returnDate, -1);
      if (inside.slice(0, 7) !== first.returnDate.slice(0, 7))
        await dialog.getByRole('button', { name: 'Previous month' }).click();
      await expect(dialog.locator(`[data-date="${inside}"]`).first()).toHaveAttribute('aria-disabled', 'true');

      await pickupTimes.selectOption('11:00');
      await dialog.getByRole('button', { name: 'Apply Dates' }).click();
      await expect(dialog).toBeHidden();
      await expect(refusal).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Book', exact: true })).toBeEnabled();
      await page.screenshot({
        path: test.info().outputPath(`partly-taken-bookable-${viewport.width}.png`),
        fullPage: true,
      });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });
}
