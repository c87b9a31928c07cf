import { formatUsPhone } from '../support/auth.ts';
import { WIDE, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { bookToWaiver } from '../support/booking.ts';
import { paidTrip } from '../support/trips.ts';
import { expect, test } from '../support/test.ts';

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('the trip page', () => {
  test.use({ viewport: WIDE });

  test('where and when, the address to copy, directions and map, instructions, driver details and the receipt link', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { session } = await paidTrip(page);
    const place = page.getByRole('region', { name: 'Pickup and return' });
    await expect(place).toContainText('Nashville');
    await expect(place.getByRole('link', { name: 'Directions' })).toHaveAttribute(
      'href',
      /google\.com\/maps\/dir\/\?api=1&destination=/,
    );
    await expect(place.getByRole('heading', { name: 'Pickup instructions' })).toBeVisible();
    await expect(place.getByRole('heading', { name: 'Return instructions' })).toBeVisible();
    await place.getByRole('button', { name: 'Copy Address' }).click();
    await expect(place.getByRole('status').filter({ hasText: 'Address copied!' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/, Nashville, TN \d{5}$/);

    const driver = page.getByRole('region', { name: 'Driver details' });
    await expect(driver).toContainText(formatUsPhone(session.user.phone));
    await expect(driver).toContainText('Not verified yet');
    await expect(driver).toContainText('@example.com');
    await expect(page.getByRole('link', { name: 'Receipt' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Book Again' })).toHaveCount(0);
    await expectNoAxeViolationsAtBothWidths(page);
  });

  test('a renter back on the car page after leaving a booking unpaid is offered to continue it', async ({ page }) => {
    const { id, vin } = await bookToWaiver(page);
    await page.goto(`/vehicle/${vin}`);
    const held = page.getByRole('status').filter({ hasText: 'You started booking this car' });
    await expect(held).toContainText('not paid yet');
    await expectNoAxeViolationsAtBothWidths(page);
    await held.getByRole('link', { name: 'Continue your booking' }).click();
    // The pay page sends a booking without its signature back to sign first.
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/(pay|signature)$`));
    await expect(page.getByRole('heading', { name: 'Your Signature', level: 1 })).toBeVisible();
  });
});
