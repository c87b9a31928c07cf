import { type Page } from '@playwright/test';
import { NARROW, expectNoAxeViolations } from '../support/axe.ts';
import { bookToWaiver, fillCard, sign } from '../support/booking.ts';
import { expect, test } from '../support/test.ts';

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
    const { id } = await bookToWaiver(page, { profile: false });
    const trail = page.getByRole('list', { name: 'Booking steps' });
    // Spec 2: at 768 px or narrower only Review & Pay shows.
    await expect(trail.getByRole('link', { name: 'Review & Pay' })).toBeVisible();
    await expect(trail.getByText('Waivers')).toBeHidden();
    await expect(trail.getByRole('link', { name: 'Signature' })).toBeHidden();
    await step(page, '1-damage-waiver');

    await page.getByRole('button', { name: 'Cover Trip' }).click();
    await expect(page.getByRole('heading', { name: 'Your Signature' })).toBeVisible();
    await step(page, '2-signature');
    await sign(page, { first: 'Riley', last: 'Chen' });

    await expect(page.getByRole('heading', { name: 'Review & Pay', level: 1 })).toBeVisible();
    await expect(trail.getByText('Review & Pay')).toHaveAttribute('aria-current', 'step');
    await step(page, '3-pay');
    await page.getByLabel('Email').fill('riley@example.com');
    await page.getByLabel('Email').blur();
    await page.getByLabel('Date of birth').pressSequentially('07041995');
    await page.getByRole('textbox', { name: 'Address' }).fill('2 Congress');
    await page.getByRole('option', { name: /^2 Congress Ave, Austin, TX 78701$/ }).click();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();

    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page.getByText('Upcoming', { exact: true })).toBeVisible();
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
