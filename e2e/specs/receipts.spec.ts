import fs from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import { pdfTextLines } from '../../apps/api/src/pdf/text.ts';
import { signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import {
  authHeader,
  bookToWaiver,
  completeProfile,
  createBookingPath,
  fillCard,
  freeVin,
  sign,
} from '../support/booking.ts';
import { expect, inDays, test } from '../support/test.ts';
import { clockToPickup, moveServerClock, throughDepositReview } from '../support/trip-clock.ts';
import { chargeTheCar } from '../support/trips.ts';

const EXTRAS = ['Collision Protection', 'Unlimited Miles', 'Prepaid Charging'];

/**
 * Books a Nashville car with all three extras chosen on the car's page (so the waiver page is
 * passed by), signs and pays with the sandbox's good card; ends on the trip page.
 */
async function bookWithAllExtras(
  page: Page,
  dates: { pickupDate: string; returnDate: string },
): Promise<{ session: Awaited<ReturnType<typeof signInViaApi>>; id: string; vin: string }> {
  const vin = await freeVin(page.request, 'Nashville, TN', dates);
  const offered = await page.request.post('/api/v1/addons/related', {
    data: { vehicleVin: vin, pickupAt: `${dates.pickupDate}T16:00:00Z`, returnAt: `${dates.returnDate}T16:00:00Z` },
  });
  const addons = (await offered.json()).addons as { id: string }[];
  expect(addons).toHaveLength(3);
  const session = await signInViaApi(page, uniquePhone(), '/healthz');
  await completeProfile(page.request, session);
  await page.goto(
    createBookingPath(
      vin,
      dates,
      addons.map((a) => a.id),
    ),
  );
  await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+\/signature$/);
  const id = /\/trip\/([A-Z0-9-]+)\//.exec(page.url())![1]!;
  await sign(page);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
  return { session, id, vin };
}

/** Print calls the browser's print (stubbed here: a headless browser has no dialog to show). */
async function expectPrintButtonPrints(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { printed: number };
    w.printed = 0;
    window.print = () => void (w.printed += 1);
  });
  await page.getByRole('button', { name: 'Print' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
}

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

/** Clicks 'Download PDF' and checks what arrives is that trip's receipt as a PDF, with the words given. */
async function expectPdfDownload(page: Page, platformId: string, words: string[]) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`Ampere-Receipt-${platformId}.pdf`);
  const bytes = fs.readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = pdfTextLines(bytes).join('\n');
  for (const word of words) expect(text).toContain(word);
}

