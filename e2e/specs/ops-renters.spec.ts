import { expect, test } from '../support/test.ts';
import { formatUsPhone, uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, atBothWidths, expectNoAxeViolations } from '../support/axe.ts';
import { createBookingPath, freeVin, tripDates } from '../support/booking.ts';
import { addVirtualAuthenticator, makeOwner, signInToConsole } from '../support/ops.ts';
import { inDays } from '../support/test.ts';
import { paidTrip } from '../support/trips.ts';

/** The courteous refusal (DO_NOT_RENT_MESSAGE in the domain package), as the renter reads it. */
const REFUSAL =
  /We’re sorry, but we can’t take a new booking on your account right now\. Please contact our support team/;

/** Where the spec's screenshots go, to look at after a run. */
const shot = (name: string) => ({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test('staff put a renter on the do-not-rent list, and the renter trying to book on a phone is pointed to support', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  // A renter with a paid trip at a Nashville lot; the console's owner, at a desk, lists them from their page.
  const { session } = await paidTrip(page);
  const desk = await browser.newContext({ viewport: WIDE });
  const staff = await desk.newPage();
  await addVirtualAuthenticator(staff);
  const owner = uniquePhone();
  await makeOwner(staff.request, owner, 'Dora Desk');
  await signInToConsole(staff, owner);

  await staff.goto(`/ops/renters/${session.user.id}`);
  await expect(staff.getByRole('heading', { level: 1, name: 'Sam Rivera' })).toBeVisible();
  await expect(staff.getByText('This renter can book.')).toBeVisible();
  const form = staff.getByRole('form', { name: 'Add to the do-not-rent list' });
  await form.getByRole('button', { name: 'Add to the list' }).click();
  await expect(form.getByLabel('Reason')).toHaveAttribute('required', '');
  await form.getByLabel('Reason').fill('Returned two cars with smoke damage');
  await form.getByLabel('Until').fill(inDays(90));
  await form.getByRole('button', { name: 'Add to the list' }).click();
  await expect(staff.getByRole('status')).toContainText('Sam Rivera is on the do-not-rent list.');
  await expect(staff.getByText(/Cannot book until .*: Returned two cars with smoke damage/)).toBeVisible();
  await atBothWidths(staff, async () => {
    await expectNoAxeViolations(staff);
    await staff.screenshot(shot(`renter-page-${staff.viewportSize()!.width}`));
  });

  // The list page shows them, linking back to their page.
  await staff.setViewportSize(WIDE);
  await staff.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Do not rent' }).click();
  const list = staff.getByRole('table', { name: 'Renters who cannot book' });
  const row = list.getByRole('row').filter({ hasText: formatUsPhone(session.user.phone) });
  await expect(row).toContainText('Returned two cars with smoke damage');
  await expect(row.getByRole('link', { name: 'Sam Rivera' })).toBeVisible();
  await expectNoAxeViolations(staff);

  // The renter, on their phone, tries to book another car: a courteous refusal that names no reason.
  await desk.close();
  await page.setViewportSize(NARROW);
  const dates = tripDates();
  const vin = await freeVin(page.request, 'Nashville, TN', dates);
  await page.goto(createBookingPath(vin, dates));
  await expect(page.getByRole('heading', { name: /We couldn.t create your booking/ })).toBeVisible();
  await expect(page.getByText(REFUSAL)).toBeVisible();
  await expect(page.getByText(/smoke/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expectNoAxeViolations(page);
  await page.screenshot(shot('refused-booking-375'));
});

test('the front desk approves a flagged license check from the review queue, and the renter is verified', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  // The renter's license check comes back asking for a resubmission: flagged for a closer look.
  const { session } = await paidTrip(page);
  await page.getByRole('group', { name: "Driver's License" }).getByRole('button', { name: 'Verify' }).click();
  const identity = page.frameLocator('iframe[title="Verify your driver\'s license"]');
  await identity.getByRole('button', { name: /^Ask to resubmit/ }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByText(/Resubmission Requested/i).first()).toBeVisible({ timeout: 15_000 });

  const desk = await browser.newContext({ viewport: WIDE });
  const staff = await desk.newPage();
  await addVirtualAuthenticator(staff);
  const owner = uniquePhone();
  await makeOwner(staff.request, owner, 'Quinn Queue');
  await signInToConsole(staff, owner);
  await staff.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Review' }).click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Review' })).toBeVisible();
  const queue = staff.getByRole('table', { name: 'Checks waiting for a decision' });
  const item = queue.getByRole('row').filter({ hasText: formatUsPhone(session.user.phone) });
  await expect(item).toContainText('Flagged');
  await atBothWidths(staff, async () => {
    await expectNoAxeViolations(staff);
    await staff.screenshot(shot(`review-queue-${staff.viewportSize()!.width}`));
  });

  await staff.setViewportSize(WIDE);
  await item.getByRole('button', { name: /^Approve or uphold the license of/ }).click();
  const dialog = staff.getByRole('dialog', { name: 'Review the license check' });
  await expect(dialog.getByRole('radio', { name: /^Approve/ })).toBeChecked();
  await expectNoAxeViolations(staff);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(staff.getByRole('status')).toContainText('The license check of Sam Rivera is approved.');
  await expect(item).toHaveCount(0);
  await expectNoAxeViolations(staff);

  await desk.close();

  // The renter's trip page now counts the license as verified.
  await page.reload();
  await expect(page.getByRole('group', { name: "Driver's License" })).toContainText(/verified/i);
  await expect(page.getByText(/Resubmission Requested/i)).toHaveCount(0);
});
