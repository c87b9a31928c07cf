import { expect, test } from '../support/test.ts';
import { uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { addVirtualAuthenticator, inviteFromStaffPage, makeOwner, signInWithCode } from '../support/ops.ts';
import { moveServerClock } from '../support/trips.ts';

test('an owner signs in with a texted code and a new passkey, signs out, signs in with the passkey, and invites a manager', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const owner = uniquePhone();
  // Names of their own: other specs on the same server make staff too.
  const ownerName = `Olivia Owner ${owner.slice(-4)}`;
  await makeOwner(page.request, owner, ownerName);
  await addVirtualAuthenticator(page);
  await page.setViewportSize(WIDE);

  // Signed out, any console address leads to sign-in.
  await page.goto('/ops/staff');
  await expect(page).toHaveURL(/\/ops\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  // First sign-in: the code, then a passkey is created.
  await signInWithCode(page, owner, { beforeCode: () => expectNoAxeViolations(page) });
  await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toContainText(ownerName);
  await expect(page.getByTestId('signed-in-as')).toContainText('Owner');
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  for (const section of ['Today', 'Fleet', 'Lookup', 'Locations', 'Staff', 'Audit log'])
    await expect(nav.getByRole('link', { name: section })).toBeVisible();
  await expectNoAxeViolations(page);

  // Signing out goes back to sign-in, saying so.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You have signed out.')).toBeVisible();

  // Past the resend wait: the second sign-in uses the passkey created above.
  await moveServerClock(page.request, 1);
  await signInWithCode(page, owner);
  await expect(page.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Today', level: 1 })).toBeVisible();

  // The owner invites a manager.
  await nav.getByRole('link', { name: 'Staff' }).click();
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
  await expect(page.getByRole('cell', { name: ownerName, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  const manager = uniquePhone();
  const managerName = `Manny Manager ${manager.slice(-4)}`;
  await inviteFromStaffPage(page, { name: managerName, phone: manager, role: 'manager' });
  await expect(page.getByRole('status')).toContainText(`${managerName} is invited as Manager`);
  await expect(page.getByRole('cell', { name: managerName, exact: true })).toBeVisible();
  // Where they work is changed in a dialog of its own.
  await page.getByRole('button', { name: `Change where ${managerName} works` }).click();
  const dialog = page.getByRole('dialog', { name: `Where ${managerName} works` });
  await expect(dialog.getByLabel('All locations')).toBeChecked();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const outbox = await (await page.request.get('/api/dev/sms', { params: { phone: manager } })).json();
  expect(outbox.messages[0].body).toContain('/ops and sign in with this phone number');

  // The audit log shows the invitation and the sign-ins, in a sortable grid.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const grid = page.getByRole('table', { name: 'Audit records, newest first' });
  // Other specs on this worker's server leave records too: this owner's are the newest.
  await expect(grid.getByRole('cell', { name: 'Invite staff' }).first()).toBeVisible();
  await expect(grid.getByRole('cell', { name: 'Register a passkey' }).first()).toBeVisible();
  await grid.getByRole('button', { name: /^Action/ }).focus();
  await page.keyboard.press('Enter');
  await expect(grid.getByRole('columnheader', { name: /^Action/ })).toHaveAttribute('aria-sort', 'ascending');
  await expectNoAxeViolations(page);

  // At a phone's width the sections fold into a menu.
  await page.setViewportSize(NARROW);
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await expect(nav.getByRole('link', { name: 'Staff' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Close the menu' }).click();
  await page.setViewportSize(WIDE);

  // A session that ends (here its cookie is gone) takes the console back to sign-in, saying why.
  await page.context().clearCookies({ name: 'ampere_ops_session' });
  await page.getByLabel('Outcome').selectOption('failure');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/ops\/sign-in$/);
  await expect(page.getByRole('status')).toHaveText('Please sign in to the operator console to continue.');
});
