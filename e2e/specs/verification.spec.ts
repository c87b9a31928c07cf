import type { Page } from '@playwright/test';
import { NARROW, atBothWidths, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { expect, inDays, test } from '../support/test.ts';
import { paidTrip } from '../support/trips.ts';

const row = (page: Page, name: string) => page.getByRole('group', { name });

/** Moves the server's clock (CLOCK_CONTROL=on in the e2e server). */
async function moveServerClock(page: Page, minutes: number) {
  const res = await page.request.post('/api/dev/clock', { data: { advance_minutes: minutes } });
  expect(res.ok(), await res.text()).toBe(true);
}

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('verifying the renter', () => {
  test.use({ viewport: NARROW });

  test('pay, verify the license, connect insurance, then the key page unlocks the car', async ({ page, context }) => {
    // Paid, both checks through their providers' windows, the clock moved to pickup: longer than a page's test.
    test.setTimeout(150_000);
    // Pickup tomorrow, so the server's clock can be moved to it within the test.
    const { session, id } = await paidTrip(page, { pickupDate: inDays(1), returnDate: inDays(4) });
    await expect(page.getByRole('heading', { name: 'Verification' })).toBeVisible();
    await expect(row(page, "Driver's License")).toContainText('required');
    await expect(row(page, 'Insurance')).toContainText('required');
    await expect(row(page, 'Security Deposit')).toContainText('authorized');
    await expect(page.getByRole('button', { name: 'Access Key' })).toBeDisabled();
    await expect(
      page.getByText("To get your key, verify your driver's license, connect your insurance."),
    ).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);

    // The license, in the identity verification modal (the built-in provider's hosted page).
    await row(page, "Driver's License").getByRole('button', { name: 'Verify' }).click();
    const identity = page.frameLocator('iframe[title="Verify your driver\'s license"]');
    await expect(identity.getByRole('heading', { name: 'Verify your driver’s license' })).toBeVisible();
    await identity.getByRole('button', { name: /^Approve A valid license/ }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(row(page, "Driver's License")).toContainText('verified', { timeout: 15_000 });

    // Insurance, the same way.
    await row(page, 'Insurance').getByRole('button', { name: 'Connect' }).click();
    const insurance = page.frameLocator('iframe[title="Connect your insurance"]');
    await insurance.getByLabel('Insurance carrier').selectOption('State Farm');
    await insurance.getByRole('button', { name: /^Connect an active policy/ }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(row(page, 'Insurance')).toContainText('active', { timeout: 15_000 });
    // Everything done: the card says the key is ready, no longer 'once these are done'.
    const card = page.getByRole('region', { name: 'Verification' });
    await expect(card).toContainText('All done. Your digital key is ready: it works from 30 minutes before pickup.');
    await expect(card).not.toContainText('once these are done');
    // Room to breathe: each check's row has space above and below its words.
    for (const name of ["Driver's License", 'Insurance', 'Security Deposit']) {
      const box = (await row(page, name).boundingBox())!;
      const text = (await row(page, name).getByText(name, { exact: true }).boundingBox())!;
      expect(text.y - box.y, `${name}: space above`).toBeGreaterThanOrEqual(12);
    }

    // The key: Access Key opens the key page in a new tab.
    const access = page.getByRole('link', { name: 'Access Key' });
    await expect(access).toBeVisible({ timeout: 15_000 });
    await expect(access).toHaveAttribute('target', '_blank');
    await expectNoAxeViolationsAtBothWidths(page);
    const popup = context.waitForEvent('page');
    await access.click();
    const keyPage = await popup;
    await expect(keyPage.getByRole('heading', { level: 1 })).toBeVisible();
    // The whole car: the photo's box has the picture's own 8:5 shape, so nothing is cropped.
    const photo = keyPage.getByRole('img').first();
    await expect(photo).toBeVisible();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await atBothWidths(keyPage, async () => {
      const shape = await photo.evaluate((img: HTMLImageElement) => ({
        box: img.clientWidth / img.clientHeight,
        picture: img.naturalWidth / img.naturalHeight,
        fit: getComputedStyle(img).objectFit,
      }));
      expect(shape.fit !== 'cover' || Math.abs(shape.box - shape.picture) < 0.02, JSON.stringify(shape)).toBe(true);
    });
    await expect(keyPage.getByRole('status')).toHaveText('Locked');
    await expect(keyPage.getByText('This key starts working 30 minutes before pickup.')).toBeVisible();
    await expect(keyPage.getByRole('button', { name: 'Unlock' })).toBeDisabled();

    // Live through the wait for pickup: move the server's clock to 10 minutes before it.
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation;
    const serverNow = Date.parse((await (await page.request.get('/healthz')).json()).time);
    const minutes = Math.ceil((Date.parse(trip.pickup_at) - serverNow) / 60_000) - 10;
    await moveServerClock(page, minutes);
    try {
      await keyPage.reload();
      await keyPage.getByRole('button', { name: 'Unlock' }).click();
      await expect(keyPage.getByRole('status')).toHaveText('Unlocked');
      await keyPage.getByRole('button', { name: 'Lock' }).click();
      await expect(keyPage.getByRole('status')).toHaveText('Locked');
      await expectNoAxeViolationsAtBothWidths(keyPage);
    } finally {
      await moveServerClock(page, -minutes);
    }
  });

  test('a declined license offers Try Again', async ({ page }) => {
    await paidTrip(page);
    await expect(page.getByRole('heading', { name: 'Verification' })).toBeVisible();
    await row(page, "Driver's License").getByRole('button', { name: 'Verify' }).click();
    const identity = page.frameLocator('iframe[title="Verify your driver\'s license"]');
    await identity.getByRole('button', { name: /^Decline/ }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(row(page, "Driver's License")).toContainText('declined', { timeout: 15_000 });
    await expect(row(page, "Driver's License").getByRole('button', { name: 'Try Again' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Access Key' })).toBeDisabled();
    await expectNoAxeViolationsAtBothWidths(page);
  });

  test('a wrong insurance password keeps the window open to retry; leaving names what happened and offers Try Again', async ({
    page,
  }) => {
    // A trip soon enough for the twin's active policy (six months) to cover it.
    await paidTrip(page, { pickupDate: inDays(5), returnDate: inDays(8) });
    await row(page, 'Insurance').getByRole('button', { name: 'Connect' }).click();
    const insurance = page.frameLocator('iframe[title="Connect your insurance"]');
    await insurance.getByLabel('Insurance carrier').selectOption('GEICO');
    await insurance.getByRole('button', { name: /^Wrong password/ }).click();
    await expect(insurance.getByRole('alert')).toHaveText(
      'GEICO did not accept that username and password. Try again.',
    );
    await expect(page.getByRole('dialog', { name: 'Connect your insurance' })).toBeVisible();
    // The renter gives up for now: the trip page says why, and offers another go.
    await insurance.getByRole('button', { name: /^Exit/ }).click();
    await expect(page.getByRole('dialog')).toBeHidden({ timeout: 15_000 });
    await expect(
      page.getByRole('alert').filter({ hasText: 'GEICO did not accept that username and password.' }),
    ).toBeVisible({ timeout: 15_000 });
    const again = row(page, 'Insurance').getByRole('button', { name: 'Try Again' });
    await expect(again).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);
    await page.screenshot({ path: test.info().outputPath(`insurance-refused.png`), fullPage: true });
    await again.click();
    await insurance.getByRole('button', { name: /^Connect an active policy/ }).click();
    await expect(row(page, 'Insurance')).toContainText('active', { timeout: 15_000 });
  });
});
