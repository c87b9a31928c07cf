import { type Page, expect, test } from '@playwright/test';
import { NARROW, expectNoAxeViolations } from '../support/axe.ts';

async function firstVin(page: Page, city: string, selfServe = true): Promise<string> {
  const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: city } });
  const id = (await res.json()).options[0].id;
  const pickup = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const ret = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
  const search = await (await page.request.get(`/api/v1/vehicles/search/${id}`, { params: { pickupDate: pickup, returnDate: ret } })).json();
  return search.items.find((i: { is_self_serve_booking_allowed: boolean }) => i.is_self_serve_booking_allowed === selfServe).vin;
}

test('Book sends a signed-out renter to sign in, carrying the booking to resume', async ({ page }) => {
  const vin = await firstVin(page, 'Nashville, TN');
  await page.goto(`/vehicle/${vin}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByLabel(/Collision Protection/).check();
  await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText('Collision Protection');
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
  const vin = await firstVin(page, 'Austin, TX');
  await page.goto(`/vehicle/${vin}`);
  const select = page.getByLabel('Return location');
  await expect(select.locator('option')).toHaveCount(3);
  const options = await select.locator('option').allTextContents();
  await select.selectOption({ label: options[1]! });
  await expect(page.getByText('One-way trips are booked by text')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Text / })).toHaveAttribute('href', /^sms:/);
});

test('vehicleUnavailableModal=true opens the Vehicle Unavailable dialog', async ({ page }) => {
  const vin = await firstVin(page, 'Phoenix, AZ');
  await page.goto(`/vehicle/${vin}?vehicleUnavailableModal=true`);
  const dialog = page.getByRole('dialog', { name: 'Vehicle Unavailable' });
  await expect(dialog).toContainText("We're sorry, but the vehicle you've selected is no longer available for your requested dates.");
  await dialog.getByRole('button', { name: 'Modify Dates' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/vehicleUnavailableModal/);
});

test('a car not bookable online shows no Book button', async ({ page }) => {
  const vin = await firstVin(page, 'Dallas, TX', false);
  await page.goto(`/vehicle/${vin}`);
  await expect(page.getByText('Booked with our team')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
});

test('an unknown VIN shows the not-found page', async ({ page }) => {
  await page.goto('/vehicle/5YJ3E1EA0NF999999');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.' })).toBeVisible();
});

test.describe('vehicle page at 375 px', () => {
  test.use({ viewport: NARROW });
  test('shows all photos in a gallery and has no accessibility violations', async ({ page }) => {
    const vin = await firstVin(page, 'Las Vegas, NV');
    await page.goto(`/vehicle/${vin}`);
    await expect(page.getByRole('heading', { name: 'Features' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Show all photos' }).click();
    const gallery = page.getByRole('dialog', { name: /all photos/ });
    await expect(gallery.locator('img')).toHaveCount(8);
    for (const img of await gallery.locator('img').all()) await expect(img).toHaveAttribute('alt', /Model/);
  });
});
