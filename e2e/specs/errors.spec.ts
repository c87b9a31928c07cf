import { expect, test } from '@playwright/test';

test('an unknown path shows the not-found page with its two buttons', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back Home' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'Search Vehicles' })).toHaveAttribute('href', '/search');
  await expect(page).toHaveTitle('Page Not Found | Ampere');
});
