import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Reservation } from '@ampere/domain/contract/booking';
import { type ApiCall, fails, fakeApi, ok } from '../../../test/fake-api.ts';
import { aSavedCard, aTransaction, aTrip, aUser, rackDays, sandboxSecrets } from '../../../test/fixtures.ts';
import { type Rendered, renderRoutes, signIn } from '../../../test/render.tsx';
import { PayPage } from './pay-page.tsx';

/** The page keeps a trip's payment for the page's life: each test pays for a trip of its own. */
let trips = 0;
const newId = () => `AMP-PAY-${String(++trips).padStart(4, '0')}`;

/** The trip as the server has it once paid: its pending items settled, a new booking Pending. */
const settled = (r: Reservation): Reservation => ({
  ...r,
  status: r.status === 'Started' ? 'Pending' : r.status,
  requested_change: null,
  transactions: r.transactions.map((t) =>
    t.status === 'Pending' && t.category !== 'Deposit' ? { ...t, status: 'Successful' } : t,
  ),
});

/**
 * The server behind Review & Pay, as far as the page asks it: the renter, the trip (as it stands
 * after each call), the payment, the saved cards, the soft credit check, the sandbox gateway and the
 * confirmation. A test changes what it answers with `api.on`.
 */
function payServer(trip: Reservation, opts: { cards?: SavedCard[] } = {}) {
  const user = aUser();
  signIn(user);
  const server = { trip };
  const api = fakeApi()
    .on('GET /api/v1/users', ok({ user }))
    .on('GET /api/v1/reservations/:id', () => ok({ reservation: server.trip }))
    .on('POST /api/v1/payments', () => ok({ reservation: server.trip, stripe: sandboxSecrets() }))
    .on('GET /api/v1/users/credit-cards', ok({ cards: opts.cards ?? [] }))
    .on('POST /api/v1/reservations/eligibility-check', ok({ is_eligible: true }))
    .on('POST /api/sandbox/v1/payment_intents/confirm', ({ body }) => {
      const { client_secret, payment_method } = body as { client_secret: string; payment_method?: string };
      return ok({
        id: client_secret.replace('_secret', ''),
        status: client_secret === sandboxSecrets().deposit_client_secret ? 'requires_capture' : 'succeeded',
        payment_method: payment_method ?? 'pm_new_card',
      });
    })
    .on('POST /api/v1/reservations/confirm', () => {
      server.trip = settled(server.trip);
      return ok({ reservation: server.trip });
    });
  return { api, server };
}

async function openPayPage(trip: Reservation): Promise<Rendered> {
  const page = await renderRoutes(
    [
      { path: '/trip/:id/pay', Component: PayPage },
      { path: '/trip/:id', element: <h1>My Trip</h1> },
      { path: '/trip/:id/confirmation', element: <h1>Confirmation</h1> },
    ],
    `/trip/${trip.platform_id}/pay`,
  );
  await screen.findByRole('heading', { name: 'Review & Pay', level: 1 });
  return page;
}

