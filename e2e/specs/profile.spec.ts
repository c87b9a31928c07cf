import { type Page } from '@playwright/test';
import { formatUsPhone, signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, atBothWidths, expectNoAxeViolations } from '../support/axe.ts';
import { cardExpiryYY, expect, test } from '../support/test.ts';

async function fillCard(page: Page, number: string) {
  const dialog = page.getByRole('dialog', { name: 'Add New Card' });
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiration date').fill(`12 / ${cardExpiryYY()}`);
  await dialog.getByLabel('Security code').fill('123');
  await dialog.getByLabel('ZIP code').fill('37203');
  return dialog;
}

const cards = (page: Page) => page.getByRole('region', { name: 'Credit Cards' });

test('a renter with a name and email sees their profile card and the empty sections', async ({ page }) => {
  const phone = uniquePhone();
  const session = await signInViaApi(page, phone, '/healthz');
  const patch = await page.request.patch('/api/v1/users/profile', {
    headers: { stytch_auth: session.session_token },
    data: { first_name: 'Dana', email: 'dana@example.com' },
  });
  expect(patch.ok(), await patch.text()).toBe(true);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'Dana' });
  await expect(card.getByRole('heading', { name: 'Dana' })).toBeVisible();
  await expect(card.getByText(/^Adventuring since [A-Z][a-z]{2} \d{4}$/)).toBeVisible();
  await expect(card.getByText('dana@example.com')).toBeVisible();
  await expect(card.getByText(formatUsPhone(phone))).toBeVisible();
  // The stored renter is refreshed from the server, so the navbar greets them by name.
  await expect(page.getByRole('button', { name: 'Dana' })).toBeVisible();

  await expect(page.getByRole('region', { name: "Driver's License" })).toContainText("No Driver's Licenses");
  await expect(page.getByRole('region', { name: "Driver's License" })).toContainText(
    "Book a vehicle to verify your driver's license",
  );
  await expect(page.getByRole('region', { name: 'Insurance Connections' })).toContainText('No Insurance Connections');
  await expect(page.getByRole('region', { name: 'Insurance Connections' })).toContainText(
    'Book a vehicle to create an insurance connection',
  );
  await expect(cards(page)).toContainText('No Credit Cards');
  await expect(cards(page)).toContainText('Book a vehicle to add a credit card');

  await card.getByRole('link', { name: 'My Trips' }).click();
  await expect(page).toHaveURL(/\/trips$/);
  await expect(page).toHaveTitle('My Trips | Ampere');
  await expect(page.getByRole('heading', { name: 'No trips yet!' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Models' }).click();
  await expect(page).toHaveURL(/\/search/);
});

test('a renter without a name sees the start-a-reservation card', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/profile');
  const card = page.getByRole('region', { name: 'Your Profile' });
  await expect(card).toContainText("You don't have any trips yet");
  await card.getByRole('link', { name: 'Start a reservation' }).click();
  await expect(page).toHaveURL(/\/search/);
});

