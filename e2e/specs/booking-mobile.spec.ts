import { type Page } from '@playwright/test';
import { NARROW, expectNoAxeViolations } from '../support/axe.ts';
import { bookToWaiver, fillCard, freeCars, sign, tripDates } from '../support/booking.ts';
import { drawnLines, expectWhole } from '../support/layout.ts';
import { expect, test } from '../support/test.ts';
import { seen, watchScreen } from '../support/watch.ts';

/** Step screenshots go to the test's output folder (for looking at the layout by eye). */
const shot = (name: string) => test.info().outputPath(`${name}.png`);

/** No horizontal scrolling at this width: nothing sticks out of the screen. */
async function expectNoSideScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

async function step(page: Page, name: string) {
  await expectNoSideScroll(page);
  await page.screenshot({ path: shot(`375-${name}`), fullPage: true });
  await expectNoAxeViolations(page);
}

test.describe('booking at 375 px', () => {
  test.use({ viewport: NARROW });

  test('every step fits the screen, shows only Review & Pay in the trail, and has no accessibility violations', async ({
    page,
  }) => {
    // The car with the longest model name on offer: the navbar has the least room for it.
    const dates = tripDates();
    const car = (await freeCars(page.request, 'Nashville, TN', dates)).reduce((a, b) =>
      b.model.name.length > a.model.name.length ? b : a,
    );
    const { id } = await bookToWaiver(page, { profile: false, dates, vin: car.vin });
    await expectWhole(page.getByRole('banner').getByText(car.model.name, { exact: true }));
    const trail = page.getByRole('list', { name: 'Booking steps' });
    // Spec 2: at 768 px or narrower only Review & Pay shows.
    await expect(trail.getByRole('link', { name: 'Review & Pay' })).toBeVisible();
    await expect(trail.getByText('Waivers')).toBeHidden();
    await expect(trail.getByRole('link', { name: 'Signature' })).toBeHidden();
    // The two choices stay on screen, at the top of the page and scrolled to its middle.
    for (const y of [0, 400]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await expect(page.getByRole('button', { name: 'Cover Trip' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('button', { name: "No, I'll cover damages" })).toBeInViewport({ ratio: 1 });
    }
    await step(page, '1-damage-waiver');

    await page.getByRole('button', { name: 'Cover Trip' }).click();
    await expect(page.getByRole('heading', { name: 'Your Signature' })).toBeVisible();
    await step(page, '2-signature');
    await watchScreen(page);
    await sign(page, { first: 'Riley', last: 'Chen' });

    await expect(page.getByRole('heading', { name: 'Review & Pay', level: 1 })).toBeVisible();
    await expect(trail.getByText('Review & Pay')).toHaveAttribute('aria-current', 'step');
    await step(page, '3-pay');
    // Long enough to wrap on a phone.
    const email = `riley.${Date.now()}.montgomerywhitfield@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Email').blur();
    await page.getByLabel('Date of birth').pressSequentially('07041995');
    await page.getByRole('combobox', { name: 'Address' }).fill('2 Congress');
    await page.getByRole('option', { name: /^2 Congress Ave, Austin, TX 78701$/ }).click();

    const confirm = page.getByRole('button', { name: 'Confirm Booking' });
    // A refused coupon: its toast sits above the bar, never over Confirm.
    await page.getByLabel('Coupon code').fill('NOSUCHCODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    const toast = page.getByRole('alert').filter({ hasText: /NOSUCHCODE|code/i });
    await expect(toast).toBeInViewport({ ratio: 1 });
    const footBar = (await confirm.locator('xpath=..').boundingBox())!;
    const toastBox = (await toast.boundingBox())!;
    expect(toastBox.y + toastBox.height, 'the toast clear of the bar').toBeLessThanOrEqual(footBar.y);
    await page.screenshot({ path: shot('375-3a-coupon-refused') });
    await page.getByRole('button', { name: 'Close' }).click();

    // A declined card: the total and Confirm stay at the foot of the screen, and the message is brought
    // into view above them.
    await fillCard(page, '4000 0000 0000 0002');
    await confirm.click();
    const declined = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
    await expect(declined).toBeInViewport({ ratio: 1 });
    await expect(confirm).toBeInViewport({ ratio: 1 });
    await expect(page.getByText('Due now')).toBeInViewport();
    const bar = (await confirm.locator('xpath=..').boundingBox())!;
    expect(bar.y + bar.height, 'the bar at the foot of the screen').toBeGreaterThanOrEqual(NARROW.height - 1);
    const message = (await declined.boundingBox())!;
    expect(message.y + message.height, 'the message clear of the bar').toBeLessThanOrEqual(bar.y);
    await page.screenshot({ path: shot('375-3b-declined') });

    await fillCard(page, '4242 4242 4242 4242');
    // Confirming answers only once the payment's own event has refreshed the trip, settled: the page
    // then says, on screen, that the payment was received, the moment a second spinner used to show.
    let received = false;
    await page.route('**/api/v1/reservations/confirm', async (route) => {
      received = await expect(page.getByRole('status').filter({ hasText: 'Payment received.' }))
        .toBeInViewport({ timeout: 8_000 })
        .then(
          () => true,
          () => false,
        );
      await route.continue();
    });
    const loadersBefore = (await seen(page)).loaders.length;
    await confirm.click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`), { timeout: 15_000 });
    expect(received, "'Payment received' on screen while confirming waited").toBe(true);
    // The trip opens at its top on the booked moment. On the way no 'caught up' page flashed, the payment
    // page's loader never read 100%, and from paying to here one spinner showed: the pressed button's.
    await expect(page.getByRole('status', { name: 'Your rental is booked!' })).toBeInViewport();
    const watched = await seen(page);
    expect(watched).toMatchObject({ caughtUp: false, maxPercent: 99 });
    expect(watched.loaders.slice(loadersBefore)).toEqual(['Confirm Booking']);
    await expect(page.getByText('Upcoming', { exact: true })).toBeVisible();
    // The email wraps only before its '@' or after a dot, never inside a name.
    const shown = page
      .getByRole('region', { name: 'Driver details' })
      .getByRole('definition')
      .filter({ hasText: email });
    const lines = await drawnLines(shown);
    expect(lines.join('')).toBe(email);
    expect(lines.length, 'the address wraps at this width').toBeGreaterThan(1);
    for (const [i, line] of lines.slice(0, -1).entries())
      expect(line.endsWith('.') || lines[i + 1]!.startsWith('@'), `a break after "${line}"`).toBe(true);
    await step(page, '4-trip');

    await page.goto(`/trip/${id}/confirmation`);
    await expect(page.getByRole('link', { name: 'View My Trip' })).toBeVisible();
    await step(page, '5-confirmation');
  });

  test('create-booking shows its loader, and the waiver contract reads well on a phone', async ({ page }) => {
    await page.goto('/waiver-contract?state=TX&price_per_day=25.00&total_price=175.00');
    await expect(page.getByRole('heading', { name: 'Collision Protection Waiver' })).toBeVisible();
    await step(page, '6-waiver-contract');
    await page.goto('/rental-agreement');
    await expect(page.getByRole('heading', { name: 'Rental Agreement', level: 1 })).toBeVisible();
    await step(page, '7-rental-agreement');
  });
});

test.describe('booking at 1280 px, screenshots', () => {
  test('each step at full width', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const { id } = await bookToWaiver(page);
    await page.screenshot({ path: shot('1280-1-damage-waiver'), fullPage: true });
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await expect(page.getByRole('heading', { name: 'Your Signature' })).toBeVisible();
    await page.screenshot({ path: shot('1280-2-signature'), fullPage: true });
    await sign(page);
    await expect(page.getByRole('heading', { name: 'Review & Pay', level: 1 })).toBeVisible();
    await page.screenshot({ path: shot('1280-3-pay'), fullPage: true });
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page.getByText('Upcoming', { exact: true })).toBeVisible();
    await page.screenshot({ path: shot('1280-4-trip'), fullPage: true });
  });
});