/** A card expiring in December two years from now: valid whatever day the test runs. */
const expiry = () => `12${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;

/** Fills the card form as a browser's autofill or a paste would: each field in one go. */
async function typeCard({ user }: Rendered, number: string): Promise<void> {
  for (const [label, value] of [
    ['Card number', number],
    ['Expiration', expiry()],
    ['Security code', '123'],
    ['ZIP code', '37203'],
  ] as const) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    await user.click(field);
    await user.paste(value);
  }
}

const breakdown = (name = 'Price breakdown') => screen.getByRole('group', { name });
const route = (c: ApiCall) => `${c.method} ${c.path}`;
/** The writes made since the `from`-th call (the page's reads, and analytics, left out). */
const writesSince = (calls: ApiCall[], from: number) =>
  calls
    .slice(from)
    .map(route)
    .filter((r) => !r.startsWith('GET ') && r !== 'POST /api/v1/events');
const events = () => (window.__ampereEvents ?? []).map((e) => ({ name: e.name, ...e.properties }));

describe('Review & Pay', () => {
  it('shows the trip, its lines, the deposit and the total due, with Confirm Booking once the card is complete', async () => {
    const trip = aTrip({ platform_id: newId() });
    payServer(trip);
    const page = await openPayPage(trip);

    const details = screen.getByRole('region', { name: 'Trip details' });
    expect(details).toHaveTextContent('2030 Model Y');
    expect(details).toHaveTextContent('PickupMar 10, 2031, 10:00 AMNashville Downtown Lot');
    expect(details).toHaveTextContent('ReturnMar 13, 2031, 10:00 AMNashville Downtown Lot');
    expect(breakdown()).toHaveTextContent(
      'Rental (3 days)$267.00Sales tax$24.70Total$291.70Security deposit (refundable hold)$200.00',
    );
    expect(screen.getByText('Due now').nextSibling).toHaveTextContent('$291.70');
    expect(screen.getByRole('region', { name: 'Free cancellation' })).toHaveTextContent(
      'Cancel for free until Mar 9, 2031, 10:00 AM, one day before pickup.',
    );
    expect(screen.getByRole('radio', { name: 'New Credit Card' })).toBeChecked();

    const submit = screen.getByRole('button', { name: 'Confirm Booking' });
    expect(submit).toBeDisabled();
    await typeCard(page, '4242 4242 4242 4242');
    expect(submit).toBeEnabled();
  });

  it('pays with a new card: the credit check, a fresh payment, the charge then the deposit hold with the same card, and the trip opens', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    const page = await openPayPage(trip);
    await typeCard(page, '4242 4242 4242 4242');
    const before = api.calls.length;
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    expect(await screen.findByRole('heading', { name: 'My Trip' })).toBeVisible();
    expect(page.path()).toBe(`/trip/${trip.platform_id}`);
    expect(page.historyState()).toEqual({ booked: true });
    expect(writesSince(api.calls, before)).toEqual([
      'POST /api/v1/reservations/eligibility-check',
      'POST /api/v1/payments',
      'POST /api/sandbox/v1/payment_intents/confirm',
      'POST /api/sandbox/v1/payment_intents/confirm',
      'POST /api/v1/reservations/confirm',
    ]);
    const [charge, hold] = api.callsTo('POST /api/sandbox/v1/payment_intents/confirm');
    expect(charge!.body).toMatchObject({ client_secret: 'pi_charge_secret_1', card: { number: '4242424242424242' } });
    expect(hold!.body).toEqual({ client_secret: 'pi_deposit_secret_1', payment_method: 'pm_new_card' });
    expect(events()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'payment_button_clicked', total: 29_170, label: 'Confirm Booking' }),
        expect.objectContaining({ name: 'reservation_eligibility_check_success' }),
        expect.objectContaining({ name: 'payment_completed', total: 29_170 }),
      ]),
    );
  });

  it("a declined card shows the provider's message under the card form, and the button comes back to pay with another", async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    api.on('POST /api/sandbox/v1/payment_intents/confirm', ({ body }) =>
      (body as { card?: { number: string } }).card?.number === '4000000000000002'
        ? fails(402, 'Your card was declined.', { type: 'card_error', code: 'card_declined' })
        : ok({ id: 'pi_ok', status: 'succeeded', payment_method: 'pm_new_card' }),
    );
    const page = await openPayPage(trip);
    await typeCard(page, '4000 0000 0000 0002');
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    const payment = screen.getByRole('region', { name: 'Payment' });
    expect(await within(payment).findByRole('alert')).toHaveTextContent('Your card was declined.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled());
    expect(page.path()).toBe(`/trip/${trip.platform_id}/pay`);
    expect(api.callsTo('POST /api/v1/reservations/confirm')).toHaveLength(0);
    expect(events()).toContainEqual(
      expect.objectContaining({ name: 'payment_failed', total: 29_170, reason: 'Your card was declined.' }),
    );

    await typeCard(page, '4242 4242 4242 4242');
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByRole('heading', { name: 'My Trip' })).toBeVisible();
  });

  it('a saved card is chosen to begin with, and pays with no card form', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip, { cards: [aSavedCard()] });
    const page = await openPayPage(trip);

    expect(screen.getByRole('radio', { name: 'Visa ending in ...4242' })).toBeChecked();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByRole('heading', { name: 'My Trip' })).toBeVisible();
    expect(api.callsTo('POST /api/sandbox/v1/payment_intents/confirm').map((c) => c.body)).toEqual([
      { client_secret: 'pi_charge_secret_1', payment_method: 'pm_saved_4242' },
      { client_secret: 'pi_deposit_secret_1', payment_method: 'pm_saved_4242' },
    ]);
  });

  it('a coupon applied takes its discount off, and the total and the amount due follow', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api, server } = payServer(trip);
    api.on('POST /api/v1/discounts/apply', ({ body }) => {
      server.trip = {
        ...server.trip,
        discount_code: (body as { code: string }).code,
        transactions: server.trip.transactions.map((t) => (t.category === 'Rack' ? { ...t, discount_amount: 890 } : t)),
      };
      return ok({ reservation: server.trip, stripe: sandboxSecrets({ client_secret: 'pi_charge_secret_2' }) });
    });
    const page = await openPayPage(trip);
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await page.user.type(screen.getByLabelText('Coupon code'), ' WELCOME10 ');
    await page.user.click(apply);

    await waitFor(() =>
      expect(breakdown()).toHaveTextContent(
        'Rental (3 days)$267.00Sales tax$24.70Discount (WELCOME10)−$26.70Total$265.00Security deposit (refundable hold)$200.00',
      ),
    );
    expect(api.callsTo('POST /api/v1/discounts/apply')[0]!.body).toEqual({
      code: 'WELCOME10',
      platform_id: trip.platform_id,
    });
    expect(screen.getByText('Due now').nextSibling).toHaveTextContent('$265.00');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a refused coupon says why, clears the code and leaves the total as it was', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    api.on('POST /api/v1/discounts/apply', fails(422, 'NOPE is not a valid coupon code.', { field: 'code' }));
    const page = await openPayPage(trip);
    await page.user.type(screen.getByLabelText('Coupon code'), 'NOPE{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('NOPE is not a valid coupon code.');
    expect(screen.getByLabelText('Coupon code')).toHaveValue('');
    expect(breakdown()).toHaveTextContent('Total$291.70');
    expect(screen.getByText('Due now').nextSibling).toHaveTextContent('$291.70');
  });

  it('a total that changed before paying (an underage fee) is shown, and nothing is charged', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api, server } = payServer(trip, { cards: [aSavedCard()] });
    const page = await openPayPage(trip);
    server.trip = {
      ...trip,
      transactions: [
        ...trip.transactions,
        aTransaction({ category: 'Additional', amount: 7_500, description: 'Underage User Fee' }),
      ],
    };
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your total changed to $366.70. Check it, then pay again.',
    );
    expect(breakdown()).toHaveTextContent('Underage User Fee$75.00');
    expect(breakdown()).toHaveTextContent('Total$366.70');
    expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
    expect(api.callsTo('POST /api/sandbox/v1/payment_intents/confirm')).toHaveLength(0);
  });

  it('a credit check that does not pass opens the dialog saying so, and nothing is charged', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip, { cards: [aSavedCard()] });
    api.on('POST /api/v1/reservations/eligibility-check', ok({ is_eligible: false }));
    const page = await openPayPage(trip);
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    expect(
      await screen.findByRole('dialog', { name: "Sorry, you don't currently qualify to rent with us." }),
    ).toBeVisible();
    expect(api.callsTo('POST /api/v1/payments')).toHaveLength(1);
    expect(api.callsTo('POST /api/sandbox/v1/payment_intents/confirm')).toHaveLength(0);
    expect(events()).toContainEqual(expect.objectContaining({ name: 'reservation_eligibility_check_failed' }));
  });

  it('a change of dates reads old → new, lists only what the change adds, and Extend Trip pays for just that', async () => {
    const base = aTrip({ platform_id: newId() });
    const paid = { status: 'Successful' as const, card_last_4: '4242' };
    const trip: Reservation = {
      ...base,
      status: 'Pending',
      requested_change: {
        pickup_at: base.pickup_at,
        return_at: '2031-03-15T15:00:00.000Z',
        requested_at: '2031-03-05T16:00:00.000Z',
      },
      transactions: [
        ...rackDays('2031-03-10', 3, 8_900, paid),
        aTransaction({ category: 'Tax', amount: 2_470, ...paid }),
        aTransaction({ category: 'Deposit', amount: 20_000, card_last_4: '4242' }),
        ...rackDays('2031-03-13', 2, 8_900),
        aTransaction({ category: 'Tax', amount: 1_647 }),
      ],
    };
    const { api } = payServer(trip, { cards: [aSavedCard()] });
    const page = await openPayPage(trip);

    const details = screen.getByRole('region', { name: 'Your new dates' });
    expect(details).toHaveTextContent('PickupMar 10, 2031, 10:00 AMNashville');
    expect(details).toHaveTextContent('ReturnMar 13, 2031, 10:00 AM → Mar 15, 2031, 10:00 AM');
    expect(breakdown('What the change adds')).toHaveTextContent(
      'Rental (2 days)$178.00Sales tax$16.47Total for the change$194.47',
    );
    expect(details).not.toHaveTextContent('Security deposit');
    expect(screen.queryByRole('region', { name: 'Free cancellation' })).not.toBeInTheDocument();
    expect(screen.getByText('Due now').nextSibling).toHaveTextContent('$194.47');

    await page.user.click(screen.getByRole('button', { name: 'Extend Trip' }));
    expect(await screen.findByRole('heading', { name: 'Confirmation' })).toBeVisible();
    expect(page.historyState()).toEqual({ title: 'Your trip has been extended!' });
    expect(api.callsTo('POST /api/v1/reservations/eligibility-check')).toHaveLength(0);
  });

  it('a coupon that came off while the payment was made is told before paying', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    const message =
      'The coupon code WELCOME10 is only for your first trip with us. It has been taken off this trip: check the new total, then pay again.';
    api.on('POST /api/v1/payments', fails(409, message));
    await openPayPage(trip);
    expect(screen.getByRole('status')).toHaveTextContent(message);
  });

  it('a cancelled trip says so rather than "all caught up", and a settled one has nothing to pay', async () => {
    const cancelled = aTrip({ platform_id: newId(), status: 'Canceled', cancel_reason: 'hold_expired' });
    payServer(cancelled);
    await renderRoutes([{ path: '/trip/:id/pay', Component: PayPage }], `/trip/${cancelled.platform_id}/pay`);
    expect(await screen.findByRole('heading', { name: 'This trip is cancelled', level: 1 })).toBeVisible();
    expect(screen.getByText('There is nothing to pay on it.')).toBeVisible();
    expect(screen.queryByText("You're all caught up!")).not.toBeInTheDocument();
  });

  it('a trip with nothing left to pay says so, with the way back to it', async () => {
    const trip = settled(aTrip({ platform_id: newId() }));
    const { api } = payServer(trip);
    await renderRoutes([{ path: '/trip/:id/pay', Component: PayPage }], `/trip/${trip.platform_id}/pay`);
    expect(await screen.findByRole('heading', { name: "You're all caught up!", level: 1 })).toBeVisible();
    expect(screen.getByRole('link', { name: 'View My Trip' })).toHaveAttribute('href', `/trip/${trip.platform_id}`);
    expect(api.callsTo('POST /api/v1/payments')).toHaveLength(0);
  });
});
