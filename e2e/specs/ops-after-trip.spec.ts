import { expect, test } from '../support/test.ts';
import { uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { jpeg, takeTheEightViews } from '../support/inspections.ts';
import { addVirtualAuthenticator, inviteStaff, makeOwner, signInToConsole, signOutOfConsole } from '../support/ops.ts';
import { clockBeforePickup, clockToPickup, moveServerClock } from '../support/trip-clock.ts';
import { chargeTheCar, localDay, paidTrip } from '../support/trips.ts';

const CHICAGO = 'America/Chicago';

/**
 * Issue 30's whole path after a trip, on one trip: the check-out inspection, the renter's own photos
 * from their phone, the return and its inspection, a cleaning fee backed by photos, the renter's
 * dispute, the manager's acceptance, and the refund on the renter's receipt.
 */
test('from the check-out inspection to a disputed cleaning fee refunded on the receipt', async ({ page }) => {
  test.setTimeout(420_000);
  const paid = await paidTrip(page, { pickupDate: localDay(1, CHICAGO), returnDate: localDay(3, CHICAGO) });
  // Fifteen minutes before pickup: the renter's photo window is open (decision 090).
  const before = await clockBeforePickup(page, paid.session, paid.id, 0.25);
  let moved = before.minutes;
  try {
    const reservation = (
      await (await page.request.get(`/api/v1/reservations/${paid.id}`, { headers: authHeader(before.session) })).json()
    ).reservation as { pickup_location: { id: number } };

    // The lot's manager, on a laptop.
    await addVirtualAuthenticator(page);
    await page.setViewportSize(WIDE);
    const owner = uniquePhone();
    const manager = uniquePhone();
    await makeOwner(page.request, owner);
    await signInToConsole(page, owner);
    await inviteStaff(page.request, {
      phone: manager,
      name: 'Maren After-Trip',
      role: 'manager',
      locationIds: [String(reservation.pickup_location.id)],
    });
    await signOutOfConsole(page.request);
    await signInToConsole(page, manager);

    // 1. The check-out inspection: the eight guided photos, then Complete.
    await page.goto(`/ops/trips/${paid.id}/inspections/check_out`);
    await page.getByRole('button', { name: 'Start the check-out inspection' }).click();
    await takeTheEightViews(page, '#34568b');
    await page.getByRole('button', { name: 'Complete the check-out inspection' }).click();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    // 2. The renter, on their phone at the car, adds two photos of their own.
    const phone = await page.context().newPage();
    await phone.setViewportSize(NARROW);
    await phone.goto(`/trip/${paid.id}`);
    const photos = phone.getByRole('region', { name: 'Photos of the car' });
    await photos
      .locator('input[type="file"]')
      .setInputFiles([await jpeg('seat-1.jpg', '#aa3333'), await jpeg('seat-2.jpg', '#33aa33')]);
    await photos.getByRole('button', { name: 'Send 2 photos' }).click();
    await expect(photos.getByText('2 photos are in the trip’s record.')).toBeVisible();
    await expectNoAxeViolations(phone);
    await phone.close();

    // 3. Pickup, then the renter returns the car early.
    const atPickup = await clockToPickup(page, before.session, paid.id);
    moved += atPickup.minutes;
    await chargeTheCar(page.request, paid.vin);
    const ended = await page.request.post(`/api/v1/reservations/${paid.id}/end`, {
      headers: authHeader(atPickup.session),
    });
    expect(ended.ok(), await ended.text()).toBe(true);

    // 4. The return inspection, beside the check-out one.
    await page.goto(`/ops/trips/${paid.id}/inspections/check_in`);
    await page.getByRole('button', { name: 'Start the return inspection' }).click();
    await takeTheEightViews(page, '#8b5634');
    await page.getByRole('button', { name: 'Complete the return inspection' }).click();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();
    const compare = page.getByRole('region', { name: 'Check-out and return, side by side' });
    await expect(compare.getByRole('img', { name: 'Interior at check-out' })).toBeVisible();
    await expect(compare.getByRole('img', { name: 'Interior at return' })).toBeVisible();
    await expectNoAxeViolations(page);

    // 5. A cleaning fee, with photos of the rear seat as its evidence.
    await page.goto(`/ops/trips/${paid.id}`);
    const money = page.getByRole('region', { name: 'Charges and payments' });
    await money.getByRole('button', { name: 'Post a charge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Post a charge' });
    await expect(dialog.getByLabel('Fee')).toHaveValue('cleaning');
    await dialog
      .getByLabel(/Evidence files/)
      .setInputFiles([await jpeg('rear seat.jpg', '#c9b48a'), await jpeg('footwell.jpg', '#a58f63')]);
    await expect(dialog.getByText('Uploaded', { exact: true })).toHaveCount(2);
    await dialog.getByLabel(/^Reason/).fill('Sand and mud across the rear seats and footwells.');
    await expect(dialog.getByTestId('charge-price')).toHaveText('The renter is charged $75.00.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Post the charge' }).click();
    await expect(dialog).toBeHidden();
    await expect(money.getByRole('status')).toContainText('Cleaning Fee of $75.00 posted');

    // 6. The review is done: the manager settles the deposit, which takes the fee and releases the rest.
    await page.goto('/ops/deposits');
    await page.getByLabel('Status').selectOption('in_review');
    await page.getByRole('button', { name: `Release the deposit of trip ${paid.id}` }).click();
    const settle = page.getByRole('dialog', { name: `Release the deposit of trip ${paid.id}` });
    await expect(settle).toContainText('$75.00 of charges is linked to this hold');
    await expectNoAxeViolations(page);
    await settle.getByRole('button', { name: 'Release' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is settled' })).toContainText(
      '$75.00 taken for its charges, the rest released',
    );

    // 7. The renter sees it on their phone, with its photos, and disputes it.
    const renter = await page.context().newPage();
    await renter.setViewportSize(NARROW);
    // The browser holds the renter's session (signed in again when the clock moved).
    await renter.goto(`/trip/${paid.id}`);
    await renter
      .getByRole('region', { name: 'Charges after your trip' })
      .getByRole('link', { name: 'Cleaning Fee' })
      .click();
    await expect(renter.getByRole('heading', { level: 1, name: 'Cleaning Fee' })).toBeVisible();
    await expect(renter.getByRole('region', { name: 'Evidence' }).getByRole('img')).toHaveCount(2);
    await renter.getByRole('button', { name: 'Dispute this charge' }).click();
    await renter.getByLabel(/What is wrong with this charge/).fill('The seats were sandy when I picked the car up.');
    await renter.getByRole('button', { name: 'Send dispute' }).click();
    await expect(renter.getByRole('status').filter({ hasText: 'Dispute received' })).toBeVisible();
    await expectNoAxeViolations(renter);

    // 8. The manager accepts it from the dispute queue.
    await page.goto('/ops/disputes');
    const queue = page.getByRole('table', { name: 'Disputes waiting for a decision' });
    await queue.getByRole('row').filter({ hasText: paid.id }).getByRole('button', { name: 'Cleaning Fee' }).click();
    const decision = page.getByRole('dialog', { name: 'Dispute: Cleaning Fee' });
    await expect(decision).toContainText('The seats were sandy when I picked the car up.');
    await expectNoAxeViolations(page);
    await decision.getByRole('button', { name: 'Accept and refund' }).click();
    await expect(decision).toBeHidden();

    // 9. The renter reads the outcome, and the refund is on the receipt.
    await renter.reload();
    await expect(renter.getByRole('status').filter({ hasText: 'Dispute accepted' })).toBeVisible();
    await renter.getByRole('link', { name: 'Receipt' }).click();
    await expect(renter.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
    await expect(renter.getByText(/^Paid \$[\d,.]+ · Refunded \$75\.00$/)).toBeVisible();
    // The deposit's card keeps the fee it captured; the money given back has a Refund card of its own.
    await expect(renter.getByRole('group').filter({ hasText: 'Partially Captured' })).toContainText('Cleaning Fee');
    const refund = renter.getByRole('group').filter({ hasText: /Refund · .*-\$75\.00/ });
    await expect(refund).toContainText(/Refund of Receipt #[A-Z0-9]+-\d+-\$75\.00/);
    await expectNoAxeViolations(renter);
  } finally {
    await moveServerClock(page, -moved);
  }
});
