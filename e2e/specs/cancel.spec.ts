import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader, bookAndPay } from '../support/booking.ts';
import { expect, test } from '../support/test.ts';

for (const [label, viewport] of [
  ['wide', WIDE],
  ['narrow', NARROW],
] as const) {
  test.describe(`cancelling a trip (${label})`, () => {
    test.use({ viewport });

    test('inside the free-cancellation window: the trip is cancelled, the deposit released and the money refunded', async ({
      page,
    }) => {
      const { session, id } = await bookAndPay(page);
      const section = page.getByRole('region', { name: 'Cancel Trip' });
      await expect(section).toContainText('Free cancellation until');
      await expectNoAxeViolations(page);
      await section.getByRole('button', { name: 'Cancel Trip' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this trip?' });
      await expect(dialog).toContainText('is refunded to your card and the $200.00 deposit hold is released');
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: 'Cancel Trip' }).click();

      await expect(page.getByRole('status').filter({ hasText: 'Your trip is cancelled' })).toBeVisible();
      await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Verification' })).toHaveCount(0);
      await expect(page.getByText('Security deposit · Released')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('link', { name: 'Book Again' })).toBeVisible();
      await expectNoAxeViolations(page);

      // What was charged came back, to the cent.
      const trip = (
        await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json()
      ).reservation;
      expect(trip.status).toBe('Canceled');
      const charged = trip.transactions.filter((t: { category: string }) => t.category !== 'Deposit');
      expect(charged.length).toBeGreaterThan(0);
      expect(charged.every((t: { status: string }) => t.status === 'Refunded')).toBe(true);
      await page.goto('/trips');
      await expect(page.getByRole('region', { name: 'Canceled Trips' })).toContainText(`Trip ID ${id}`);
    });
  });
}
