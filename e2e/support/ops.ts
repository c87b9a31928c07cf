import { type Page } from '@playwright/test';
import { expect, serverNow } from './test.ts';
import { formatUsPhone, readCode } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';

/**
 * The operator console's shared steps: Chromium's virtual authenticator for the passkey, and the
 * sign-in by texted code (the dev outbox), as staff go through them.
 */

/**
 * Chromium's virtual authenticator (a platform one, with user verification that always passes):
 * what a laptop's fingerprint reader would be, for the console's passkey step. One per page holds
 * the passkeys of every staff member who signs in on it.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Phone, then the texted code (read from the dev outbox); leaves the page at the passkey step. */
export async function signInWithCode(page: Page, phone: string, opts: { axe?: boolean } = {}): Promise<void> {
  await page.getByLabel('Phone number').fill(formatUsPhone(phone));
  const since = serverNow().getTime();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  if (opts.axe) await expectNoAxeViolations(page);
  const code = await readCode(page.request, phone, since);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Check the code' }).click();
}

/** A first sign-in from the sign-in page: the code, then a new passkey; ends on the Today page. */
export async function firstSignIn(page: Page, phone: string, opts: { axe?: boolean } = {}): Promise<void> {
  await signInWithCode(page, phone, opts);
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  if (opts.axe) await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
}

/** The owner made by the development command, signed out; their phone. */
export async function makeOwner(page: Page, phone: string, name: string): Promise<void> {
  const made = await page.request.post('/api/dev/ops/owner', { data: { phone, name } });
  expect(made.ok(), await made.text()).toBe(true);
}

/** Invites a staff member from the Staff page (an owner's), with every location. */
export async function inviteFromStaffPage(
  page: Page,
  who: { name: string; phone: string; role: string },
): Promise<void> {
  const invite = page.getByRole('region', { name: 'Invite staff' });
  await invite.getByLabel('Name').fill(who.name);
  await invite.getByLabel('Phone number').fill(formatUsPhone(who.phone));
  await invite.getByLabel('Role').selectOption(who.role);
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByRole('status')).toContainText(`${who.name} is invited`);
}
