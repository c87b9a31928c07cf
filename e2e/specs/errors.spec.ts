import { NARROW, expectNoAxeViolations, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

test('an unknown path shows the not-found page with its two buttons, and answers HTTP 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  // Crawlers and monitors are told too: the page is not there.
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back Home' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'Search Vehicles' })).toHaveAttribute('href', '/search');
  await expect(page).toHaveTitle('Page Not Found | Ampere');
});

test('the forbidden page tells the renter to log in, with a Sign In button of its own and support contacts', async ({
  page,
}) => {
  await page.goto('/forbidden');
  await expect(page.getByRole('heading', { name: "Oops! you don't have access to this page." })).toBeVisible();
  await expect(page.getByText("Make sure you're logged in", { exact: false })).toBeVisible();
  await expect(page.locator('a[href^="mailto:"]').first()).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the downtime page shows the support message', async ({ page }) => {
  await page.goto('/error');
  await expect(page.getByRole('heading', { name: "We're experiencing some downtime." })).toBeVisible();
  await expect(page.locator('a[href^="tel:"]').first()).toBeVisible();
});

test('error pages have no accessibility violations at 375 and 1280 px', async ({ page }) => {
  await page.setViewportSize(NARROW);
  for (const path of ['/no-such-page', '/forbidden', '/error']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);
  }
});

test('the sign-in page with the application footer has no accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('English (US)');
  await expect(page.getByText('Copyright 2022-2025', { exact: false })).toBeVisible();
  await expectNoAxeViolations(page);
});
