import { WIDE } from '../support/axe.ts';
import { authHeader, bookToWaiver, cents, fillCard, freeVin, sign, tripDates } from '../support/booking.ts';
import { cardExpiryYear, expect, serverNow, test } from '../support/test.ts';

test.describe('paying the total the renter was shown', () => {
  test.use({ viewport: WIDE });

  test('a birth date under 25 given on the payment page adds the underage fee: pressing pay shows the new total first, then pays exactly that', async ({
    page,
  }) => {
    const { session, id } = await bookToWaiver(page, { profile: false });
    const profile = await page.request.patch('/api/v1/users/profile', {
      headers: authHeader(session),
      data: {
        first_name: 'Alex',
        last_name: 'Young',
        email: `alex.${Date.now()}@example.com`,
        address_line1: '100 Broadway',
        city: 'Nashville',
        state: 'TN',
        zip_code: '37203',
        country: 'us',
      },
    });
    expect(profile.ok(), await profile.text()).toBe(true);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);

    const banner = page.getByRole('banner');
    const shownTotal = async () => cents(/(\$[\d,]+\.\d{2}) total/.exec((await banner.textContent()) ?? '')![1]!);
    await expect(banner).toContainText(/\$[\d,]+\.\d{2} total/);
    const before = await shownTotal();
    // 22 years old at pickup: old enough to rent, young enough for the underage fee.
    await page.getByLabel('Date of birth').pressSequentially(`0101${serverNow().getUTCFullYear() - 22}`);
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

  test("WELCOME10 on two trips: once one is paid, the other's payment page says the coupon came off and takes the full price", async ({
    page,
  }) => {
    const { session, id } = await bookToWaiver(page);
    const headers = authHeader(session);
    // A second trip, booked and paid through the API with the first-trip coupon.
    const dates = tripDates();
    const vin = await freeVin(page.request, 'Nashville, TN', dates);
    const booked = await page.request.post('/api/v1/reservations', {
      headers,
      data: {
        vehicleVin: vin,
        ...dates,
        pickupTime: '10:00',
        returnTime: '10:00',
        addonIds: [],
        vehicleTimezone: 'America/Chicago',
      },
    });
    expect(booked.ok(), await booked.text()).toBe(true);
    const other = (await booked.json()).reservation.platform_id as string;
    for (const platformId of [other, id]) {
      const applied = await page.request.post('/api/v1/discounts/apply', {
        headers,
        data: { code: 'WELCOME10', platform_id: platformId },
      });
      expect(applied.ok(), await applied.text()).toBe(true);
    }
    const stripe = (
      await (await page.request.post('/api/v1/payments', { headers, data: { platform_id: other } })).json()
    ).stripe;
    const charged = await page.request.post('/api/sandbox/v1/payment_intents/confirm', {
      data: {
        client_secret: stripe.client_secret,
        card: { number: '4242424242424242', exp_month: 12, exp_year: cardExpiryYear(), cvc: '123' },
      },
    });
    expect(charged.ok(), await charged.text()).toBe(true);
    const held = await page.request.post('/api/sandbox/v1/payment_intents/confirm', {
      data: { client_secret: stripe.deposit_client_secret, payment_method: (await charged.json()).payment_method },
    });
    expect(held.ok(), await held.text()).toBe(true);
    const confirmed = await page.request.post('/api/v1/reservations/confirm', {
      headers,
      data: { platform_id: other },
    });
    expect((await confirmed.json()).reservation.status).toBe('Pending');

    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);
    await expect(
      page.getByText(
        'The coupon code WELCOME10 is only for your first trip with us. It has been taken off this trip: check the new total, then pay again.',
      ),
    ).toBeVisible();
    const trip = await (await page.request.get(`/api/v1/reservations/${id}`, { headers })).json();
    const owed = (
      trip.reservation.transactions as { status: string; category: string; amount: number; discount_amount: number }[]
    )
      .filter((t) => t.status === 'Pending' && t.category !== 'Deposit')
      .reduce((sum, t) => sum + t.amount - t.discount_amount, 0);
    expect(trip.reservation.transactions.some((t: { discount_amount: number }) => t.discount_amount > 0)).toBe(false);
    await expect(page.getByRole('banner')).toContainText(
      `$${(owed / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} total`,
    );

    await expect(page.getByRole('radio', { name: 'Visa ending in ...4242' })).toBeChecked();
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    const lineItems = (await page.getByRole('group', { name: 'Line items' }).textContent()) ?? '';
    expect(cents(/Total(\$[\d,]+\.\d{2})/.exec(lineItems)![1]!)).toBe(owed);
  });
});
