import { drawPagesInBrowser, signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader, tripDates } from '../support/booking.ts';
import { drawnLines, expectWhole } from '../support/layout.ts';
import { expect, test } from '../support/test.ts';
import { bookAndPayViaApi } from '../support/trips.ts';

/** GET /api/v1/reservations only (not a trip's own path). */
const TRIP_LISTS = /\/api\/v1\/reservations(\?.*)?$/;

for (const [label, viewport] of [
  ['375 px', NARROW],
  ['1280 px', WIDE],
] as const) {
  test.describe(`My Trips at ${label}`, () => {
    test.use({ viewport });

    test("a failed load says so and offers to try again, never 'No trips yet!'", async ({ page }) => {
      let failing = true;
      let calls = 0;
      await page.route(TRIP_LISTS, async (route) => {
        calls += 1;
        if (failing)
          await route.fulfill({
            status: 503,
            json: { statusCode: 503, code: 'UNAVAILABLE', message: 'Try again shortly.' },
          });
        else await route.fallback();
      });
      // The list is read in the browser (where the failure above is made), not by the server.
      await signInViaApi(page, uniquePhone(), '/healthz');
      await drawPagesInBrowser(page);
      await page.goto('/trips');
      const problem = page.getByRole('alert').filter({ hasText: "We couldn't load your trips" });
      await expect(problem).toBeVisible();
      await expect(page.getByText('No trips yet!')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'My Trips', level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`trips-failed-${viewport.width}.png`), fullPage: true });

      // The connection is back: Try Again loads the (empty) list of this new renter.
      failing = false;
      const before = calls;
      await problem.getByRole('button', { name: 'Try Again' }).click();
      await expect(page.getByRole('heading', { name: 'No trips yet!' })).toBeVisible();
      await expect(problem).toHaveCount(0);
      expect(calls).toBe(before + 1);
    });
  });
}

test.describe('My Trips at 375 px', () => {
  test.use({ viewport: NARROW });

  test("a trip's row shows its place name and trip id whole", async ({ page }) => {
    const session = await signInViaApi(page, uniquePhone(), '/healthz');
    const id = await bookAndPayViaApi(page.request, session, 'Austin, TX', tripDates(4));
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation;
    await page.goto('/trips');
    const row = page.getByRole('listitem').filter({ hasText: id });
    const place = row.getByText(trip.pickup_location.name, { exact: true });
    await expect(place).toBeVisible();
    // The list as the browser draws it once it has taken the page over.
    await page.waitForLoadState('networkidle');
    await expectWhole(place, row);
    expect((await drawnLines(place)).length).toBeLessThanOrEqual(2);
    const tripId = row.getByText(`Trip ID ${id}`);
    await expectWhole(tripId, row);
    expect(await drawnLines(tripId)).toEqual([`Trip ID ${id}`]);
    await expectWhole(row.getByRole('link', { name: `Trip Details for ${id}` }), row);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: test.info().outputPath('trips-375.png'), fullPage: true });
  });
});
