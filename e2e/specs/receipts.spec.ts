import fs from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader, bookAndPay, bookToWaiver } from '../support/booking.ts';
import { expect, inDays, test } from '../support/test.ts';
import { clockToPickup, moveServerClock } from '../support/trip-clock.ts';

const UNAVAILABLE = 'Unable to load receipt information. Please try again later.';

/** Spec 2: printed, the receipt stands alone — no navbar, footer or buttons — with every card open. */
async function expectPrintsCleanly(page: Page, closedCardLine: Locator) {
  await expect(closedCardLine, 'a line of a closed card is hidden on screen').toBeHidden();
  await page.emulateMedia({ media: 'print' });
  try {
    await expect(page.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.locator('footer')).toBeHidden();
    for (const name of ['Print', 'Download PDF', 'Policies'])
      await expect(page.getByRole('button', { name }).or(page.getByRole('link', { name }))).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Share this receipt' })).toBeHidden();
    await expect(closedCardLine, 'every card prints open').toBeVisible();
    // Black on white: the grey of secondary text on screen prints black.
    expect(await page.getByText('Total paid', { exact: true }).evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(0, 0, 0)',
    );
  } finally {
    await page.emulateMedia({ media: 'screen' });
  }
}

/** Clicks 'Download PDF' and checks what arrives is that trip's receipt as a PDF. */
async function expectPdfDownload(page: Page, platformId: string) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`Ampere-Receipt-${platformId}.pdf`);
  const bytes = fs.readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

