import { NARROW, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { authHeader, cents } from '../support/booking.ts';
import { paidTrip } from '../support/trips.ts';
import { expect, inDays, test } from '../support/test.ts';
import { clockToPickup, moveServerClock } from '../support/trip-clock.ts';

/** An instant as the pages write it on Nashville's clock: 'Mar 5, 2027, 10:00 AM'. */
const shown = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })
    .format(new Date(iso))
    .replace(/\u202f/g, ' ');

type Paid = { transactions: { status: string; category: string; captured_amount: number }[] };
/** What a trip's card has paid so far (the deposit hold left out). */
const paidFor = (r: Paid) =>
  r.transactions
    .filter((t) => t.status === 'Successful' && t.category !== 'Deposit')
    .reduce((s, t) => s + t.captured_amount, 0);

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('extending a trip', () => {
  test.use({ viewport: NARROW });

  test('a day more: the price shown first, paid with the saved card as Extend Trip, and the return moves', async ({
    page,
  }) => {
    const { session, id } = await paidTrip(page);
    const before = (
      await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json()
    ).reservation;

    const modify = page.getByRole('region', { name: 'Modify Reservation' });
    await expect(modify).toContainText('Pick it up earlier or return it later.');
    await modify.getByRole('link', { name: 'Change Dates' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/extension$`));
    await expect(page.getByRole('heading', { name: 'Change your dates', level: 1 })).toBeVisible();
    // The return defaults to a day later; what it adds is shown before anything is taken.
    const adds = page.getByRole('group', { name: 'What the change adds' });
    await expect(adds).toContainText('Adds 1 day');
    await expect(adds).toContainText('Rental (1 day)');
    const toPay = cents((await adds.locator('div').filter({ hasText: 'To pay now' }).last().textContent())!);
    expect(toPay).toBeGreaterThan(0);
    await expectNoAxeViolationsAtBothWidths(page);

    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/pay$`));
    const extend = page.getByRole('button', { name: 'Extend Trip' });
    await expect(extend).toBeVisible({ timeout: 15_000 });
    // The change reads as a change: the return old → new, only what it adds, and no deposit again.
    const newReturn = shown(new Date(Date.parse(before.return_at) + 86_400_000).toISOString());
    const summary = page.getByRole('region', { name: 'Your new dates' });
    await expect(summary).toContainText(`${shown(before.return_at)} → ${newReturn}`);
    await expect(summary).toContainText(shown(before.pickup_at));
    await expect(summary).not.toContainText(`${shown(before.pickup_at)} →`);
    const added = summary.getByRole('group', { name: 'What the change adds' });
    await expect(added).toContainText('Rental (1 day)');
    expect(cents((await added.locator('div').filter({ hasText: 'Total for the change' }).last().textContent())!)).toBe(
      toPay,
    );
    await expect(page.getByText('Security deposit')).toHaveCount(0);
    // The booking bar says the same: what the change adds, not the whole trip again.
    const bar = page.getByText(/^\+\$[\d,.]+ for the change$/);
    await expect(bar).toBeVisible();
    expect(cents((await bar.textContent())!)).toBe(toPay);
    await expectNoAxeViolationsAtBothWidths(page);
    await page.screenshot({ path: test.info().outputPath(`promises-extend-pay.png`), fullPage: true });
    await extend.click();

    await expect(page).toHaveURL(new RegExp(`/trip/${id}/confirmation$`));
    await expect(page.getByRole('heading', { name: 'Your trip has been extended!', level: 1 })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: newReturn })).toContainText(
      `${shown(before.return_at)} → ${newReturn}`,
    );
    await expectNoAxeViolationsAtBothWidths(page);
    await page.screenshot({ path: test.info().outputPath(`promises-extend-confirmed.png`) });

    const after = (
      await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json()
    ).reservation;
    expect(Date.parse(after.return_at) - Date.parse(before.return_at)).toBe(86_400_000);
    expect(after.payment_balance).toBe(0);
    expect(after.requested_change).toBeNull();
    const paidForChange = after.transactions
      .filter(
        (t: { status: string; initiated_at: string }) =>
          t.status === 'Successful' && Date.parse(t.initiated_at) > Date.parse(before.created_at) + 1000,
      )
      .reduce((s: number, t: { captured_amount: number }) => s + t.captured_amount, 0);
    expect(paidForChange).toBe(toPay);

    await page.getByRole('link', { name: 'View My Trip' }).click();
    await expect(page.getByRole('region', { name: 'Pickup and return' })).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);
  });

  test('a trip On Rent: Extend Trip, the added day paid, and the return moves', async ({ page }) => {
    const { session, id } = await paidTrip(page, { pickupDate: inDays(1), returnDate: inDays(2) });
    const { session: again, minutes } = await clockToPickup(page, session, id);
    try {
      const trip = async () =>
        (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(again) })).json())
          .reservation;
      const before = await trip();
      await page.goto(`/trip/${id}`);
      const modify = page.getByRole('region', { name: 'Modify Reservation' });
      await expect(modify).toContainText('Need the car longer? Extend your return.');
      await modify.getByRole('link', { name: 'Extend Trip' }).click();
      await expect(page.getByRole('heading', { name: 'Extend your trip', level: 1 })).toBeVisible();
      // Under way, only the return can move: no pickup to pick.
      await expect(page.getByLabel('Pickup date')).toHaveCount(0);
      const adds = page.getByRole('group', { name: 'What the change adds' });
      await expect(adds).toContainText('Adds 1 day');
      const toPay = cents((await adds.locator('div').filter({ hasText: 'To pay now' }).last().textContent())!);
      await expectNoAxeViolationsAtBothWidths(page);

      await page.getByRole('button', { name: 'Continue to Payment' }).click();
      const extend = page.getByRole('button', { name: 'Extend Trip' });
      await expect(extend).toBeVisible({ timeout: 15_000 });
      await extend.click();
      await expect(page).toHaveURL(new RegExp(`/trip/${id}/confirmation$`));
      await expect(page.getByRole('heading', { name: 'Your trip has been extended!', level: 1 })).toBeVisible();

      const after = await trip();
      expect(after.status).toBe('On Rent');
      expect(Date.parse(after.return_at) - Date.parse(before.return_at)).toBe(86_400_000);
      expect(after.payment_balance).toBe(0);
      // What the card paid for the day is what the page said it would cost.
      expect(paidFor(after) - paidFor(before)).toBe(toPay);
    } finally {
      await moveServerClock(page, -minutes);
    }
  });
});
