import { WIDE, atBothWidths, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { paidTrip } from '../support/trips.ts';
import { expect, inDays, test } from '../support/test.ts';
import { clockBeforePickup, moveServerClock } from '../support/trip-clock.ts';

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('cancelling a trip', () => {
  test.use({ viewport: WIDE });

  test('inside the free-cancellation window: the trip is cancelled, the deposit released and the money refunded', async ({
    page,
  }) => {
    // Booked, paid, cancelled and every refund followed to the receipt: longer than a page's test.
    test.setTimeout(150_000);
    const { session, id } = await paidTrip(page);
    const section = page.getByRole('region', { name: 'Cancel Trip' });
    await expect(section).toContainText('Free cancellation until');
    await expectNoAxeViolationsAtBothWidths(page);
    await section.getByRole('button', { name: 'Cancel Trip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this trip?' });
    await expect(dialog).toContainText('is refunded to your card and the $200.00 deposit hold is released');
    await expectNoAxeViolationsAtBothWidths(page);
    await dialog.getByRole('button', { name: 'Cancel Trip' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Your trip is cancelled' })).toBeVisible();
    await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verification' })).toHaveCount(0);
    await expect(page.getByText('Security deposit · Released')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('link', { name: 'Book Again' })).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);

    // What was charged came back, to the cent.
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation;
    expect(trip.status).toBe('Canceled');
    const charged = trip.transactions.filter((t: { category: string }) => t.category !== 'Deposit');
    expect(charged.length).toBeGreaterThan(0);
    expect(charged.every((t: { status: string }) => t.status === 'Refunded')).toBe(true);

    // Book Again searches the trip's own place and model, as the home page's Rent Again does.
    await page.getByRole('link', { name: 'Book Again' }).click();
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    const search = new URL(page.url()).searchParams;
    expect(search.get('model')).toBe(trip.vehicle.model.name);
    const place = `${trip.pickup_location.city}, ${trip.pickup_location.state}`;
    await atBothWidths(page, async () => {
      if (page.viewportSize()!.width >= 768)
        await expect(page.getByRole('search').getByRole('combobox')).toHaveValue(place);
      else await expect(page.getByRole('button', { name: `Change search: ${place}`, exact: false })).toBeVisible();
    });
    await page.goto('/trips');
    await expect(page.getByRole('region', { name: 'Canceled Trips' })).toContainText(`Trip ID ${id}`);
  });

  test('inside the last day before pickup on the server’s clock: no Cancel Trip, whatever the browser’s clock says', async ({
    page,
  }) => {
    const { session, id } = await paidTrip(page, { pickupDate: inDays(2), returnDate: inDays(3) });
    await expect(page.getByRole('region', { name: 'Cancel Trip' })).toBeVisible();
    // The server's clock moves to six hours before pickup; the browser's stays a day or more earlier.
    const { session: again, minutes } = await clockBeforePickup(page, session, id, 6);
    try {
      await page.goto(`/trip/${id}`);
      await expect(page.getByRole('region', { name: 'Modify Reservation' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Cancel Trip' })).toHaveCount(0);
      // The page says why, with the deadline that passed on the pickup place's clock.
      await expect(page.getByRole('region', { name: 'Cancellation' })).toContainText(
        /^CancellationFree cancellation ended on .+ \(one day before pickup\), so this trip can no longer be cancelled\.$/,
      );
      await expectNoAxeViolationsAtBothWidths(page);
      // And the server refuses it, as the page said.
      const refused = await page.request.post(`/api/v1/reservations/${id}/cancel`, { headers: authHeader(again) });
      expect(refused.status()).toBe(409);
    } finally {
      await moveServerClock(page, -minutes);
    }
  });
});