/** A visitor with no session, in a browser of their own. */
async function signedOutVisitor(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

for (const [label, viewport] of [
  ['wide', WIDE],
  ['narrow', NARROW],
] as const) {
  test.describe(`receipts (${label})`, () => {
    test.use({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });

    test('the renter’s receipt; a link they share opens it signed out once the trip is on the road; both print and download as a PDF; revoked, the link stops', async ({
      page,
      browser,
    }) => {
      const { session, id, vin } = await bookAndPay(page, { pickupDate: inDays(1), returnDate: inDays(2) });
      const part = id.split('-')[1];

      // Paid, before pickup: the payment and the deposit hold; the trip page links the receipt.
      await page.getByRole('link', { name: 'Receipt' }).click();
      await expect(page).toHaveURL(new RegExp(`/trip/${id}/receipt$`));
      await expect(page.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
      await expect(page.getByRole('link', { name: 'My Trip', exact: true })).toHaveAttribute('href', `/trip/${id}`);
      const policies = page.getByRole('link', { name: 'Policies' });
      await expect(policies).toHaveAttribute('href', '/policies');
      await expect(policies).toHaveAttribute('target', '_blank');
      await expect(page.locator('summary').first()).toContainText(`Receipt #${part}-001`);
      await expect(page.locator('summary').first()).toContainText('Payment');
      await expect(page.locator('summary', { hasText: `Receipt #${part}-002` })).toContainText('Authorization');
      // The first card is open to begin with (spec 2); the others show only their summary.
      const cards = page.locator('details');
      await expect(cards.first().getByText('Sales tax')).toBeVisible();
      await expect(cards.nth(1).getByText('Security deposit')).toBeHidden();
      await expect(page.getByText('Collision Protection declined')).toBeVisible();
      await expect(page.getByText(`VIN ${vin}`)).toBeVisible();
      await expectNoAxeViolations(page);

      // Sharing: the link is shown once, copied to the clipboard.
      await page.getByRole('button', { name: 'Share link' }).click();
      const field = page.getByRole('textbox', { name: 'Receipt link' });
      await expect(field).toHaveValue(/\/receipt\?token=[A-Za-z0-9_-]{43}$/);
      const link = await field.inputValue();
      await page.getByRole('button', { name: 'Copy receipt link' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Receipt link copied!' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      await expectNoAxeViolations(page);

      // Before pickup there is no ride: the shared page says so (spec 2).
      const visitor = await signedOutVisitor(browser, viewport);
      await visitor.goto(link);
      await expect(visitor.getByText(UNAVAILABLE)).toBeVisible();
      await expectNoAxeViolations(visitor);

      // Pickup comes: the trip goes On Rent with its ride; the renter drives far and ends the trip nearly flat.
      const { session: again, minutes } = await clockToPickup(page, session, id);
      try {
        const drove = await page.request.post(`/api/dev/vehicles/${vin}/drive`, {
          data: { miles: 250, battery_level: 0.05 },
        });
        expect(drove.ok(), await drove.text()).toBe(true);
        const ended = await page.request.post(`/api/v1/reservations/${id}/end`, { headers: authHeader(again) });
        expect(ended.ok(), await ended.text()).toBe(true);

        // The renter's receipt: the ride's readings and the fees pulled from the deposit.
        await page.goto(`/trip/${id}/receipt`);
        const pulled = page.locator('summary', { hasText: 'Pulled from security deposit' });
        await expect(pulled).toContainText('$62.50');
        await expect(page.locator('summary', { hasText: 'Partially Captured' })).toContainText('$62.50');
        const readings = page.getByRole('definition');
        await expect(readings).toHaveCount(4);
        await expect(page.getByRole('region', { name: 'Total paid' })).toContainText('5%');
        const total = (await page
          .getByRole('region', { name: 'Total paid' })
          .getByText(/^\$[\d,]+\.\d\d$/)
          .first()
          .textContent())!;
        await expect(page.getByText('A receipt link made')).toBeVisible();
        await expectNoAxeViolations(page);
        await expectPrintsCleanly(page, page.getByText('Recharge Fee (0–20%)'));
        await expectPdfDownload(page, id);

        // The shared link, signed out: the same receipt, no way into the trip, printable and downloadable.
        await visitor.reload();
        await expect(visitor.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
        await expect(visitor.getByRole('region', { name: 'Total paid' })).toContainText(total);
        await expect(visitor.getByText(`VIN ${vin}`)).toBeVisible();
        await expect(visitor.getByText('Mileage in')).toBeVisible();
        await expect(visitor.locator('summary', { hasText: 'Pulled from security deposit' })).toContainText('$62.50');
        await expect(visitor.getByRole('link', { name: 'My Trip', exact: true })).toHaveCount(0);
        await expect(visitor.getByRole('heading', { name: 'Share this receipt' })).toHaveCount(0);
        await expectNoAxeViolations(visitor);
        await expectPrintsCleanly(visitor, visitor.getByText('Recharge Fee (0–20%)'));
        await expectPdfDownload(visitor, id);

        // Its own renter, signed in, gets the way back to the trip.
        await page.goto(link);
        await expect(page.getByRole('link', { name: 'My Trip', exact: true })).toHaveAttribute('href', `/trip/${id}`);

        // Revoked, the link opens nothing.
        await page.goto(`/trip/${id}/receipt`);
        await page.getByRole('button', { name: 'Revoke link' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Receipt link revoked' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Share link' })).toBeVisible();
        await visitor.reload();
        await expect(visitor.getByText(UNAVAILABLE)).toBeVisible();
      } finally {
        await visitor.context().close();
        await moveServerClock(page, -minutes);
      }
    });

    test('the policies page the receipts open: the deposit, cancellation and the return’s fees, and what each receipt label means', async ({
      page,
    }) => {
      await page.goto('/policies');
      await expect(page.getByRole('heading', { name: 'Policies', level: 1 })).toBeVisible();
      await expect(page.getByText(/\$200\.00 hold/)).toBeVisible();
      await expect(page.getByText(/\$45\.00 at 0–20%/)).toBeVisible();
      await expect(page.getByText(/Pulled from security deposit/)).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });
}

test('before any hold exists the deposit is not an Authorization: the unpaid trip says it is not held yet, and its receipt has no card for it', async ({
  page,
}) => {
  const { id } = await bookToWaiver(page);
  await page.goto(`/trip/${id}`);
  const payment = page.getByRole('region', { name: 'Payment details' });
  await expect(payment).toContainText('Security depositNot held yet');
  await expect(payment).not.toContainText('Authorization');
  await page.goto(`/trip/${id}/receipt`);
  await expect(page.getByText('No payments on this trip yet.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Share this receipt' })).toHaveCount(0);
});
