import type { Page } from '@playwright/test';
import { uniquePhone } from '../support/auth.ts';
import {
  NARROW,
  WIDE,
  atBothWidths,
  expectNoAxeViolations,
  expectNoAxeViolationsAtBothWidths,
} from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { addVirtualAuthenticator, inviteStaff, makeOwner, signInToConsole, signOutOfConsole } from '../support/ops.ts';
import { expect, inDays, test } from '../support/test.ts';
import { paidTrip } from '../support/trips.ts';

const row = (page: Page, name: string) => page.getByRole('group', { name });

/** The words the renter's key page shows for a key the desk paused (domain/car-actions.ts). */
const PAUSED_BY_DESK = 'This key is paused by the rental desk. Call the location to have it resumed.';

/**
 * Waits for an open renter page to show `text`. The page reloads itself when the desk changes the
 * key (its realtime channel's REFRESH); if its channel had not connected yet, reload it as the
 * renter would. A reload of our own may collide with the page's: try again.
 */
async function shows(page: Page, text: string | RegExp): Promise<void> {
  await expect(async () => {
    if (!(await page.getByText(text).isVisible())) await page.reload().catch(() => undefined);
    await expect(page.getByText(text)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

test.describe('the key and the car from the console', () => {
  test.use({ viewport: NARROW });

  test('the desk pauses a renter’s key and their key page says so, resumes it, unlocks the car, and replaces the key', async ({
    page,
    context,
  }) => {
    test.setTimeout(150_000);
    // A renter's trip tomorrow, verified, with its key (as verification.spec.ts does it).
    const { session, id, vin } = await paidTrip(page, { pickupDate: inDays(1), returnDate: inDays(3) });
    await row(page, "Driver's License").getByRole('button', { name: 'Verify' }).click();
    await page
      .frameLocator('iframe[title="Verify your driver\'s license"]')
      .getByRole('button', { name: /^Approve A valid license/ })
      .click();
    await expect(row(page, "Driver's License")).toContainText('verified', { timeout: 15_000 });
    await row(page, 'Insurance').getByRole('button', { name: 'Connect' }).click();
    const insurance = page.frameLocator('iframe[title="Connect your insurance"]');
    await insurance.getByLabel('Insurance carrier').selectOption('State Farm');
    await insurance.getByRole('button', { name: /^Connect an active policy/ }).click();
    await expect(row(page, 'Insurance')).toContainText('active', { timeout: 15_000 });
    const access = page.getByRole('link', { name: 'Access Key' });
    await expect(access).toBeVisible({ timeout: 15_000 });
    const keyUrl = (await access.getAttribute('href'))!;
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation as { pickup_location: { id: number } };

    // A front-desk agent of the trip's lot signs in to the console and opens the trip.
    const desk = await context.newPage();
    await addVirtualAuthenticator(desk);
    await desk.setViewportSize(WIDE);
    const owner = uniquePhone();
    const agent = uniquePhone();
    await makeOwner(desk.request, owner, 'Owen Keys');
    await signInToConsole(desk, owner);
    await inviteStaff(desk.request, {
      phone: agent,
      name: 'Dee Desk',
      role: 'agent',
      locationIds: [String(trip.pickup_location.id)],
    });
    await signOutOfConsole(desk.request);
    await signInToConsole(desk, agent);
    await desk.goto(`/ops/trips/${id}`);
    const panel = desk.getByRole('region', { name: 'Key and car' });
    await expect(panel.getByText('Active', { exact: true })).toBeVisible();
    await expect(panel.getByText('Locked', { exact: true })).toBeVisible();
    await expect(panel.getByText(/° N, .*° W/)).toBeVisible();
    await expect(panel.getByText('No open notes.')).toBeVisible();

    // Pause: the renter's key page, on a phone, says the desk paused it and will not unlock.
    await panel.getByRole('button', { name: 'Pause key' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'The key is paused' })).toBeVisible();
    await expect(panel.getByText('Paused by the desk')).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(desk);
    await desk.screenshot({ path: test.info().outputPath('console-key-paused-1280.png'), fullPage: true });
    const keyPage = await context.newPage();
    await keyPage.setViewportSize(NARROW);
    await keyPage.goto(keyUrl);
    await expect(keyPage.getByText(PAUSED_BY_DESK)).toBeVisible();
    await expect(keyPage.getByRole('button', { name: 'Unlock' })).toBeDisabled();
    await expectNoAxeViolations(keyPage);
    await keyPage.screenshot({ path: test.info().outputPath('key-page-paused-375.png'), fullPage: true });

    // Resume, then unlock and lock the car from the desk; the timeline records each.
    await panel.getByRole('button', { name: 'Resume key' }).click();
    await expect(panel.getByText('Active', { exact: true })).toBeVisible();
    await shows(keyPage, /This key starts working/);
    await panel.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expect(panel.getByText('Unlocked', { exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect(panel.getByText('Locked', { exact: true })).toBeVisible();
    const events = desk.getByRole('region', { name: /^Everything that happened/ });
    await expect(events.getByText('Key paused by staff')).toBeVisible();
    await expect(events.getByText('Car unlocked by staff')).toBeVisible();

    // Replace, confirmed in a dialog: the old link now says it is revoked.
    await panel.getByRole('button', { name: 'Replace key' }).click();
    const dialog = desk.getByRole('dialog', { name: 'Replace the key?' });
    await expect(dialog).toContainText('The renter gets a text');
    await atBothWidths(desk, async () => {
      await expectNoAxeViolations(desk);
      await desk.screenshot({
        path: test.info().outputPath(`console-replace-${desk.viewportSize()!.width}.png`),
        fullPage: true,
      });
    });
    await dialog.getByRole('button', { name: 'Replace the key' }).click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByRole('status').filter({ hasText: 'A new key is issued' })).toBeVisible();
    await shows(keyPage, 'This key has been revoked. Open your trip for a new one.');

    // The car falls asleep: an unlock from the desk fails, saying so, and opens a support note.
    const sleep = (asleep: boolean) => desk.request.post(`/api/dev/vehicles/${vin}/sleep`, { data: { asleep } });
    expect((await sleep(true)).ok()).toBe(true);
    try {
      await panel.getByRole('button', { name: 'Unlock', exact: true }).click();
      await expect(panel.getByRole('alert')).toContainText('A support note is open on the trip.');
      await expect(panel.getByText('Support notes (1 open)')).toBeVisible();
      await expect(panel.getByText('Unlock from the console failed')).toBeVisible();
      await expect(events.getByText('Support note: Unlock from the console failed')).toBeVisible();
      await desk.setViewportSize(NARROW);
      await expectNoAxeViolations(desk);
      await desk.screenshot({ path: test.info().outputPath('console-note-375.png'), fullPage: true });
      await panel.screenshot({ path: test.info().outputPath('console-panel-note-375.png') });
    } finally {
      await sleep(false);
    }
    // Awake again: Refresh reads the car, and the desk closes the note.
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect(panel.getByText('Locked', { exact: true })).toBeVisible();
    await panel.getByRole('button', { name: /^Close the note: Unlock from the console failed/ }).click();
    await expect(panel.getByText('No open notes. 1 closed.')).toBeVisible();
  });
});
