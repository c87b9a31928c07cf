import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { formatUsPhone, readCode } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { serverNow } from './test.ts';

/** The console's API (OPS_API in the domain package). */
const OPS_API = '/api/ops/v1';

/**
 * The operator console's helpers, each small and generic: an authenticator, the sign-in steps,
 * and staff made through the API (an owner by the dev route, others invited by a signed-in owner).
 */

/**
 * Chromium's virtual authenticator (a platform one, with user verification that always passes):
 * what a laptop's fingerprint reader would be, for the console's passkey step.
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

/** Makes an owner of the console (the development route, as `npm run ops:owner` does). */
export async function makeOwner(request: APIRequestContext, phone: string, name = 'Olivia Owner'): Promise<void> {
  const made = await request.post('/api/dev/ops/owner', { data: { phone, name } });
  expect(made.ok(), await made.text()).toBe(true);
}

/** Phone, then the texted code (read from the dev outbox); leaves the page at the passkey step. */
export async function signInWithCode(page: Page, phone: string, opts: { beforeCode?: () => Promise<void> } = {}) {
  await page.getByLabel('Phone number').fill(formatUsPhone(phone));
  const since = serverNow().getTime();
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await opts.beforeCode?.();
  const code = await readCode(page.request, phone, since);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Check the code' }).click();
}

/** A first sign-in from the sign-in page: the code, then a new passkey; ends on the Today page. */
export async function firstSignIn(page: Page, phone: string, opts: { axe?: boolean } = {}): Promise<void> {
  await signInWithCode(page, phone, opts.axe ? { beforeCode: () => expectNoAxeViolations(page) } : {});
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  if (opts.axe) await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
}

/**
 * Signs in to the console through its page: the code, then the passkey (created at a first
 * sign-in, used after; the page needs `addVirtualAuthenticator`). Ends on the Today board.
 */
export async function signInToConsole(page: Page, phone: string): Promise<void> {
  await page.goto('/ops/sign-in');
  await signInWithCode(page, phone);
  const passkey = page.getByRole('button', { name: /^(Create a passkey|Use my passkey)$/ });
  await passkey.click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
}

/** Invites a staff member through the API, as the signed-in owner of `request`'s cookies. */
export async function inviteStaff(
  request: APIRequestContext,
  staff: { phone: string; name: string; role: 'owner' | 'manager' | 'agent' | 'viewer'; locationIds: string[] | 'all' },
): Promise<void> {
  const res = await request.post(`${OPS_API}/staff`, { data: staff });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Signs the console's session of `request`'s cookies out. */
export async function signOutOfConsole(request: APIRequestContext): Promise<void> {
  const res = await request.post(`${OPS_API}/auth/sign-out`);
  expect(res.ok(), await res.text()).toBe(true);
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
