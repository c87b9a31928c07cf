import sharp from 'sharp';
import { vinCheckDigit } from '@ampere/domain/fleet';
import { expect, inDays, test } from '../support/test.ts';
import { formatUsPhone, uniquePhone } from '../support/auth.ts';
import { WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { addVirtualAuthenticator, firstSignIn, inviteFromStaffPage, makeOwner } from '../support/ops.ts';
import { paidTrip } from '../support/trips.ts';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** A VIN no other test has used, with a good check digit (or, `badCheck`, a wrong one). */
function newVin(badCheck = false): string {
  const chars = Array.from({ length: 17 }, () => VIN_CHARS[Math.floor(Math.random() * VIN_CHARS.length)]!);
  chars[8] = '0';
  const good = vinCheckDigit(chars.join(''));
  chars[8] = badCheck ? (good === '1' ? '2' : '1') : good;
  return chars.join('');
}

/**
 * Issue 29's morning at a new lot, at 1280 px with axe on every console screen: the owner signs in
 * with a passkey and invites a manager; the manager signs in (code, then a new passkey), imports 20
 * cars from a CSV whose two bad rows the dry run names, fixes them and imports; uploads a car's
 * main photo and sees it on the renter's search; puts the car on hold over the searched dates and
 * sees it leave that search; then finds a renter's trip by the phone number they read out.
 */
test('a manager’s first morning: invited, imports the fleet, photographs a car, sees it in search, holds it, and finds a renter’s trip by phone', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(WIDE);
  await addVirtualAuthenticator(page);
  const owner = uniquePhone();
  const manager = uniquePhone();
  await makeOwner(page.request, owner, 'Odette Owner');

  // The owner signs in (a new passkey) and invites the manager.
  await page.goto('/ops');
  await firstSignIn(page, owner);
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await nav.getByRole('link', { name: 'Staff' }).click();
  await inviteFromStaffPage(page, { name: 'Mara Manager', phone: manager, role: 'manager' });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You have signed out.')).toBeVisible();

  // The manager's first sign-in: the texted code, then their own passkey.
  await firstSignIn(page, manager, { axe: true });
  await expect(page.getByTestId('signed-in-as')).toContainText('Mara Manager');

  // The fleet, with the buttons a manager's role allows.
  await nav.getByRole('link', { name: 'Fleet' }).click();
  await expect(page.getByRole('heading', { name: 'Fleet', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  await expectNoAxeViolations(page);

  // A 20-car file for one lot, two rows of it wrong: a mistyped VIN and a rate in dollars.
  const { locations } = await (await page.request.get('/api/ops/v1/locations')).json();
  const lot = locations[0] as { id: string; name: string; city: string; state: string };
  const { models } = await (await page.request.get('/api/ops/v1/fleet/catalog')).json();
  const model = (models[0] as { name: string }).name;
  const vins = Array.from({ length: 20 }, () => newVin());
  const row = (vin: string, rate = '8900') => `${vin},2025,${model},red,${lot.name},${rate},120`;
  const header = 'vin,year,model,colour,location,daily_rate_cents,odometer';
  const bad = [header, ...vins.map((v, i) => (i === 6 ? row(newVin(true)) : i === 13 ? row(v, '89.00') : row(v)))];
  const good = [header, ...vins.map((v) => row(v))];
  const csv = (lines: string[]) => ({ name: 'fleet.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });

  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page.getByRole('heading', { name: 'Import cars', level: 1 })).toBeVisible();
  await page.getByLabel('CSV file of cars').setInputFiles(csv(bad));
  await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
  const problems = page.getByRole('table', { name: 'Problems in the file, by line' });
  await expect(page.getByText('2 problems in 20 rows. Nothing was written')).toBeVisible();
  await expect(problems.getByRole('row').filter({ hasText: 'check digit' })).toContainText('8');
  await expect(problems.getByRole('row').filter({ hasText: 'whole cents' })).toContainText('15');
  await expectNoAxeViolations(page);
  // Fixed, chosen again, and imported: all twenty.
  await page.getByLabel('CSV file of cars').setInputFiles(csv(good));
  await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
  await expect(page.getByText('All 20 rows are good.')).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('20 cars are in the fleet');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Open the fleet' }).click();

  // The first car, found by its VIN, opens on its page.
  const vin = vins[0]!;
  await page.getByLabel('VIN contains').fill(vin);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  // The row's VIN is a link: the keyboard opens the car as a click would.
  await page.getByRole('link', { name: vin }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: `2025 ${model}`, level: 1 })).toBeVisible();
  await expect(page.getByText(vin)).toBeVisible();
  await expectNoAxeViolations(page);

  // Its plate, typed as the car shows it, is kept the way tolls are matched.
  await page.getByRole('button', { name: 'Edit details' }).click();
  await page.getByLabel(/^License plate/).fill('8abc 123');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Save the details' }).click();
  await expect(page.getByRole('status')).toContainText('The car’s details are saved.');
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('8ABC123')).toBeVisible();

  // Its main photo: a file that is not an image is refused in the server's words, a JPEG is taken.
  const moneyshot = page.getByRole('article', { name: /\(MONEYSHOT\)$/ });
  await moneyshot.getByLabel(/Upload the .* photo/).setInputFiles({
    name: 'notes.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('not a photo at all'),
  });
  await expect(moneyshot.getByRole('alert')).toContainText(/image/i);
  const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#b3262d' } })
    .jpeg()
    .toBuffer();
  await moneyshot
    .getByLabel(/Upload the .* photo/)
    .setInputFiles({ name: 'moneyshot.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(moneyshot.getByRole('status')).toContainText('the photo is uploaded');
  await expect(moneyshot.getByText(/^Photo uploaded/)).toBeVisible();
  const carPage = page.url();

  // The renter's search for that lot and those dates shows the photo on the car's card.
  const pickupDate = inDays(3);
  const returnDate = inDays(5);
  const city = `${lot.city}, ${lot.state}`;
  const search = `/search?${new URLSearchParams({ city, pickupDate, returnDate, model, color: 'red' })}`;
  await page.goto(search);
  const card = page.locator(`a[href*="/vehicle/${vin}"]`);
  await expect(card.locator('img').first()).toHaveAttribute('src', new RegExp(`/media/cars/${vin}/moneyshot-`));

  // On hold over those dates, it leaves that search.
  await page.goto(carPage);
  await page.getByRole('button', { name: 'Put on hold' }).click();
  const hold = page.getByRole('region', { name: 'Put the car on hold' });
  await hold.getByLabel('Reason').selectOption('service');
  await hold.getByLabel('Starts').fill(`${pickupDate}T00:00`);
  await hold.getByLabel('Ends').fill(`${returnDate}T23:30`);
  await hold.getByLabel('Note').fill('Tyre rotation');
  await expectNoAxeViolations(page);
  await hold.getByRole('button', { name: 'Put on hold' }).click();
  await expect(page.getByRole('status')).toContainText('The car is on hold');
  const timeline = page.getByRole('table', { name: 'Bookings and holds' });
  await expect(timeline.getByRole('row').filter({ hasText: 'Hold: Service' })).toContainText('Tyre rotation');
  await expectNoAxeViolations(page);
  await page.goto(search);
  await expect(page.getByRole('heading', { name: /^\d+ vehicles?$/ })).toBeVisible();
  await expect(card).toHaveCount(0);

  // A renter calls about their trip: the manager finds it by the phone number they read out.
  const renterPage = await page.context().newPage();
  const renter = await paidTrip(renterPage);
  await renterPage.close();
  await page.goto('/ops/lookup');
  await page.getByLabel('Find a trip').fill(formatUsPhone(renter.session.user.phone));
  await page.getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('table', { name: /^Trips found for/ });
  await expect(found.getByRole('row').filter({ hasText: renter.vin })).toHaveCount(1);
  await expectNoAxeViolations(page);
  await found.getByRole('row').filter({ hasText: renter.vin }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: /^Trip / })).toBeVisible();
  await expect(page.getByRole('link', { name: /renter’s view/ })).toHaveAttribute('href', /\/trip\//);
  await expectNoAxeViolations(page);
});
