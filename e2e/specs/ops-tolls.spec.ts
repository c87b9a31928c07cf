import type { Page } from '@playwright/test';
import { FEE_CATALOGUE } from '@ampere/domain/fees';
import { formatTotal } from '@ampere/domain/money';
import { expect, test } from '../support/test.ts';
import { signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, WIDE, expectNoAxeViolations } from '../support/axe.ts';
import { authHeader, completeProfile } from '../support/booking.ts';
import { expectWhole } from '../support/layout.ts';
import { addVirtualAuthenticator, inviteStaff, makeOwner, signInToConsole, signOutOfConsole } from '../support/ops.ts';
import { pastTripViaApi } from '../support/trips.ts';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** `instant` as a statement writes it: the lot's wall clock with its offset, e.g. 2026-11-29T11:05:00-06:00. */
function onTheLotsClock(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName!.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** The statement as the toll authority and the city send it; a description with a comma is quoted. */
const statement = (rows: string[][]) =>
  [
    'type,plate,vin,at,amount,reference,description',
    ...rows.map((r) => r.map((f) => (f.includes(',') ? `"${f}"` : f)).join(',')),
  ].join('\n') + '\n';

/** A time of day on the lot's clock with its zone, as a pattern ('11:05 AM CST', whatever space the browser puts before AM). */
const onTheClock = (instant: Date, timeZone: string) =>
  new RegExp(
    new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
      .format(instant)
      .replace(/\s/g, '\\s'),
  );

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

test('a toll and ticket statement matched by plate to a returned trip is posted; the renter disputes the toll on a phone, the manager rejects it with a reason the renter reads, and the receipt shows the toll and the ticket with its fee', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const ZONE = 'America/Chicago';
  // A renter's trip, out three hours on the road and returned.
  const session = await signInViaApi(page, uniquePhone(), '/healthz');
  await completeProfile(page.request, session, 'Tolls');
  const id = await pastTripViaApi(page.request, session, 'Nashville, TN', { outMinutes: 180 });
  const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
    .reservation as { status: string; pickup_at: string; pickup_location: { id: number }; vehicle: { vin: string } };
  expect(trip.status).toBe('Returned');
  const pickup = Date.parse(trip.pickup_at);

  // The trip's location has a manager; the owner invites them.
  await addVirtualAuthenticator(page);
  await page.setViewportSize(WIDE);
  const owner = uniquePhone();
  const manager = uniquePhone();
  await makeOwner(page.request, owner);
  await signInToConsole(page, owner);
  await inviteStaff(page.request, {
    phone: manager,
    name: 'Tomas Tolls',
    role: 'manager',
    locationIds: [String(trip.pickup_location.id)],
  });
  await signOutOfConsole(page.request);
  await signInToConsole(page, manager);

  // The manager records the car's plate, as written on it (the console's car API, as its form sends it).
  const cars = (await (await page.request.get('/api/ops/v1/cars', { params: { vin: trip.vehicle.vin } })).json()) as {
    cars: { id: number; vin: string }[];
  };
  const car = cars.cars.find((c) => c.vin === trip.vehicle.vin)!;
  const plated = await page.request.patch(`/api/ops/v1/cars/${car.id}`, { data: { licensePlate: 'tn 4kx-207' } });
  expect(plated.ok(), await plated.text()).toBe(true);

  // The statement: a toll and a ticket of that plate during the trip, and a toll of a plate the fleet does not have.
  const toll = { cents: 475, at: onTheLotsClock(new Date(pickup + 60 * 60_000), ZONE) };
  const ticket = { cents: 4_500, at: onTheLotsClock(new Date(pickup + 100 * 60_000), ZONE) };
  // A toll is passed on at cost; a ticket at cost plus the catalogue's administration fee.
  const admin = (FEE_CATALOGUE.ticketAdministration.price as { cents: number }).cents;
  const total = formatTotal(toll.cents + ticket.cents + admin);
  const tollRow = ['toll', 'TN 4KX 207', '', toll.at, '4.75', 'BP-88120', 'Briley Parkway express lane'];
  const ticketRow = ['ticket', 'TN4KX207', '', ticket.at, '45.00', 'NPD-30417', 'Parking in a loading zone, 5th Ave N'];
  const strayRow = ['toll', 'KY 0QZ 991', '', toll.at, '3.20', 'BP-88121', 'Briley Parkway express lane'];

  // Tolls and tickets: the dry run lists the matched rows with their amounts and the one that matched nothing.
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await nav.getByRole('link', { name: 'Tolls and tickets' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tolls and tickets' })).toBeVisible();
  await page
    .getByLabel('CSV file of tolls and tickets')
    .setInputFiles(csvFile('november-statement.csv', statement([tollRow, ticketRow, strayRow])));
  await expect(page.getByTestId('chosen-file')).toHaveText('Chosen: november-statement.csv');
  await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `2 rows matched (${total}), 1 did not. Fix or remove the rows that did not match, then check the file again.`,
  );
  const unmatched = page.getByRole('table', { name: 'Rows that matched no trip' });
  const strayLine = unmatched.getByRole('row').filter({ hasText: 'KY 0QZ 991' });
  await expect(strayLine).toContainText('No trip of a car with plate KY0QZ991.');
  // No trip, no lot: its time exactly as the statement wrote it.
  await expect(strayLine.getByRole('cell', { name: toll.at, exact: true })).toBeVisible();
  const matched = page.getByRole('table', { name: 'Rows matched to a trip' });
  const tollLine = matched.getByRole('row').filter({ hasText: 'BP-88120' });
  await expect(tollLine).toContainText(id);
  await expect(tollLine).toContainText('TN4KX207');
  // On the trip's lot's clock, its zone named (never the browser's).
  await expect(tollLine).toContainText(onTheClock(new Date(pickup + 60 * 60_000), ZONE));
  await expect(tollLine.getByRole('cell', { name: formatTotal(toll.cents), exact: true })).toBeVisible();
  const ticketLine = matched.getByRole('row').filter({ hasText: 'NPD-30417' });
  await expect(ticketLine).toContainText(`${formatTotal(ticket.cents)} + ${formatTotal(admin)} admin`);
  // Each row's kind is read whole (the table's columns never cut a badge short).
  await expectWhole(ticketLine.getByText('ticket', { exact: true }));
  // All or nothing: nothing can be posted while a row matches nothing.
  await expect(page.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  await expectNoAxeViolations(page);
  await shot(page, 'console-tolls-dry-run-1280');

  // The stray row removed, the file checks clean and is posted.
  await page
    .getByLabel('CSV file of tolls and tickets')
    .setInputFiles(csvFile('november-statement-fixed.csv', statement([tollRow, ticketRow])));
  await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `2 rows matched (${total}), 0 did not. Nothing is posted yet: press Post.`,
  );
  await page.getByRole('button', { name: 'Post 2 charges' }).click();
  await expect(page.getByRole('status')).toContainText(
    `Posted 2 charges from november-statement-fixed.csv, ${total} in all. The renters are told by text and email.`,
  );
  await expectNoAxeViolations(page);
  await shot(page, 'console-tolls-posted-1280');

  // The trip's console page lists the toll, and the ticket with its fee.
  await page.goto(`/ops/trips/${id}`);
  const charges = page
    .getByRole('region', { name: 'Charges and payments' })
    .getByRole('table', { name: 'Charges after the trip' });
  const chargeRow = (label: string) =>
    charges.getByRole('row').filter({ has: page.getByRole('cell', { name: label, exact: true }) });
  await expect(chargeRow('Toll')).toContainText(formatTotal(toll.cents));
  await expect(chargeRow('Parking or Traffic Ticket')).toContainText(formatTotal(ticket.cents));
  await expect(chargeRow('Ticket Administration Fee')).toContainText(formatTotal(admin));
  await expectWhole(chargeRow('Toll').getByText('Posted', { exact: true }));
  await shot(page, 'console-trip-charges-1280');

  // The renter, on a phone, opens the toll from their trip page and disputes it.
  await page.setViewportSize(NARROW);
  await page.goto(`/trip/${id}`);
  await page
    .getByRole('region', { name: 'Charges after your trip' })
    .getByRole('link', { name: 'Toll', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Toll' })).toBeVisible();
  await expect(page.getByLabel(`Amount ${formatTotal(toll.cents)}`)).toBeVisible();
  await expect(page.getByText('Briley Parkway express lane, ref. BP-88120')).toBeVisible();
  // On the deposit hold during its review: to be taken from it, not owed and not still to pay.
  const paidHow = page.getByRole('group', { name: 'How it was paid' });
  await expect(paidHow).toContainText(`To be taken from your deposit hold${formatTotal(toll.cents)}`);
  await expect(paidHow).not.toContainText(/Still to pay|owed/);
  await shot(page, 'renter-toll-375');
  await page.getByRole('button', { name: 'Dispute this charge' }).click();
  await expect(page.getByRole('region', { name: 'Dispute' })).toContainText(
    `the ${formatTotal(toll.cents)} to be taken from your deposit hold waits`,
  );
  await page.getByLabel(/What is wrong with this charge/).fill('I never drove on Briley Parkway during this trip.');
  await page.getByRole('button', { name: 'Send dispute' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Dispute received' })).toBeVisible();
  const chargePage = page.url();

  // The manager rejects it from the Disputes queue, with a reason.
  await page.setViewportSize(WIDE);
  await page.goto('/ops/disputes');
  const queue = page.getByRole('table', { name: 'Disputes waiting for a decision' });
  const row = queue.getByRole('row').filter({ hasText: id });
  await expect(row).toContainText(formatTotal(toll.cents));
  await row.getByRole('button', { name: 'Toll', exact: true }).click();
  const decision = page.getByRole('dialog', { name: 'Dispute: Toll' });
  await expect(decision).toContainText('I never drove on Briley Parkway during this trip.');
  const reason = 'The toll authority’s camera read this car’s plate at the Briley Parkway gantry at that time.';
  await decision.getByLabel(/^Your reason/).fill(reason);
  await expectNoAxeViolations(page);
  await shot(page, 'console-dispute-reject-1280');
  await decision.getByRole('button', { name: 'Reject' }).click();
  await expect(decision).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Rejected' })).toHaveText(
    `Rejected: the Toll on trip ${id} stands. The renter reads your reason.`,
  );
  await expect(queue.getByRole('row').filter({ hasText: id })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The review is done: the manager settles the deposit, which takes the charges linked to it.
  await page.goto('/ops/deposits');
  await page.getByLabel('Status').selectOption('in_review');
  await page.getByRole('button', { name: `Release the deposit of trip ${id}` }).click();
  const settle = page.getByRole('dialog', { name: `Release the deposit of trip ${id}` });
  await expect(settle).toContainText(`${total} of charges is linked to this hold`);
  await settle.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is settled' })).toContainText(
    `${total} taken for its charges, the rest released`,
  );

  // The renter reads the outcome and the reason, then the receipt: the toll and the ticket with its fee, no refund.
  await page.setViewportSize(NARROW);
  await page.goto(chargePage);
  const outcome = page.getByRole('status').filter({ hasText: 'Dispute rejected' });
  await expect(outcome).toContainText(`The charge stands. ${reason}`);
  await expectNoAxeViolations(page);
  await shot(page, 'renter-dispute-rejected-375');
  await page.getByRole('link', { name: 'Receipt' }).click();
  await expect(page.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
  const paid = page.getByRole('group').filter({ hasText: 'Partially Captured' });
  await expect(paid).toContainText(total);
  await paid.getByText('Partially Captured').click();
  await expect(paid).toContainText(`${total} kept for the `);
  const line = (label: string, cents: number) =>
    paid.locator('div').filter({ hasText: new RegExp(`^${label} · [^$]*\\${formatTotal(cents)}$`) });
  await expect(line('Toll', toll.cents)).toBeVisible();
  await expect(line('Parking or Traffic Ticket', ticket.cents)).toBeVisible();
  await expect(line('Ticket Administration Fee', admin)).toBeVisible();
  await expect(page.getByText(/refund/i)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shot(page, 'renter-receipt-375');
});
