import { type Page } from '@playwright/test';
import { expect, serverNow, test } from '../support/test.ts';
import { formatUsPhone, readCode, signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { freeVin, tripDates } from '../support/booking.ts';
import { moveServerClock } from '../support/trips.ts';

const national = (e164: string) => formatUsPhone(e164);

async function sendCode(page: Page, phone: string): Promise<number> {
  await page.getByLabel('Mobile phone number').fill(national(phone));
  const at = serverNow().getTime();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`Enter the 6-digit code we sent to ${national(phone)}`)).toBeVisible();
  return at;
}

const events = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { __ampereEvents?: { name: string }[] }).__ampereEvents ?? []).map((e) => e.name),
  );

test('a protected page sends a signed-out renter to sign in, and the texted code brings them back', async ({
  page,
}) => {
  const phone = uniquePhone();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  await expect(page).toHaveTitle('Login | Ampere');
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  const field = page.getByLabel('Mobile phone number');
  await expect(field).toHaveAttribute('type', 'tel');
  await expect(field).toHaveAttribute('autocomplete', 'tel');
  await expect(field).toHaveAttribute('inputmode', 'tel');

  const since = await sendCode(page, phone);
  const codeField = page.getByLabel('6-digit code');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expect(codeField).toBeFocused();
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  await expect(page.getByText(/You can ask for a new code in 0:[0-5]\d\./)).toBeVisible();

  // Six digits submit by themselves.
  await codeField.pressSequentially(await readCode(page.request, phone, since));
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page).toHaveTitle('Profile | Ampere');
  await expect(page.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Account' })).toBeVisible();
  expect(await events(page)).toEqual(expect.arrayContaining(['auth_started', 'auth_completed']));
});

test('sign-in events reach the API in a batch, the completed one with the new session', async ({ page }) => {
  const phone = uniquePhone();
  await page.goto('/login');
  const completed = page.waitForRequest(
    (r) => r.url().endsWith('/api/v1/events') && (r.postData() ?? '').includes('auth_completed'),
  );
  const since = await sendCode(page, phone);
  await page.getByLabel('6-digit code').fill(await readCode(page.request, phone, since));
  await expect(page).toHaveURL(/\/$/);
  const request = await completed;
  expect((await request.response())?.status()).toBe(202);
  const body = request.postDataJSON() as { anonymous_id: string; events: { name: string; occurred_at: string }[] };
  expect(body.events.map((e) => e.name)).toContain('auth_completed');
  expect(body.anonymous_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(request.headers()['stytch_auth']).toBe(await page.evaluate(() => localStorage.getItem('session_token')));
});

test('Resend code unlocks after the countdown and the new code signs in', async ({ page }) => {
  await page.clock.install();
  const phone = uniquePhone();
  await page.goto('/login');
  await sendCode(page, phone);
  const resend = page.getByRole('button', { name: 'Resend code' });
  await expect(resend).toBeDisabled();
  await page.clock.fastForward(31_000);
  await expect(page.getByText("Didn't get it? Ask for a new code.", { exact: false })).toBeVisible();
  // The server holds the same 30 seconds between codes: move its clock on as well, and back after.
  await moveServerClock(page.request, 1);
  try {
    const since = serverNow().getTime();
    await resend.click();
    await expect(page.getByRole('status')).toHaveText(`We sent a new code to ${national(phone)}.`);
    await expect(resend).toBeDisabled();
    await page.getByLabel('6-digit code').fill(await readCode(page.request, phone, since));
    await expect(page).toHaveURL(/\/$/);
  } finally {
    await moveServerClock(page.request, -1);
  }
});

test('a wrong code says so and the right one still signs in; without a redirect the renter lands home', async ({
  page,
}) => {
  const phone = uniquePhone();
  await page.goto('/login');
  const since = await sendCode(page, phone);
  const code = await readCode(page.request, phone, since);
  const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
  await page.getByLabel('6-digit code').fill(wrong);
  await expect(page.getByRole('alert')).toHaveText('That code is not right. Check the text message and try again.');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('6-digit code').fill(code.slice(0, 5));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter the 6-digit code from the text message.');
  await page.getByLabel('6-digit code').fill(code);
  await expect(page).toHaveURL(/\/$/);
  // A brand-new renter: welcomed, not welcomed back, with the home page's search.
  await expect(page.getByRole('heading', { name: 'Welcome', exact: true, level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'View Vehicles' })).toBeVisible();
});

test('the server refuses numbers it cannot text, in its own words', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter your mobile phone number.');
  await page.getByLabel('Mobile phone number').fill('123');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter a valid mobile phone number, e.g. (615) 555-0123.');
  await page.getByLabel('Mobile phone number').fill('+44 20 7946 0958');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert')).toContainText('United Kingdom is not supported');
  await expect(page.getByLabel('Mobile phone number')).toHaveAttribute('aria-invalid', 'true');
});

