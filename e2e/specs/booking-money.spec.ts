import { expect, test } from '@playwright/test';
import { WIDE } from '../support/axe.ts';
import { authHeader, bookToWaiver, cents, fillCard, sign } from '../support/booking.ts';

test.describe('paying the total the renter was shown', () => {
  test.use({ viewport: WIDE });

  test('a birth date under 25 given on the payment page adds the underage fee: pressing pay shows the new total first, then pays exactly that', async ({ page }) => {
    const { session, id } = await bookToWaiver(page, { profile: false });
    const profile = await page.request.patch('/api/v1/users/profile', {
      headers: authHeader(session),
      data: { first_name: 'Alex', last_name: 'Young', email: `alex.${Date.now()}@example.com`, address_line1: '100 Broadway', city: 'Nashville', state: 'TN', zip_code: '37203', country: 'us' },
    });
    expect(profile.ok(), await profile.text()).toBe(true);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);

    const banner = page.getByRole('banner');
    const shownTotal = async () => cents(/(\$[\d,]+\.\d{2}) total/.exec((await banner.textContent()) ?? '')![1]!);
    await expect(banner).toContainText(/\$[\d,]+\.\d{2} total/);
    const before = await shownTotal();
    // 22 years old at pickup: old enough to rent, young enough for the underage fee.
    await page.getByLabel('Date of birth').pressSequentially(`0101${new Date().getFullYear() - 22}`);
    await page.getByLabel('Date of birth').blur();
    await fillCard(page, '4242 4242 4242 4242');
    const submit = page.getByRole('button', { name: 'Confirm Booking' });
    await expect(submit).toBeEnabled();
    await submit.click();

    // Not paid yet: the page says the total changed and shows it.
    const changed = page.getByText(/Your total changed to \$[\d,]+\.\d{2}\. Check it, then pay again\./);
    await expect(changed).toBeVisible();
    const after = cents(/(\$[\d,]+\.\d{2})/.exec((await changed.textContent()) ?? '')![1]!);
    expect(after).toBeGreaterThan(before);
    await expect(banner).toContainText(`$${(after / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} total`);
    await expect(page).toHaveURL(/\/pay$/);

    if (!(await page.getByLabel('Card number').inputValue())) await fillCard(page, '4242 4242 4242 4242');
    await submit.click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    const lineItems = (await page.getByRole('group', { name: 'Line items' }).textContent()) ?? '';
    expect(cents(/Total(\$[\d,]+\.\d{2})/.exec(lineItems)![1]!)).toBe(after);
    await expect(page.getByText('Underage User Fee')).toBeVisible();
  });
});
