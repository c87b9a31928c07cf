import { type Page, type Route } from '@playwright/test';
import { readCode, signInViaApi, uniquePhone } from '../support/auth.ts';
import { WIDE, expectNoAxeViolations } from '../support/axe.ts';
import {
  apiRenter,
  authHeader,
  bookToWaiver,
  cents,
  createBookingPath,
  fillCard,
  freeVin,
  sign,
  tripDates,
} from '../support/booking.ts';
import { cardExpiryYear, expect, serverNow, test } from '../support/test.ts';
import { seen, watchScreen } from '../support/watch.ts';

const events = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { __ampereEvents?: { name: string }[] }).__ampereEvents ?? []).map((e) => e.name),
  );

/** The Total row's amount inside a group of line items. */
async function totalIn(page: Page, group: string): Promise<number> {
  const text = (await page.getByRole('group', { name: group }).textContent()) ?? '';
  return cents(/Total(\$[\d,]+\.\d{2})/.exec(text)![1]!);
}

test.describe('booking at 1280 px', () => {
  test.use({ viewport: WIDE });

  test('a new renter searches, books with Collision Protection, signs, pays and sees the trip with the right total', async ({
    page,
  }) => {
    const dates = tripDates(3);
    const vin = await freeVin(page.request, 'Nashville, TN', dates);
    await page.goto(
      `/search?city=${encodeURIComponent('Nashville, TN')}&pickupDate=${dates.pickupDate}&returnDate=${dates.returnDate}&pickupTime=10:00&returnTime=10:00`,
    );
    await page.locator(`a[href*="/vehicle/${vin}"]`).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The price to expect: the booking card's total with Collision Protection ticked (rental, waiver and tax).
    const waiver = page.getByLabel(/Collision Protection/);
    await waiver.check();
    await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText('Collision Protection');
    const expected = await totalIn(page, 'Price breakdown');
    await waiver.uncheck();
    await page.getByRole('button', { name: 'Book', exact: true }).click();

    // Sign in with the texted code; the booking resumes.
    await expect(page).toHaveURL(/\/login\?redirect=create-booking&/);
    const phone = uniquePhone();
    await page.getByLabel('Mobile phone number').fill(phone.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3'));
    const since = serverNow().getTime();
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('6-digit code').fill(await readCode(page.request, phone, since));

    // Collision protection was offered and not chosen: the waiver page comes first.
    await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+\/damage-waiver$/);
    const id = /\/trip\/([A-Z0-9-]+)\//.exec(page.url())![1]!;
    await expect(page).toHaveTitle(`Add Collision Protection? ${id} | Ampere`);
    await expect(page.getByRole('heading', { name: 'Add Collision Protection?', level: 1 })).toBeVisible();
    for (const risk of ['Lost revenue', 'Uninsured driver', 'Additional costs', 'Insurance impact'])
      await expect(page.getByRole('heading', { name: risk })).toBeVisible();
    await expect(page.getByText('$2,070/mo potential loss')).toBeVisible();
    await expect(page.getByText('$31,490 for a Model Y')).toBeVisible();
    await expect(page.getByText('$25/day')).toBeVisible();
    const contract = page.getByRole('link', { name: /Collision Protection waiver/ });
    await expect(contract).toHaveAttribute(
      'href',
      /^\/waiver-contract\?state=TN&price_per_day=25\.00&total_price=75\.00$/,
    );
    const trail = page.getByRole('list', { name: 'Booking steps' });
    await expect(trail.getByText('Waivers')).toHaveAttribute('aria-current', 'step');
    await expect(trail.getByRole('link', { name: 'Signature' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Cover Trip' }).click();

    // Signature: Next only with both names, a purpose and all three consents.
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/signature$`));
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await expect(
      page.getByText("Your signature must match the name on your driver's license, insurance and payment method."),
    ).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /Collision Protection waiver contract/ })).toBeVisible();
    await expect(trail.getByRole('link', { name: 'Waivers' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('First name').fill('Jordan');
    await page.getByLabel('Last name').fill('Avery');
    await page.getByRole('radio', { name: 'Business' }).check();
    await page.getByRole('checkbox', { name: /soft credit pre-qualification check/ }).check();
    await page.getByRole('checkbox', { name: /sign these documents digitally/ }).check();
    await expect(next).toBeDisabled();
    await page.getByRole('checkbox', { name: /agree to the Rental Agreement/ }).check();
    await expect(next).toBeEnabled();
    await page.getByLabel('Last name').fill('  ');
    await expect(next).toBeDisabled();
    await page.getByLabel('Last name').fill('Avery');
    await watchScreen(page);
    // Both agreements go at once: each is held here until the other has been sent too, so signing
    // them one after the other would never reach the payment page.
    const signing: Route[] = [];
    await page.route('**/api/v1/agreements', async (route) => {
      signing.push(route);
      if (signing.length === 2) await Promise.all(signing.map((r) => r.continue()));
    });
    await next.click();
    await expect
      .poll(() => signing.length, { message: 'the rental agreement and the waiver are sent together' })
      .toBe(2);
    await page.unroute('**/api/v1/agreements');

    // Review & Pay.
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/pay$`));
    await expect(page.getByRole('heading', { name: 'Review & Pay', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(`Review & Pay ${id} | Ampere`);
    expect(await totalIn(page, 'Price breakdown')).toBe(expected);
    await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText('Collision Protection');
    await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText(
      'Security deposit (refundable hold)$200.00',
    );
    await expect(page.getByRole('banner')).toContainText(
      `$${(expected / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} total`,
    );
    await expect(page.getByText(/Cancel for free until/)).toBeVisible();
    const submit = page.getByRole('button', { name: 'Confirm Booking' });
    await expect(submit).toBeDisabled();
    // Known names are locked; the rest is collected here.
    await expect(page.getByLabel('First name')).toHaveAttribute('readonly', '');
    const email = page.getByLabel('Email');
    await email.fill('not an email');
    await email.blur();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await email.fill('');
    await email.blur();
    await expect(page.getByText('Email is required')).toBeVisible();
    await email.fill(`jordan.${Date.now()}@example.com`);
    await email.blur();
    await page.getByLabel('Date of birth').pressSequentially('04121991');
    await expect(page.getByLabel('Date of birth')).toHaveValue('04-12-1991');
    const address = page.getByRole('combobox', { name: 'Address' });
    await address.fill('100 nowhere at all');
    await page.getByLabel('Date of birth').click();
    await expect(page.getByText('Please select a valid address from the suggestions.')).toBeVisible();
    await expect(address).toHaveValue('');
    // Spec 7: suggestions are asked for with the text, the states addresses may be in and the ones we rent in first.
    const asked = page.waitForRequest(
      (r) =>
        r.url().includes('/api/v1/addresses/suggest') && new URL(r.url()).searchParams.get('search') === '100 Broad',
    );
    await address.fill('100 Broad');
    const sent = new URL((await asked).url()).searchParams;
    expect(sent.get('include_only_states')!.split(',')).toEqual(expect.arrayContaining(['TN', 'CA', 'NY', 'DC']));
    expect(sent.get('include_only_states')!.split(',')).not.toContain('PR');
    expect(sent.get('prefer_states')!.split(',').sort()).toEqual(['AZ', 'MO', 'NV', 'TN', 'TX']);
    await page.getByRole('option', { name: '100 Broadway, Nashville, TN 37203' }).click();
    await expect(address).toHaveValue('100 Broadway, Nashville, TN 37203');
    await expect(page.getByRole('radio', { name: 'New Credit Card' })).toBeChecked();
    await fillCard(page, '4242 4242 4242 4242');
    await expect(submit).toBeEnabled();
    await expectNoAxeViolations(page);
    const loadersBefore = (await seen(page)).loaders.length;
    await submit.click();

    // A new reservation goes to its trip page once paid.
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page).toHaveTitle(`My Trip ${id} | Ampere`);
    await expect(page.getByText('Upcoming', { exact: true })).toBeVisible();
    // The booked moment, with what is left before the drive; no 'caught up' page flashed on the way, the loader
    // never read 100%, and from paying to the trip one spinner showed: the pressed button's.
    const booked = page.getByRole('status', { name: 'Your rental is booked!' });
    await expect(booked).toContainText("Verify your driver's license");
    await expect(booked).toContainText('Pick up at Nashville');
    const watched = await seen(page);
    expect(watched).toMatchObject({ caughtUp: false, maxPercent: 99 });
    expect(watched.loaders.slice(loadersBefore)).toEqual(['Confirm Booking']);
    expect(await totalIn(page, 'Line items')).toBe(expected);
    await expect(page.getByText(/Security deposit · Authorization/)).toBeVisible();
    await expect(page.getByText('Rental Agreement', { exact: true })).toBeVisible();
    await expect(page.getByText('Collision Protection waiver', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await events(page)).toEqual(
      expect.arrayContaining([
        'booking_started',
        'damage_waiver_accepted',
        'agreements_signed',
        'user_birthday_updated',
        'user_address_updated',
        'payment_button_clicked',
        'payment_completed',
      ]),
    );

    // The agreement opens its signed document.
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Open Rental Agreement' }).click();
    expect((await popup).url()).toContain('/api/');
  });

  test('a declined card shows the provider message, a second card pays, and the trip is booked once', async ({
    page,
  }) => {
    const { session, id } = await bookToWaiver(page);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    // The profile's names are filled in and locked.
    await expect(page.getByLabel('First name')).toHaveValue('Sam');
    await expect(page.getByLabel('First name')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('checkbox', { name: /Collision Protection waiver contract/ })).toHaveCount(0);
    await sign(page);
    await expect(page.getByRole('heading', { name: 'Review & Pay' })).toBeVisible();
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/pay$`));
    expect(await events(page)).toContain('payment_failed');

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page.getByText('Upcoming', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('status', { name: 'Your rental is booked!' })).toHaveCount(0);

    const lists = await (await page.request.get('/api/v1/reservations', { headers: authHeader(session) })).json();
    const all = [...lists.upcoming, ...lists.active, ...lists.past, ...lists.canceled];
    expect(all.map((r: { platform_id: string }) => r.platform_id)).toEqual([id]);
    expect(all[0].status).toBe('Pending');

    // My Trips lists it under Upcoming Trips.
    await page.goto('/trips');
    const upcoming = page.getByRole('region', { name: 'Upcoming Trips' });
    await expect(upcoming).toContainText(`Trip ID ${id}`);
    await expect(upcoming.getByRole('link', { name: `Trip Details for ${id}` })).toHaveAttribute('href', `/trip/${id}`);
    await expectNoAxeViolations(page);

    // Paid: the payment page has nothing left to take.
    await page.goto(`/trip/${id}/pay`);
    await expect(page.getByRole('heading', { name: "You're all caught up!" })).toBeVisible();
    await page.getByRole('link', { name: 'View My Trip' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
  });

  test('the first saved card is chosen to begin with and pays', async ({ page }) => {
    const { session, id } = await bookToWaiver(page);
    // Save a card the way the profile's Add New Card does: a setup intent confirmed with the gateway.
    const setup = await (
      await page.request.post('/api/v1/payments/setup-intent', { headers: authHeader(session) })
    ).json();
    const saved = await page.request.post('/api/sandbox/v1/setup_intents/confirm', {
      data: {
        client_secret: setup.stripe.client_secret,
        card: {
          number: '5555555555554444',
          exp_month: 12,
          exp_year: cardExpiryYear(),
          cvc: '123',
          postal_code: '37203',
        },
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);
    await expect(page.getByRole('radio', { name: 'Mastercard ending in ...4444' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'New Credit Card' })).not.toBeChecked();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    // The profile's birth date is known, so it is locked.
    await expect(page.getByLabel('Date of birth')).toHaveAttribute('readonly', '');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page.getByText('Paid with card ending in ...4444')).toBeVisible();
  });

  test('a birth date less than 18 years ago is refused on the payment page', async ({ page }) => {
    const { session } = await bookToWaiver(page, { profile: false });
    const named = await page.request.patch('/api/v1/users/profile', {
      headers: authHeader(session),
      data: { first_name: 'Kim', last_name: 'Young' },
    });
    expect(named.ok(), await named.text()).toBe(true);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);
    const dob = page.getByLabel('Date of birth');
    // Born on 1 January 17 years before the server's year: 15 to 17 whichever day it is.
    const year = serverNow().getUTCFullYear() - 17;
    await dob.pressSequentially(`0101${year}`);
    await expect(page.getByText('You must be at least 18 years old to rent with us')).toBeVisible();
    await dob.fill('13-45-1990');
    await dob.blur();
    await expect(page.getByText('Birthday is not a real date')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm Booking' })).toBeDisabled();
  });

  test('a car taken meanwhile sends create-booking back to the vehicle with the Vehicle Unavailable dialog and the dates kept', async ({
    page,
  }) => {
    const dates = tripDates(4);
    const vin = await freeVin(page.request, 'Nashville, TN', dates);
    const other = await apiRenter(page.request);
    const taken = await page.request.post('/api/v1/reservations', {
      headers: authHeader(other),
      data: {
        vehicleVin: vin,
        ...dates,
        pickupTime: '10:00',
        returnTime: '10:00',
        addonIds: [],
        vehicleTimezone: 'America/Chicago',
      },
    });
    expect(taken.status(), await taken.text()).toBe(201);

    await signInViaApi(page, uniquePhone(), createBookingPath(vin, dates));
    await expect(page).toHaveURL(new RegExp(`/vehicle/${vin}\\?`));
    const url = new URL(page.url());
    expect(url.searchParams.get('vehicleUnavailableModal')).toBe('true');
    expect(url.searchParams.get('pickupDate')).toBe(dates.pickupDate);
    expect(url.searchParams.get('returnDate')).toBe(dates.returnDate);
    const dialog = page.getByRole('dialog', { name: 'Vehicle Unavailable' });
    await expect(dialog).toContainText(
      "We're sorry, but the vehicle you've selected is no longer available for your requested dates. Please modify your trip dates or search for other vehicles.",
    );
    // Search Vehicles keeps the place and the dates.
    await dialog.getByRole('link', { name: 'Search Vehicles' }).click();
    await expect(page).toHaveURL(/\/search\?/);
    await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
    const search = new URL(page.url()).searchParams;
    expect(search.get('pickupDate')).toBe(dates.pickupDate);
    expect(search.get('returnDate')).toBe(dates.returnDate);
    await expect(page.getByRole('search').getByRole('combobox')).toHaveValue('Nashville, TN');
  });

  test('the soft credit check failing opens the Disqualified dialog, whose Back to Home goes home', async ({
    page,
  }) => {
    const { id } = await bookToWaiver(page, { last: 'Decline' });
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    const dialog = page.getByRole('dialog', { name: "Sorry, you don't currently qualify to rent with us." });
    await expect(dialog).toContainText('soft credit check');
    await expect(dialog).toContainText('credit bureau');
    await expect(dialog).toContainText('support');
    await expectNoAxeViolations(page);
    expect(await events(page)).toContain('reservation_eligibility_check_failed');
    await dialog.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(id).toMatch(/^AMP-/);
  });

  test('a refused coupon shows the server message in a toast that closes itself and clears the field; a good one lowers what is paid', async ({
    page,
  }) => {
    await bookToWaiver(page);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);
    const field = page.getByLabel('Coupon code');
    const apply = page.getByRole('button', { name: 'Apply' });
    await expect(apply).toBeDisabled();
    await field.fill('NOSUCHCODE');
    await expect(apply).toBeEnabled();
    await apply.click();
    const toast = page.getByRole('alert').filter({ hasText: /code/i });
    await expect(toast).toBeVisible();
    await expect(field).toHaveValue('');
    await expect(apply).toBeDisabled();
    await expect(toast).toBeHidden({ timeout: 7_000 });

    // A good code takes its percent off each rental day; the payment is for the new total.
    const before = await totalIn(page, 'Price breakdown');
    await field.fill('event15');
    await apply.click();
    await expect(page.getByRole('group', { name: 'Price breakdown' })).toContainText('Discount (EVENT15)');
    // By the field: the code applied and what it took off.
    await expect(page.getByRole('region', { name: 'Coupon' }).getByRole('status')).toHaveText(
      /^EVENT15 applied — −\$\d+\.\d\d$/,
    );
    await expect.poll(() => totalIn(page, 'Price breakdown')).toBeLessThan(before);
    const discounted = await totalIn(page, 'Price breakdown');
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+$/);
    expect(await totalIn(page, 'Line items')).toBe(discounted);
  });

  test('Review & Pay in the step trail checks the signatures first; the trail offers the previous, current and next steps', async ({
    page,
  }) => {
    const { id } = await bookToWaiver(page);
    const trail = page.getByRole('list', { name: 'Booking steps' });
    // From the waiver page the trail shows Waivers and Signature; Review & Pay is not next.
    await expect(trail.getByRole('link', { name: 'Review & Pay' })).toBeHidden();
    await trail.getByRole('link', { name: 'Signature' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/signature$`));
    await trail.getByRole('link', { name: 'Review & Pay' }).click();
    // Nothing signed yet: payment sends back to the signature page, which says signing comes first.
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/signature$`));
    await expect(page.getByRole('status').filter({ hasText: 'Review & Pay comes after your signature' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto(`/trip/${id}/pay`);
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/signature$`));
  });

  test('the waiver contract page shows the terms with the trip’s state and prices', async ({ page }) => {
    await page.goto('/waiver-contract?state=TN&price_per_day=25.00&total_price=75.00');
    await expect(page.getByRole('heading', { name: 'Collision Protection Waiver', level: 1 })).toBeVisible();
    await expect(
      page.getByText('For trips starting in TN. Price: $25.00 per day, $75.00 for this trip.'),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test('an unknown trip shows the not-found page', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/trip/AMP-0000-0000');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found.' })).toBeVisible();
});