test('"Use a different number" goes back with the number kept', async ({ page }) => {
  const phone = uniquePhone();
  await page.goto('/login');
  await sendCode(page, phone);
  await page.getByRole('button', { name: 'Use a different number' }).click();
  await expect(page.getByLabel('Mobile phone number')).toHaveValue(national(phone));
  await expect(page.getByRole('button', { name: 'Send code' })).toBeVisible();
});

test('Book, signed out, resumes the booking after sign-in', async ({ page }) => {
  // A car search offers for these exact times: by decision 015 it is bookable for them.
  const dates = tripDates();
  const vin = await freeVin(page.request, 'Nashville, TN', dates);
  const { pickupDate: pickup, returnDate: ret } = dates;

  await page.goto(`/vehicle/${vin}?pickupDate=${pickup}&returnDate=${ret}&pickupTime=10:00&returnTime=10:00`);
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page).toHaveURL(/\/login\?redirect=create-booking&vehicleVin=/);
  const phone = uniquePhone();
  const since = await sendCode(page, phone);
  // After sign-in the booking resumes: /create-booking books exactly what was chosen, then moves on.
  const created = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/reservations',
  );
  await page.getByLabel('6-digit code').fill(await readCode(page.request, phone, since));
  const body = (await created).postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({
    vehicleVin: vin,
    pickupDate: pickup,
    returnDate: ret,
    pickupTime: '10:00',
    returnTime: '10:00',
    vehicleTimezone: 'America/Chicago',
    addonIds: [],
  });
  await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+\/(damage-waiver|signature)$/);

  // Signed in, Book goes straight to the booking (other dates, and a car search offers for them).
  const later = tripDates();
  const other = await freeVin(page.request, 'Nashville, TN', later);
  await page.goto(
    `/vehicle/${other}?pickupDate=${later.pickupDate}&returnDate=${later.returnDate}&pickupTime=10:00&returnTime=10:00`,
  );
  const again = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/reservations',
  );
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  expect(((await again).postDataJSON() as { pickupDate: string }).pickupDate).toBe(later.pickupDate);
  await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+\/(damage-waiver|signature)$/);
});

test('a signed-in visitor skips /login and goes to the redirect target', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/login?redirect=%2Ftrips');
  await expect(page).toHaveURL(/\/trips$/);
  await expect(page.getByRole('heading', { name: 'My Trips' })).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('an expired or refused session counts as signed out', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/trips');
  await expect(page.getByRole('heading', { name: 'My Trips' })).toBeVisible();
  // Once the page's own calls are answered: each answer carries the session's end on the server,
  // and one landing after this line would put the browser's copy back (decision 072).
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => localStorage.setItem('session_expires_at', new Date(Date.now() - 1000).toISOString()));
  await page.goto('/trips');
  await expect(page).toHaveURL(/\/login\?redirect=%2Ftrips$/);

  // A token the server no longer knows: its 401 clears the stored session and the page's guard sends the renter to sign in.
  await page.evaluate(() => {
    localStorage.setItem('session_token', 'revoked-or-made-up');
    localStorage.setItem('session_expires_at', new Date(Date.now() + 3_600_000).toISOString());
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  expect(await page.evaluate(() => localStorage.getItem('session_token'))).toBeNull();
  // Anonymous, / goes to search.
  await page.goto('/');
  await expect(page).toHaveURL(/\/search/);
});

test('using the app keeps the browser signed in as long as the server keeps the session (decision 072)', async ({
  page,
}) => {
  await signInViaApi(page, uniquePhone(), '/healthz');
  // The browser's copy says the session ends in a minute (as one signed in a day ago would).
  await page.evaluate(() => localStorage.setItem('session_expires_at', new Date(Date.now() + 60_000).toISOString()));
  await page.goto('/trips');
  await expect(page.getByRole('heading', { name: 'My Trips' })).toBeVisible();
  // The answers carried the session's end on the server: a day away, and the browser now holds it.
  await expect
    .poll(async () => Date.parse((await page.evaluate(() => localStorage.getItem('session_expires_at')))!) - Date.now())
    .toBeGreaterThan(23 * 3_600_000);
});

test('/logout revokes the session and goes to /login', async ({ page }) => {
  const session = await signInViaApi(page, uniquePhone(), '/logout');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('session_token'))).toBeNull();
  const after = await page.request.get('/api/v1/users', { headers: { stytch_auth: session.session_token } });
  expect(after.status()).toBe(401);
});

for (const [name, viewport] of [
  ['375 px', NARROW],
  ['1280 px', WIDE],
] as const) {
  test.describe(`login page at ${name}`, () => {
    test.use({ viewport });
    test('both steps fit and have no accessibility violations', async ({ page }) => {
      const phone = uniquePhone();
      await page.goto('/login?redirect=%2Fprofile');
      await expect(page.getByRole('link', { name: /Terms of Service/ })).toHaveAttribute('target', '_blank');
      await expect(page.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute('rel', /noopener/);
      await expect(page.getByText(/Reply STOP to opt out/)).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`login-phone-${viewport.width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await sendCode(page, phone);
      await page.getByLabel('6-digit code').fill('000000');
      await expect(page.getByRole('alert')).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`login-code-${viewport.width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });
}
