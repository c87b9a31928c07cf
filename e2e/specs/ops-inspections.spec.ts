import type { Page } from '@playwright/test';
import { expect, test } from '../support/test.ts';
import { uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, atBothWidths, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { jpeg, takeTheEightViews } from '../support/inspections.ts';
import { addVirtualAuthenticator, makeOwner, signInToConsole } from '../support/ops.ts';
import { clockBeforePickup, moveServerClock } from '../support/trip-clock.ts';
import { localDay, paidTrip } from '../support/trips.ts';

const CHICAGO = 'America/Chicago';
const SHOTS = process.env.E2E_SHOTS;

const shoot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize()!.width}.png`, fullPage: true });
};

test('staff record the check-out inspection, the renter adds photos from their phone at pickup, and the return inspection is compared side by side', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // A trip paid for tomorrow at 10:00 in Nashville; the clock moves to 15 minutes before its pickup,
  // when the renter's photo window is open (decision 090), whatever time the suite runs.
  const paid = await paidTrip(page, { pickupDate: localDay(1, CHICAGO), returnDate: localDay(3, CHICAGO) });
  const moved = await clockBeforePickup(page, paid.session, paid.id, 0.25);
  try {
    const trip = (
      await (await page.request.get(`/api/v1/reservations/${paid.id}`, { headers: authHeader(moved.session) })).json()
    ).reservation as { platform_id: string };

    // Staff at the lot, on a laptop: the trip's page leads to its check-out inspection.
    await addVirtualAuthenticator(page);
    await page.setViewportSize(WIDE);
    const owner = uniquePhone();
    await makeOwner(page.request, owner, 'Ines Inspector');
    await signInToConsole(page, owner);
    await page.goto(`/ops/trips/${trip.platform_id}`);
    await page
      .getByRole('navigation', { name: 'Inspections' })
      .getByRole('link', { name: 'Check-out inspection' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check-out inspection' })).toBeVisible();
    await page.getByRole('button', { name: 'Start the check-out inspection' }).click();
    await expect(page.getByText('Started', { exact: false }).first()).toBeVisible();
    await takeTheEightViews(page, '#34568b');
    await expect(page.getByText('8 of 8 views')).toBeVisible();
    // Each photo carries its time and the car's reading.
    await expect(
      page.getByRole('listitem', { name: /Dash \(battery and odometer\)/ }).getByText(/^Battery \d+% · [\d,]+ mi$/),
    ).toBeVisible();

    // Damage: a click on the drawing, then one placed from the keyboard alone, with a close-up.
    const drawing = page.getByRole('button', { name: /^Mark damage on the drawing/ });
    await drawing.click({ position: { x: 40, y: 30 } });
    const form = page.getByRole('form', { name: 'New damage mark' });
    await expect(form.getByLabel('Seen in')).toHaveValue('LF_CORNER');
    await form.getByLabel('What is it').fill('Scuff on the front left bumper');
    await form.getByRole('button', { name: 'Save mark' }).click();
    await expect(page.getByRole('heading', { name: 'Damage (1)' })).toBeVisible();
    await drawing.focus();
    // The marker starts where the last click was (the front left corner): to the right side.
    for (let i = 0; i < 28; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 18; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(form.getByLabel('Seen in')).toHaveValue('R_SIDE');
    await form.getByLabel('How bad').selectOption('moderate');
    await form.getByLabel('What is it').fill('Dent in the right rear door');
    await form.locator('input[type="file"]').setInputFiles(await jpeg('closeup.jpg', '#777777'));
    await form.getByRole('button', { name: 'Save mark' }).click();
    const damage = page.getByRole('region', { name: 'Damage (2)' });
    await expect(damage.getByRole('img', { name: 'Close-up 1 of: Dent in the right rear door' })).toBeVisible();
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page);
      await shoot(page, 'check-out');
    });
    await page.getByRole('button', { name: 'Complete the check-out inspection' }).click();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();

    // The renter, on their phone at the car, adds their own photos from the trip page.
    const renter = await page.context().newPage();
    await renter.setViewportSize(NARROW);
    await renter.goto(`/trip/${trip.platform_id}`);
    const photos = renter.getByRole('region', { name: 'Photos of the car' });
    await expect(photos).toContainText('You can add photos at pickup until');
    await expect(photos.getByText('Our photo', { exact: true })).toHaveCount(9);
    await photos
      .locator('input[type="file"]')
      .setInputFiles([await jpeg('scratch-1.jpg', '#aa3333'), await jpeg('scratch-2.jpg', '#33aa33')]);
    await expect(photos.getByRole('img', { name: /^To send, / })).toHaveCount(2);
    await expectNoAxeViolations(renter);
    await shoot(renter, 'renter-chosen');
    await photos.getByRole('button', { name: 'Send 2 photos' }).click();
    await expect(photos.getByText('2 photos are in the trip’s record.')).toBeVisible();
    await expect(photos.getByText('Your photo', { exact: true })).toHaveCount(2);
    await expectNoAxeViolations(renter);
    await shoot(renter, 'renter-sent');
    await renter.close();

    // Back in the console: the renter's photos are in the same record, marked as theirs.
    await page.reload();
    const theirs = page.getByRole('region', { name: 'Renter’s photos (2)' });
    await expect(theirs.getByText('Renter’s photo', { exact: true })).toHaveCount(2);

    // The return inspection, compared with the check-out one view by view.
    await page.goto(`/ops/trips/${trip.platform_id}/inspections/check_in`);
    await expect(page.getByRole('heading', { level: 1, name: 'Return inspection' })).toBeVisible();
    await page.getByRole('button', { name: 'Start the return inspection' }).click();
    await takeTheEightViews(page, '#8b5634');
    await page.getByRole('button', { name: /^Mark damage on the drawing/ }).click({ position: { x: 110, y: 350 } });
    await page.getByRole('form', { name: 'New damage mark' }).getByLabel('What is it').fill('Chip in the rear bumper');
    await page.getByRole('form', { name: 'New damage mark' }).getByRole('button', { name: 'Save mark' }).click();
    await page.getByRole('button', { name: 'Complete the return inspection' }).click();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();

    const compare = page.getByRole('region', { name: 'Check-out and return, side by side' });
    const front = compare.getByRole('region', { name: 'Front: check-out and return' });
    await expect(front.getByRole('img', { name: 'Front at check-out' })).toBeVisible();
    await expect(front.getByRole('img', { name: 'Front at return' })).toBeVisible();
    await expect(compare.getByRole('region', { name: 'Damage at check-out' })).toContainText(
      'Dent in the right rear door',
    );
    await expect(compare.getByRole('region', { name: 'Damage at return' })).toContainText('Chip in the rear bumper');
    await expect(
      compare.getByRole('region', { name: 'Damage at check-out' }).getByText('Renter’s photo', { exact: true }),
    ).toHaveCount(2);
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page);
      await shoot(page, 'return-compare');
    });

    // The trip's timeline tells both inspections and the renter's photos.
    await page.goto(`/ops/trips/${trip.platform_id}`);
    const events = page.getByRole('region', { name: /^Everything that happened/ });
    await expect(events).toContainText('Check-out inspection completed');
    await expect(events).toContainText('The renter added 2 photos at pickup');
    await expect(events).toContainText('Return inspection completed');
  } finally {
    await moveServerClock(page, -moved.minutes);
  }
});
