import { NARROW, atBothWidths, expectNoAxeViolations, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { expectWhole } from '../support/layout.ts';
import { authHeader } from '../support/booking.ts';
import { chargeTheCar, paidTrip } from '../support/trips.ts';
import { expect, inDays, test } from '../support/test.ts';
import { clockToPickup, moveServerClock, throughDepositReview } from '../support/trip-clock.ts';

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('living through a trip', () => {
  test.use({ viewport: NARROW });

  test('pickup comes, the trip goes On Rent; End Trip shows the car’s readings and fees first, then what the deposit kept and released, and the receipt shows them', async ({
    page,
  }) => {
    // Pickup, the drive, End Trip, the deposit's review and the receipt: longer than a page's test.
    test.setTimeout(150_000);
    // A one-day trip from tomorrow: 200 miles included.
    const { session, id, vin } = await paidTrip(page, { pickupDate: inDays(1), returnDate: inDays(2) });
    // It goes out charged, so bringing it back nearly flat owes the Recharge Fee (decision 103).
    await chargeTheCar(page.request, vin);
    const clocked = await clockToPickup(page, session, id);
    let again = clocked.session;
    const minutes = clocked.minutes;
    let reviewed = 0;
    try {
      await page.goto(`/trip/${id}`);
      await expect(page.getByText('Active', { exact: true })).toBeVisible();
      const metrics = page.getByRole('region', { name: 'Vehicle metrics' });
      await expect(metrics).toContainText('Mileage out');
      await expect(metrics).toContainText('On Rent');
      await expect(page.getByRole('region', { name: 'Cancel Trip' })).toHaveCount(0);
      await expectNoAxeViolationsAtBothWidths(page);

      // The renter drives 250 miles and brings the car back nearly flat.
      const drove = await page.request.post(`/api/dev/vehicles/${vin}/drive`, {
        data: { miles: 250, battery_level: 0.05 },
      });
      expect(drove.ok(), await drove.text()).toBe(true);

      await page.getByRole('region', { name: 'End Trip' }).getByRole('link', { name: 'Return instructions' }).click();
      await expect(page).toHaveURL(new RegExp(`/trip/${id}/return$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Return your');
      await expect(page.getByText('Return by')).toBeVisible();
      await expectNoAxeViolationsAtBothWidths(page);
      await page.getByRole('region', { name: 'End Trip' }).getByRole('button', { name: 'End Trip' }).click();
      const dialog = page.getByRole('dialog', { name: 'End your trip?' });
      // The numbers first: what the car reports now, and the fees ending now would take from the deposit.
      const now = dialog.getByRole('region', { name: 'What the car reports now' });
      await expect(now).toContainText('Battery5% (at least 10%)');
      await expect(now).toContainText('Miles driven250 mi (200 mi included)');
      await expect(now).toContainText(/before your return time \(now .*, return by \w{3} \d{1,2}, \d{4}, 10:00 AM/);
      const preview = dialog.getByRole('group', { name: 'Fees if you end now' });
      await expect(preview).toContainText('Recharge Fee (0–20%)$45.00');
      await expect(preview).toContainText('Mileage Overage (50 mi)$17.50');
      await expect(preview).toContainText('Total$62.50');
      await expect(dialog).toContainText(
        '$62.50 will come from your $200.00 deposit hold and $137.50 will be released.',
      );
      await expect(dialog).toContainText('your digital key stops working and the trip can no longer be extended');
      await atBothWidths(page, async () => {
        await expectWhole(preview, dialog);
        await expectNoAxeViolations(page);
      });
      await dialog.getByRole('button', { name: 'End Trip' }).click();
      // After: what was taken, from where and when, and what was released.
      const thanks = page.getByRole('dialog', { name: 'Thanks for driving with us!' });
      const taken = thanks.getByRole('group', { name: 'Fees taken' });
      await expect(taken).toContainText('Recharge Fee (0–20%)from your deposit');
      await expect(taken).toContainText('Mileage Overage (50 mi)from your deposit');
      await expect(taken).toContainText('Total$62.50');
      await expect(taken).toContainText(/Recharge Fee.*Mileage Overage/);
      // The hold stays for the 24-hour review (decision 092) before the fees are taken and the rest released.
      await expect(thanks.getByRole('group', { name: 'Security deposit' })).toHaveText(
        'Your $200.00 deposit stays held for up to 24 hours while we check the car; then what the fees leave is released, and your receipt shows it.',
      );
      await expect(thanks).not.toContainText("We'll settle");
      await expect(thanks).not.toContainText('left to pay');
      await atBothWidths(page, async () => {
        await expectWhole(taken, thanks);
        await expectNoAxeViolations(page);
      });
      // The review ends: the hold is settled by the job (one partial capture, the rest released).
      const review = await throughDepositReview(page, again, id);
      again = review.session;
      reviewed = review.minutes;
      await page.goto(`/trip/${id}`);

      await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
      await expect(page.getByText('Completed', { exact: true })).toBeVisible();
      // The trip shows when the car came back, and the booked return it differs from.
      const when = page.getByRole('region', { name: 'Pickup and return' });
      await expect(when.getByText('Returned', { exact: true })).toBeVisible();
      await expect(when).toContainText('Booked return:');
      await expect(metrics).toContainText('5%');
      await expect(metrics).toContainText('You drove 250 mi.');
      const items = page.getByRole('group', { name: 'Line items' });
      await expect(items).toContainText('Recharge Fee (0–20%)');
      await expect(items).toContainText('$45.00');
      await expect(items).toContainText('Mileage Overage (50 mi)');
      await expect(items).toContainText('$17.50');
      await expect(page.getByText('Security deposit · Partially Captured')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('link', { name: 'Book Again' })).toBeVisible();
      await page.goto('/trips');
      await expect(page.getByRole('region', { name: 'Past Trips' })).toContainText('returned');
      await page.goto(`/trip/${id}`);
      await expect(page.getByRole('region', { name: 'End Trip' })).toHaveCount(0);
      await expectNoAxeViolationsAtBothWidths(page);

      // The fees on the receipt: taken from the security deposit, which shows as partially captured.
      await page.getByRole('link', { name: 'Receipt' }).click();
      await expect(page).toHaveURL(new RegExp(`/trip/${id}/receipt$`));
      await expect(page.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
      await expect(page.getByText('Mileage in')).toBeVisible();
      const depositCard = page.locator('details', { hasText: 'Partially Captured' });
      await expect(depositCard.locator('summary')).toContainText('$62.50');
      await depositCard.locator('summary').click();
      await expect(depositCard.getByText('Recharge Fee (0–20%)')).toBeVisible();
      await expect(depositCard).toContainText('Pulled from security deposit');
      await expectNoAxeViolationsAtBothWidths(page);

      const ended = (
        await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(again) })).json()
      ).reservation;
      const deposit = ended.transactions.find((t: { category: string }) => t.category === 'Deposit');
      expect(deposit.captured_amount).toBe(4_500 + 1_750);
      expect(ended.payment_balance).toBe(0);
      expect(ended.key).toBeNull();
    } finally {
      await moveServerClock(page, -minutes - reviewed);
    }
  });
});
