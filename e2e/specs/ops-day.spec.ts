import { expect, serverNow, test } from '../support/test.ts';
import { formatUsPhone, uniquePhone } from '../support/auth.ts';
import { WIDE, atBothWidths, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader } from '../support/booking.ts';
import { addVirtualAuthenticator, inviteStaff, makeOwner, signInToConsole, signOutOfConsole } from '../support/ops.ts';
import { localDay, moveServerClock, paidTrip } from '../support/trips.ts';

/** Nashville's clock, where `paidTrip` books. */
const CHICAGO = 'America/Chicago';

test('a manager sees a paid trip picking up today on the live Today board, finds it by the renter’s phone, opens its timeline, and edits the location', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // A renter's trip paid for tomorrow at 10:00 in Nashville; the server's clock then moves to two
  // hours before its pickup, so on the lot's clock it picks up today, whatever time the suite runs.
  const { session, id } = await paidTrip(page, {
    pickupDate: localDay(1, CHICAGO),
    returnDate: localDay(3, CHICAGO),
  });
  const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
    .reservation as { pickup_at: string; pickup_location: { id: number } };
  const minutes = Math.floor((Date.parse(trip.pickup_at) - serverNow().getTime()) / 60_000) - 120;
  await moveServerClock(page.request, minutes);
  try {
    // The owner invites a manager of the trip's location, who signs in with a passkey.
    await addVirtualAuthenticator(page);
    await page.setViewportSize(WIDE);
    const owner = uniquePhone();
    const manager = uniquePhone();
    await makeOwner(page.request, owner);
    await signInToConsole(page, owner);
    await inviteStaff(page.request, {
      phone: manager,
      name: 'Manny Manager',
      role: 'manager',
      locationIds: [String(trip.pickup_location.id)],
    });
    await signOutOfConsole(page.request);
    await signInToConsole(page, manager);

    // The board: the trip under Pickups today, at 10:00 on the lot's clock, live.
    const pickups = page.getByRole('region', { name: 'Pickups today' });
    const card = pickups.getByRole('listitem').filter({ hasText: formatUsPhone(session.user.phone) });
    await atBothWidths(page, async () => {
      await expect(card).toContainText(/10:00\s?AM C[SD]T/);
      await expect(card.getByRole('link', { name: /^Timeline of trip / })).toBeVisible();
      await expect(page.getByText('Live', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    // Live: another renter books tomorrow's pickup meanwhile; the open board shows it unreloaded.
    const elsewhere = await page.context().newPage();
    // (localDay counts from the clock before the move: 2 is the lot's tomorrow now.) At the same lot:
    // the board is one location's, and the city has several.
    const next = await paidTrip(
      elsewhere,
      { pickupDate: localDay(2, CHICAGO), returnDate: localDay(3, CHICAGO) },
      { atLocation: trip.pickup_location.id },
    );
    await elsewhere.close();
    await expect(
      page
        .getByRole('region', { name: 'Pickups tomorrow' })
        .getByRole('listitem')
        .filter({ hasText: formatUsPhone(next.session.user.phone) }),
    ).toBeVisible({ timeout: 15_000 });

    // Lookup by the renter's phone, as they would read it out, then the trip's timeline.
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await nav.getByRole('link', { name: 'Lookup' }).click();
    await page.getByLabel('Find a trip').fill(formatUsPhone(session.user.phone));
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: /^Trips found for/ });
    await expect(results.getByRole('row')).toHaveCount(2);
    await expectNoAxeViolations(page);
    await results.getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 1, name: /^Trip / })).toBeVisible();
    await expect(page.getByRole('link', { name: /renter’s view/ })).toHaveAttribute('href', /\/trip\//);
    await expect(
      page
        .getByRole('region', { name: /^Everything that happened/ })
        .getByRole('listitem')
        .first(),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    // The location's form: the preview follows the editor, and a refused change (the clock cannot
    // move under booked trips) is said beside its field, nothing saved.
    await nav.getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('table', { name: 'Your locations' }).getByRole('link').first().click();
    await page.getByRole('textbox', { name: 'Pickup instructions' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Ring the desk.');
    await expect(page.getByRole('region', { name: 'Preview as renters see it' })).toContainText('Ring the desk.');
    await page.getByRole('textbox', { name: 'Time zone' }).fill('America/Denver');
    await page.getByRole('option', { name: 'America/Denver' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('textbox', { name: 'Time zone' })).toHaveAccessibleDescription(
      /cannot change while trips are booked here/,
    );
    await expect(page.getByRole('textbox', { name: 'Time zone' })).toBeFocused();
    await expectNoAxeViolations(page);
  } finally {
    await moveServerClock(page.request, -minutes);
  }
});
