import { type Page } from '@playwright/test';
import { NARROW } from '../support/axe.ts';
import { signInViaApi } from '../support/auth.ts';
import { tripDates } from '../support/booking.ts';
import { bookAndPayViaApi } from '../support/trips.ts';
import { expect, test } from '../support/test.ts';

/** A self-serve car in Nashville for the usual trip dates, found as a search finds it. */
async function someCar(page: Page): Promise<string> {
  const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: 'Nashville, TN' } });
  const id = (await res.json()).options[0].id;
  const trip = { ...tripDates(), pickupTime: '10:00', returnTime: '10:00' };
  const search = await (await page.request.get(`/api/v1/vehicles/search/${id}`, { params: trip })).json();
  return search.items.find((i: { is_self_serve_booking_allowed: boolean }) => i.is_self_serve_booking_allowed).vin;
}

/** Holds every script of the app until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[^?]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Everything the page reports as an error: failed hydration shows up here. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

test.describe('pages drawn by the server, on a phone', () => {
  test.use({ viewport: NARROW, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile' });

  test("a car's page shows the car before its scripts run, and the app takes that screen over rather than redrawing it", async ({
    page,
  }) => {
    const vin = await someCar(page);
    const errors = errorsOf(page);
    // Hold every script of the app until the drawn screen has been looked at.
    const release = await holdScripts(page);
    await page.goto(`/vehicle/${vin}`, { waitUntil: 'commit' });
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).toHaveText(/^20\d\d /);
    await expect(page.getByRole('img', { name: /front three-quarter view/ }).first()).toBeVisible();
    await expect(page).toHaveTitle(`Vehicle ${vin} | Ampere`);
    const drawn = await title.elementHandle();
    release();

    // The app is running: the booking card (drawn only in the browser) shows a price, and a button works.
    await expect(page.getByRole('button', { name: 'Book', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Show all photos' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    // The heading the server drew is the one on screen: taken over, not thrown away and redrawn.
    expect(await drawn!.evaluate((el) => el.isConnected)).toBe(true);
    // The instructions, sanitised in the browser, are filled in after the take-over.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Pickup instructions' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('sign-in works before and after the app has started, and a signed-in renter is not shown the signed-out page', async ({
    page,
  }) => {
    const errors = errorsOf(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    const phone = page.getByRole('textbox', { name: /phone/i });
    await expect(phone).toBeEditable();
    expect(errors).toEqual([]);
    // The browser reports its layout, so the next screen the server draws is drawn for a phone.
    const cookie = async (name: string) => (await page.context().cookies()).find((c) => c.name === name)?.value;
    expect(await cookie('ampere_layout')).toBe('narrow');

    // Signed in, /login sends the renter on (spec 2), whether or not the server knew of the sign-in.
    await signInViaApi(page, undefined, '/search');
    await expect.poll(() => cookie('ampere_signed_in')).toBe('1');
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await page.context().clearCookies();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test("a signed-in renter's trip is drawn for them before the scripts run, then taken over", async ({ page }) => {
    const session = await signInViaApi(page, undefined, '/search');
    const tripId = await bookAndPayViaApi(page.request, session, 'Nashville, TN', tripDates());
    const errors = errorsOf(page);
    const release = await holdScripts(page);
    await page.goto(`/trip/${tripId}`, { waitUntil: 'commit' });
    await expect(page.getByText(`Trip ID ${tripId}`)).toBeVisible();
    await expect(page.getByRole('link', { name: /Ampere/ }).first()).toBeVisible();
    // The buttons are off until the app runs.
    const verify = page.getByRole('button', { name: 'Verify' });
    await expect(verify).toBeDisabled();
    const drawn = await page.getByRole('heading', { level: 1 }).elementHandle();
    release();
    await expect(verify).toBeEnabled();
    expect(await drawn!.evaluate((el) => el.isConnected)).toBe(true);
    expect(errors).toEqual([]);
  });

  test('/search arrives with the cars of the place search setup falls back to, and keeps them once the app runs', async ({
    page,
  }) => {
    const errors = errorsOf(page);
    const release = await holdScripts(page);
    await page.goto(`/search?city=${encodeURIComponent('Dallas, TX')}`, { waitUntil: 'commit' });
    const count = page.getByRole('heading', { name: /^\d+ vehicles?$/ });
    await expect(count).toBeVisible();
    await expect(page.getByRole('button', { name: /Dallas, TX/ })).toBeVisible();
    const cards = page.getByRole('link', { name: /total for/ });
    const firstCar = (await cards.first().getAttribute('href'))!.split('?')[0]!;
    release();
    // Running, the page writes the place and dates into the address and shows the same cars.
    await expect(page).toHaveURL(/searchQuery=\d+/);
    await expect(page).toHaveURL(/pickupDate=/);
    await expect(cards.first()).toHaveAttribute('href', new RegExp(`^${firstCar}\\?`));
    await expect(page.getByRole('button', { name: 'Filters' })).toBeEnabled();
    expect(errors).toEqual([]);
  });
});
