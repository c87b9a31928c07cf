import { type Page } from '@playwright/test';
import { WIDE } from '../support/axe.ts';
import { tripDates } from '../support/booking.ts';
import { expect, test } from '../support/test.ts';
import { paidTrip } from '../support/trips.ts';

/** Text no page the spec defines may show a renter: the marks of a page not built yet. */
const UNFINISHED =
  /arrives with the next release|coming soon|placeholder|\bTODO\b|lorem ipsum|not implemented|under construction/i;

/** Opens a path, waits for its heading, and reads everything the renter sees. */
async function expectFinished(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first(), `a heading on ${path}`).toBeVisible();
  await expect(page.getByRole('status', { name: /^Loading/ }), `${path} finished loading`).toHaveCount(0);
  expect(await page.locator('body').innerText(), path).not.toMatch(UNFINISHED);
}

test.use({ viewport: WIDE });

test('every route in the spec shows real content, signed out and signed in', async ({ page }) => {
  test.setTimeout(120_000);
  const dates = tripDates();
  const res = await page.request.get('/api/v1/search/autocomplete', { params: { query: 'Dallas, TX' } });
  const searchQuery = String((await res.json()).options[0].id);
  const search = await (
    await page.request.get(`/api/v1/vehicles/search/${searchQuery}`, {
      params: { ...dates, pickupTime: '10:00', returnTime: '10:00' },
    })
  ).json();
  for (const path of [
    `/search?${new URLSearchParams({ searchQuery, ...dates }).toString()}`,
    `/vehicle/${search.items[0].vin as string}`,
    '/login',
    '/forbidden',
    '/error',
    '/no-such-page',
    '/rental-agreement',
    '/waiver-contract',
    '/receipt?token=',
    '/policies',
  ]) {
    await expectFinished(page, path);
  }

  // Signed in, with a paid trip: home, profile, trips, onboarding and every page of the trip.
  const { id } = await paidTrip(page);
  for (const path of [
    '/',
    '/profile',
    '/trips',
    '/onboarding',
    '/onboarding/license/verification',
    '/onboarding/insurance/verification',
    `/trip/${id}`,
    `/trip/${id}/damage-waiver`,
    `/trip/${id}/signature`,
    `/trip/${id}/pay`,
    `/trip/${id}/confirmation`,
    `/trip/${id}/receipt`,
    `/trip/${id}/extension`,
    `/trip/${id}/extension/confirmed`,
    `/trip/${id}/return`,
  ]) {
    await expectFinished(page, path);
  }
});