/** A visitor with no session, in a browser of their own. */
async function signedOutVisitor(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

// Each flow once, each screen it stops at judged at both widths (decision 078): the renter on a
// laptop, the shared link opened on a phone.
test.describe('receipts', () => {
  test.use({ viewport: WIDE, permissions: ['clipboard-read', 'clipboard-write'] });

  test('the renter’s receipt of a trip with all three extras; a link they share opens it signed out once the trip is on the road; both print and download as a PDF; revoked, the link stops', async ({
    page,
    browser,
  }) => {
    // A whole trip lived through, two PDFs and a second browser: longer than a page's test.
    test.setTimeout(150_000);
    const { session, id, vin } = await bookWithAllExtras(page, { pickupDate: inDays(1), returnDate: inDays(2) });
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
    // The first card is open to begin with (spec 2): the one payment, every extra and the tax on it,
    // and the card it was paid with. The others show only their summary.
    const cards = page.locator('details');
    for (const extra of [...EXTRAS, 'Sales tax', 'Paid with card ending in ...4242'])
      await expect(cards.first().getByText(extra, { exact: true })).toBeVisible();
    await expect(cards.nth(1).getByText('$200.00 held', { exact: true })).toBeHidden();
    await expect(page.getByText('Collision Protection active')).toBeVisible();
    await expect(page.getByText(`VIN ${vin}`)).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);

    // Sharing: the link is shown once, copied to the clipboard.
    await page.getByRole('button', { name: 'Share link' }).click();
    const field = page.getByRole('textbox', { name: 'Receipt link' });
    await expect(field).toHaveValue(/\/receipt\?token=[A-Za-z0-9_-]{43}$/);
    const link = await field.inputValue();
    await page.getByRole('button', { name: 'Copy receipt link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Receipt link copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expectNoAxeViolationsAtBothWidths(page);

    // Before pickup there is no ride: the shared page says so (spec 2).
    const visitor = await signedOutVisitor(browser, NARROW);
    await visitor.goto(link);
    await expect(visitor.getByText(UNAVAILABLE)).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(visitor);

    // Pickup comes: the trip goes On Rent with its ride (the car charged); the renter drives far and ends the trip nearly flat.
    await chargeTheCar(page.request, vin);
    const clocked = await clockToPickup(page, session, id);
    let again = clocked.session;
    const minutes = clocked.minutes;
    let reviewed = 0;
    try {
      const drove = await page.request.post(`/api/dev/vehicles/${vin}/drive`, {
        data: { miles: 250, battery_level: 0.05 },
      });
      expect(drove.ok(), await drove.text()).toBe(true);
      const ended = await page.request.post(`/api/v1/reservations/${id}/end`, { headers: authHeader(again) });
      expect(ended.ok(), await ended.text()).toBe(true);
      // The deposit's review ends (decision 092): the job takes the fee from the hold and releases the rest.
      const review = await throughDepositReview(page, again, id);
      again = review.session;
      reviewed = review.minutes;

      // The renter's receipt: the ride's readings, and the deposit's one card telling what was held,
      // kept for the fee (no mileage fee: Unlimited Miles) and released.
      await page.goto(`/trip/${id}/receipt`);
      const deposit = page.locator('details', { hasText: 'Partially Captured' });
      await expect(deposit.locator('summary')).toContainText('$45.00');
      await deposit.locator('summary').click();
      await expect(deposit).toContainText(
        /\$200\.00 held → \$45\.00 kept for the Recharge Fee → \$155\.00 released on /,
      );
      await expect(deposit).toContainText('Pulled from security deposit');
      await expect(page.locator('summary', { hasText: 'Pulled from' })).toHaveCount(0);
      await deposit.locator('summary').click();
      const readings = page.getByRole('definition');
      await expect(readings).toHaveCount(4);
      await expect(page.getByRole('region', { name: 'Total paid' })).toContainText('5%');
      const total = (await page
        .getByRole('region', { name: 'Total paid' })
        .getByText(/^\$[\d,]+\.\d\d$/)
        .first()
        .textContent())!;
      await expect(page.getByText('A receipt link made')).toBeVisible();
      await expectNoAxeViolationsAtBothWidths(page);
      await expectPrintsCleanly(page, page.getByText('Recharge Fee (0–20%)'));
      await expectPrintButtonPrints(page);
      await expectPdfDownload(page, id, [total, ...EXTRAS, 'Kept from deposit']);

      // The shared link, signed out: the same receipt, no way into the trip, printable and downloadable.
      await visitor.reload();
      await expect(visitor.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
      await expect(visitor.getByRole('region', { name: 'Total paid' })).toContainText(total);
      await expect(visitor.getByText(`VIN ${vin}`)).toBeVisible();
      await expect(visitor.getByText('Mileage in')).toBeVisible();
      await expect(visitor.locator('summary', { hasText: 'Partially Captured' })).toContainText('$45.00');
      for (const extra of EXTRAS) await expect(visitor.locator('details').first()).toContainText(extra);
      await expect(visitor.getByRole('link', { name: 'My Trip', exact: true })).toHaveCount(0);
      await expect(visitor.getByRole('heading', { name: 'Share this receipt' })).toHaveCount(0);
      await expectNoAxeViolationsAtBothWidths(visitor);
      await expectPrintsCleanly(visitor, visitor.getByText('Recharge Fee (0–20%)'));
      await expectPrintButtonPrints(visitor);
      await expectPdfDownload(visitor, id, [total, ...EXTRAS]);

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
      await moveServerClock(page, -minutes - reviewed);
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
    await expectNoAxeViolationsAtBothWidths(page);
  });
});

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
