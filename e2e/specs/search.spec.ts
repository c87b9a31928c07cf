import { type Locator, type Page } from '@playwright/test';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { expectWhole, layoutShift, recordLayoutShifts } from '../support/layout.ts';
import { expect, inDays, test } from '../support/test.ts';

/** Filter chips are labelled checkboxes; a renter clicks the chip's label. */
function chip(page: Page, name: string) {
  return page.getByRole('group', { name: 'Filters' }).getByText(name, { exact: true });
}

/** The properties of each analytics event of that name the page has sent so far (spec 7). */
const tracked = (page: Page, name: string) =>
  page.evaluate(
    (n) =>
      (
        (window as unknown as { __ampereEvents?: { name: string; properties: Record<string, unknown> }[] })
          .__ampereEvents ?? []
      )
        .filter((e) => e.name === n)
        .map((e) => e.properties),
    name,
  );

/** Clicks a day in a calendar that shows one month, turning to the next month as a renter would. */
async function pickDay(scope: Locator, date: string): Promise<void> {
  const cell = scope.locator(`[data-date="${date}"]`).first();
  for (let i = 0; i < 3 && (await cell.count()) === 0; i += 1)
    await scope.getByRole('button', { name: 'Next month' }).click();
  await cell.click();
}

test.describe('search at 1280 px', () => {
  test.use({ viewport: WIDE });

  test('type a city, pick it and dates, and see cards with the count', async ({ page }) => {
    await page.goto('/search');
    const location = page.getByRole('combobox', { name: 'Location' });
    await expect(location).toHaveValue(/, [A-Z]{2}$/);
    await location.fill('aus');
    await page.getByRole('option', { name: 'Austin, TX' }).click();
    await expect(location).toHaveValue('Austin, TX');
    // Spec 4: picking a location sends one tracking event with the place and resultCount 0.
    await expect
      .poll(() => tracked(page, 'location_selected'))
      .toEqual([{ query: 'Austin, TX', latitude: expect.any(Number), longitude: expect.any(Number), resultCount: 0 }]);

    await page.getByRole('button', { name: /Trip dates/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Dates' });
    await expect(dialog).toBeVisible();
    const pickup = inDays(10);
    const ret = inDays(14);
    await dialog.locator(`[data-date="${pickup}"]`).first().click();
    await dialog.locator(`[data-date="${ret}"]`).first().click();
    await dialog.getByRole('button', { name: 'Apply Dates' }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    await expect(page).toHaveURL(
      new RegExp(`pickupDate=${pickup}.*returnDate=${ret}|returnDate=${ret}.*pickupDate=${pickup}`),
    );
    // Some cars are offered (the count may read 0 for a moment while the new search loads).
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toHaveText(/^[1-9]\d* vehicles?$/);
    const cards = page.getByRole('link', { name: /total for 4 days/ });
    await expect(cards.first()).toBeVisible();
    await expect(cards.first()).toContainText('Austin');
    // Leaving the box and searching picked nothing more.
    expect(await tracked(page, 'location_selected')).toHaveLength(1);
  });

  test('the location list answers the keyboard: the arrows move through it, Enter picks, Escape closes', async ({
    page,
  }) => {
    await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}`);
    const location = page.getByRole('combobox', { name: 'Location' });
    await expect(location).toHaveValue('Nashville, TN');
    await expect(page).toHaveURL(/searchQuery=\d+/);
    const searched = page.url();
    await location.fill('aus');
    const list = page.getByRole('listbox', { name: 'Location' });
    // The places the server suggests for the text (the airport among them) join the cities listed at once.
    await expect(list.getByRole('option', { name: /^Austin-Bergstrom International Airport/ })).toBeVisible();
    await expect(list.getByRole('option', { name: 'Austin, TX' })).toBeVisible();
    await expect(location).toHaveAttribute('aria-expanded', 'true');
    // Down from the field highlights the first option, up from the first wraps round to the last.
    await location.press('ArrowDown');
    await expect(list.getByRole('option', { selected: true })).toHaveText('Austin, TX');
    await expectNoAxeViolations(page);
    await location.press('ArrowUp');
    await expect(list.getByRole('option', { selected: true })).toHaveText(
      (await list.getByRole('option').last().textContent())!,
    );
    await location.press('ArrowDown');
    await expect(list.getByRole('option', { selected: true })).toHaveText('Austin, TX');
    // Escape closes the list and leaves the text; typing opens it again.
    await location.press('Escape');
    await expect(list).toBeHidden();
    await expect(location).toHaveAttribute('aria-expanded', 'false');
    await expect(location).toHaveValue('aus');
    await location.press('End');
    await location.pressSequentially('t');
    await expect(list.getByRole('option', { name: /^Austin-Bergstrom International Airport/ })).toBeVisible();
    await expect(list.getByRole('option').first()).toHaveText('Austin, TX');
    await location.press('ArrowDown');
    await location.press('Enter');
    await expect(location).toHaveValue('Austin, TX');
    await expect(list).toBeHidden();
    await expect(location).toBeFocused();
    await expect
      .poll(() => tracked(page, 'location_selected'))
      .toEqual([{ query: 'Austin, TX', latitude: expect.any(Number), longitude: expect.any(Number), resultCount: 0 }]);
    // Enter picked the place and did not also send the search: the page still shows Nashville's cars.
    expect(page.url()).toBe(searched);
  });

  test('a filter chip updates the URL and the cards; a card opens the vehicle with the filters', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}`);
    await expect(page).toHaveURL(/searchQuery=\d+/);
    await chip(page, 'Model Y').click();
    await expect(page).toHaveURL(/model=Model\+Y/);
    const cards = page.getByRole('link', { name: /^Model Y .*total for/ });
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('link', { name: /^Model 3 .*total for/ })).toHaveCount(0);
    const modelYCount = await cards.count();

    await chip(page, 'Red').click();
    await expect(page).toHaveURL(/color=red/);

    await chip(page, 'Red').click();
    await expect(page).not.toHaveURL(/color=/);
    await expect(cards).toHaveCount(modelYCount);

    const first = cards.first();
    const total = (await first.innerText()).match(/\$[\d,]+\.\d{2}/)![0];
    await first.click();
    await expect(page).toHaveURL(/\/vehicle\/[A-Z0-9]{17}\?.*model=Model\+Y/);
    await expect(page.getByRole('heading', { level: 1, name: /Model Y/ })).toBeVisible();
    // The first price seen on the card is the total on the vehicle page.
    await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText(total);
    await expect(page).toHaveTitle(/^Vehicle [A-Z0-9]{17} \| Ampere$/);

    await page.getByRole('main').getByRole('link', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/search\?.*model=Model\+Y/);
  });

  test('a bookmarked search whose dates have passed moves to the earliest dates and says so', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}&pickupDate=2020-01-10&returnDate=2020-01-13`);
    const notice = page.getByRole('status').filter({ hasText: 'We moved your dates' });
    await expect(notice).toContainText('The pickup you searched for, Jan 10, 2020, ');
    await expect(notice).toContainText(
      'can no longer be booked, so we moved your trip to the earliest dates you can book',
    );
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    await expect(page.getByText('There are no cars that match your search.')).toHaveCount(0);
    // The address now names the dates searched: three days, as bookmarked.
    await expect(page).not.toHaveURL(/pickupDate=2020-01-10/);
    const q = new URL(page.url()).searchParams;
    const days = (Date.parse(q.get('returnDate')!) - Date.parse(q.get('pickupDate')!)) / 86_400_000;
    expect(days).toBe(3);
    expect(Date.parse(q.get('pickupDate')!)).toBeGreaterThan(Date.parse('2020-01-10'));
    await expectNoAxeViolations(page);
    await page.screenshot({ path: test.info().outputPath('search-moved-1280.png') });
  });

  test('with no matching car the empty state offers Clear Filters', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('Phoenix, AZ')}&model=Model+X+Long+Range`);
    await expect(page.getByText('There are no cars that match your search.')).toBeVisible();
    await expect(page.getByText('Try modifying your search to view vehicles in your area.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).not.toHaveURL(/model=/);
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
  });

  test('the date picker works with the keyboard and names unavailable days', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('Dallas, TX')}`);
    await page.getByRole('button', { name: /Trip dates/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Dates' });
    // A day in the past cannot be picked and the screen reader hears why. (Two days back by the
    // UTC calendar is in the past in every US zone, whatever the hour.) The picker opens on the
    // pickup's month, which late on a month's last day is already the next one: turn back as far
    // as it lets the renter. Early in a month the past day is in a month before today's, which the
    // picker does not let the renter turn back to.
    const past = dialog.locator(`[data-date="${inDays(-2)}"]`);
    const back = dialog.getByRole('button', { name: 'Previous month' });
    let turnedBack = 0;
    for (; turnedBack < 3 && (await past.count()) === 0 && (await back.isEnabled()); turnedBack += 1)
      await back.click();
    if ((await past.count()) > 0) {
      await expect(past.first()).toHaveAttribute('aria-disabled', 'true');
      await expect(past.first()).toHaveAttribute('aria-label', /unavailable: in the past/);
    } else {
      await expect(back).toBeDisabled();
    }
    for (; turnedBack > 0; turnedBack -= 1) await dialog.getByRole('button', { name: 'Next month' }).click();
    const focusable = dialog.locator('button[data-date][tabindex="0"]');
    await focusable.focus();
    const startDate = await focusable.getAttribute('data-date');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const moved = await page.evaluate(() => document.activeElement?.getAttribute('data-date'));
    const expected = new Date(Date.parse(`${startDate}T00:00:00Z`) + 8 * 86_400_000).toISOString().slice(0, 10);
    expect(moved).toBe(expected);
    await page.keyboard.press('Enter');
    await expect(dialog.locator(`[data-date="${expected}"]`)).toHaveAttribute('aria-label', /pickup/);
    await expect(dialog.getByText('Choose your return date')).toBeVisible();
    // Once the pickup is chosen, days more than 28 days away are blocked and say so (and the calendar says why).
    await expect(dialog.getByText(/A trip can be up to 28 days long/)).toBeVisible();
    const farAfter = new Date(Date.parse(`${expected}T00:00:00Z`) + 29 * 86_400_000).toISOString().slice(0, 10);
    const farCell = dialog.locator(`[data-date="${farAfter}"]`);
    for (let i = 0; i < 2 && (await farCell.count()) === 0; i += 1)
      await dialog.getByRole('button', { name: 'Next month' }).click();
    await expect(farCell.first()).toHaveAttribute('aria-label', /more than 28 days from pickup/);
  });

  test('search and vehicle pages have no accessibility violations at 1280 px', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('Nashville, TN')}`);
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    await expectNoAxeViolations(page);
    // WCAG 2.5.3: each card is named by the words it shows, in their order, so saying them reaches it.
    const card = page.getByRole('link', { name: /total for/ }).first();
    const shown = (await card.innerText()).split(/\s+/).filter(Boolean);
    const name = await card.evaluate((el) => el.getAttribute('aria-label'));
    expect(name, 'no label that hides the words shown').toBeNull();
    await expect(card).toHaveAccessibleName(new RegExp(`^${shown.slice(0, 4).join('\\s+').replace(/[$.]/g, '\\$&')}`));
    await card.click();
    await expect(page.getByRole('heading', { name: 'Features' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('search at 375 px', () => {
  test.use({ viewport: NARROW });

  test('the three-step modal: Location, Pickup, Return, then Search Vehicles', async ({ page }) => {
    await page.goto('/search');
    await page.getByRole('button', { name: /Change search/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Location' });
    await expect(dialog).toBeVisible();
    const box = dialog.getByPlaceholder('Search by zip code, city, state, or airport');
    await box.fill('las');
    // In the dialog, Escape closes the open list and not the dialog; ArrowDown opens the list again.
    await expect(page.getByRole('option', { name: 'Las Vegas, NV' })).toBeVisible();
    await box.press('Escape');
    await expect(page.getByRole('option', { name: 'Las Vegas, NV' })).toBeHidden();
    await expect(dialog).toBeVisible();
    await box.press('ArrowDown');
    await page.getByRole('option', { name: 'Las Vegas, NV' }).click();
    await dialog.getByRole('button', { name: 'Pickup Date' }).click();

    const pickupStep = page.getByRole('dialog', { name: 'Pickup' });
    await expect(pickupStep).toBeVisible();
    await expect(pickupStep.getByRole('button', { name: /Location: Las Vegas, NV/ })).toBeVisible();
    await pickDay(pickupStep, inDays(5));
    await pickupStep.getByRole('button', { name: 'Return Date' }).click();

    const returnStep = page.getByRole('dialog', { name: 'Return' });
    await expect(returnStep).toBeVisible();
    // The chosen pickup shows as chosen (filled, not struck through, though it cannot be the return).
    const pickup = returnStep.locator(`[data-date="${inDays(5)}"]`);
    await expect(pickup).toHaveAttribute('aria-label', /, pickup, unavailable: return must be at least one day after/);
    expect(
      await pickup.evaluate((el) => {
        const style = getComputedStyle(el);
        return [style.textDecorationLine, style.color, style.backgroundColor];
      }),
    ).toEqual(['none', 'rgb(255, 255, 255)', 'rgb(11, 106, 63)']);
    await pickDay(returnStep, inDays(8));
    // Every return is judged from the pickup here too: the calendar says why, and a day past 28 is refused.
    await expect(returnStep.getByText(/A trip can be up to 28 days long/)).toBeVisible();
    const tooFar = returnStep.locator(`[data-date="${inDays(5 + 29)}"]`);
    for (let i = 0; i < 3 && (await tooFar.count()) === 0; i += 1)
      await returnStep.getByRole('button', { name: 'Next month' }).click();
    await expect(tooFar).toHaveAttribute('aria-label', /unavailable: more than 28 days from pickup/);
    // A renter can still tap it (forced past the disabled state): the return stays as it was.
    await tooFar.click({ force: true });
    await returnStep.getByRole('button', { name: 'Search Vehicles' }).click();

    await expect(returnStep).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`pickupDate=${inDays(5)}`));
    await expect(page.getByRole('link', { name: /total for 3 days/ }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: /total for 3 days/ }).first()).toContainText('Las Vegas');
  });

  test('nothing moves by itself while the page and its results load', async ({ page }) => {
    await recordLayoutShifts(page);
    await page.goto(`/search?city=${encodeURIComponent('St Louis, MO')}`);
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
    await page.waitForLoadState('networkidle');
    // Lighthouse's bar for a page that holds still.
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  });

  test('a bookmarked search whose dates have passed says the dates moved, whole on a phone', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('St Louis, MO')}&pickupDate=2020-01-10&returnDate=2020-01-13`);
    // The notice is judged once the moved dates' cars are listed and the address rewritten to them.
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    await expect(page).not.toHaveURL(/pickupDate=2020-01-10/);
    const notice = page.getByRole('status').filter({ hasText: 'We moved your dates' });
    await expectWhole(notice);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: test.info().outputPath('search-moved-375.png') });
  });

  test('list and map toggle, and no accessibility violations at 375 px', async ({ page }) => {
    await page.goto(`/search?city=${encodeURIComponent('St Louis, MO')}`);
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByText('Map', { exact: true }).click();
    await expect(page.getByRole('region', { name: /Map of vehicles near/ })).toBeVisible();
    await page.getByText('List', { exact: true }).click();
    await page
      .getByRole('link', { name: /total for/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { name: 'Features' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