test('adds a card, lists it, and removes it', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/profile');
  await expect(cards(page)).toContainText('No Credit Cards');
  await cards(page).getByRole('button', { name: /^New/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Card' });
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(dialog.getByLabel('Card number')).toBeVisible();
  await expect(save).toBeDisabled();

  // Stripe-like entry: grouped number, MM / YY, and Save only once everything is complete.
  await dialog.getByLabel('Card number').pressSequentially('4242424242424242');
  await expect(dialog.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(dialog.getByLabel('Expiration date')).toBeFocused();
  await dialog.getByLabel('Expiration date').pressSequentially(`12${cardExpiryYY()}`);
  await expect(dialog.getByLabel('Expiration date')).toHaveValue(`12 / ${cardExpiryYY()}`);
  await dialog.getByLabel('Security code').fill('123');
  await expect(save).toBeDisabled();
  await dialog.getByLabel('ZIP code').fill('37203');
  await expect(save).toBeEnabled();
  await save.click();

  await expect(dialog).toBeHidden();
  await expect(cards(page)).toContainText('Visa');
  await expect(cards(page)).toContainText('ending in ...4242');
  await expect(cards(page)).not.toContainText('No Credit Cards');

  // The remove button is hidden until the row is hovered or focused, yet reachable by keyboard.
  const remove = cards(page).getByRole('button', { name: 'Remove card ending in ...4242' });
  await page.mouse.move(0, 0);
  await page.getByRole('heading', { name: 'Credit Cards' }).click();
  await expect(remove).toHaveCSS('opacity', '0');
  await remove.focus();
  await expect(remove).toHaveCSS('opacity', '1');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Remove card?' });
  await confirm.getByRole('button', { name: 'Remove card' }).click();
  await expect(confirm).toBeHidden();
  await expect(cards(page)).toContainText('No Credit Cards');
});

test('a declined card shows the provider message and is not saved', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/profile');
  await cards(page).getByRole('button', { name: /^New/ }).click();
  const dialog = await fillCard(page, '4000 0000 0000 0002');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(cards(page)).toContainText('No Credit Cards');
});

test('an incomplete or invalid card cannot be saved and says why', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/profile');
  await cards(page).getByRole('button', { name: /^New/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Card' });
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4241');
  await expect(dialog.getByText('Your card number is invalid.')).toBeVisible();
  await dialog.getByLabel('Card number').fill('4242 4242');
  await dialog.getByLabel('Expiration date').click();
  await expect(dialog.getByText('Your card number is incomplete.')).toBeVisible();
  await dialog.getByLabel('Expiration date').fill('01 / 20');
  await expect(dialog.getByText("Your card's expiration year is in the past.")).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('Log Out from the user menu signs out and goes to search', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/profile');
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/search/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('session_token'))).toBeNull();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
});

test('the user menu works from the keyboard, and Escape hands the focus back to its button', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/search');
  const account = page.getByRole('button', { name: 'Account' });
  const menu = page.getByRole('menu', { name: 'Account' });
  /** The open menu passes the accessibility checks, and Escape closes it onto its button. */
  const checkedAndEscaped = async () => {
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(account).toBeFocused();
  };
  // Opened with the pointer, the arrows still reach the items, and Escape closes it onto its button.
  await account.click();
  await expect(menu).toBeVisible();
  await expect(account).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await checkedAndEscaped();
  // Enter opens it on the first item.
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'My Trips' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Log Out' })).toBeFocused();
  // The arrows go round: down from the last item is the first.
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await checkedAndEscaped();
  await expect(account).toHaveAttribute('aria-expanded', 'false');
  // ArrowUp opens it on the last item; Home goes to the first, and Enter follows it.
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Log Out' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/trips$/);
  await expect(menu).toBeHidden();
  // A press elsewhere on the page closes it too.
  await account.click();
  await expect(menu).toBeVisible();
  await page.getByRole('main').click({ position: { x: 5, y: 5 } });
  await expect(menu).toBeHidden();
});

test('the user menu leads to Profile and My Trips', async ({ page }) => {
  await signInViaApi(page, uniquePhone(), '/search');
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'My Trips' }).click();
  await expect(page).toHaveURL(/\/trips$/);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  // Signed in, the logo goes home.
  await page.getByRole('link', { name: 'Ampere home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome', exact: true, level: 1 })).toBeVisible();
});

// One flow, each screen it stops at judged at both widths (decision 078).
test.describe('profile at 375 and 1280 px', () => {
  test.use({ viewport: NARROW });
  test('with a card listed and with Add New Card open, fits and has no accessibility violations', async ({ page }) => {
    const session = await signInViaApi(page, uniquePhone(), '/healthz');
    await page.request.patch('/api/v1/users/profile', {
      headers: { stytch_auth: session.session_token },
      data: { first_name: 'Alexandria', email: 'alexandria.longname@example.com' },
    });
    await page.goto('/profile');
    await cards(page).getByRole('button', { name: /^New/ }).click();
    const dialog = await fillCard(page, '4242 4242 4242 4242');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(cards(page)).toContainText('ending in ...4242');
    await atBothWidths(page, async () => {
      const { width } = page.viewportSize()!;
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`profile-${width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

    await cards(page).getByRole('button', { name: /^New/ }).click();
    await expect(page.getByRole('dialog', { name: 'Add New Card' }).getByLabel('Card number')).toBeVisible();
    await page.getByRole('dialog', { name: 'Add New Card' }).getByLabel('Card number').fill('4242');
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`profile-modal-${page.viewportSize()!.width}.png`) });
    });
  });
});
