import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '@ampere/domain/contract/booking';
import { fails, ok } from '../../../test/fake-api.ts';
import { aSavedCard, aTransaction, aTrip, rackDays, sandboxSecrets } from '../../../test/fixtures.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { PayPage } from './pay-page.tsx';
import { breakdown, dueNow, newId, openPayPage, payServer, settled, typeCard } from './pay-page.fake.tsx';

describe('Review & Pay shows', () => {
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
    expect(dueNow()).toHaveTextContent('Due now$291.70');
    expect(screen.getByRole('region', { name: 'Free cancellation' })).toHaveTextContent(
      'Cancel for free until Mar 9, 2031, 10:00 AM, one day before pickup.',
    );
    expect(screen.getByRole('radio', { name: 'New Credit Card' })).toBeChecked();

    const submit = screen.getByRole('button', { name: 'Confirm Booking' });
    expect(submit).toBeDisabled();
    await typeCard(page, '4242 4242 4242 4242');
    expect(submit).toBeEnabled();
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
    expect(dueNow()).toHaveTextContent('Due now$265.00');
    // By the field: the code and what it took off.
    expect(within(screen.getByRole('region', { name: 'Coupon' })).getByRole('status')).toHaveTextContent(
      'WELCOME10 applied — −$26.70',
    );
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
    expect(dueNow()).toHaveTextContent('Due now$291.70');
    expect(screen.queryByText(/applied —/)).not.toBeInTheDocument();
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
    expect(dueNow()).toHaveTextContent('Due now$194.47');

    await page.user.click(screen.getByRole('button', { name: 'Extend Trip' }));
    expect(await screen.findByRole('heading', { name: 'Confirmation' })).toBeVisible();
    expect(page.historyState()).toEqual({ title: 'Your trip has been extended!' });
    expect(api.callsTo('POST /api/v1/reservations/eligibility-check')).toHaveLength(0);
  });

  it('a balance owed on a paid trip (a fee after pickup) pays with Pay Now and shows no deposit line (spec 2)', async () => {
    const base = aTrip({ platform_id: newId() });
    const paid = { status: 'Successful' as const, card_last_4: '4242' };
    const trip: Reservation = {
      ...base,
      status: 'On Rent',
      transactions: [
        ...rackDays('2031-03-10', 3, 8_900, paid),
        aTransaction({ category: 'Tax', amount: 2_470, ...paid }),
        aTransaction({ category: 'Deposit', amount: 20_000, card_last_4: '4242' }),
        aTransaction({ category: 'Incidental', amount: 3_500, description: 'Cleaning fee' }),
      ],
    };
    payServer(trip, { cards: [aSavedCard()] });
    await openPayPage(trip);
    expect(screen.getByRole('region', { name: 'Trip details' })).not.toHaveTextContent('Security deposit');
    expect(dueNow()).toHaveTextContent('Due now$35.00');
    expect(screen.getByRole('button', { name: 'Pay Now' })).toBeVisible();
  });

  it('booked less than a day before pickup: no free cancellation is promised, and the card says why', async () => {
    const trip = aTrip({
      platform_id: newId(),
      created_at: '2031-03-09T20:00:00.000Z',
      can_cancel: false,
      free_cancellation_until: '2031-03-09T15:00:00.000Z',
    });
    payServer(trip);
    await openPayPage(trip);
    expect(screen.getByRole('region', { name: 'No free cancellation' })).toHaveTextContent(
      "This booking can't be cancelled for free: pickup is less than a day away, and free cancellation ends one day before pickup (it ended Mar 9, 2031, 10:00 AM).",
    );
    expect(screen.queryByText(/Cancel for free until/)).not.toBeInTheDocument();
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

  it('a cancelled trip says so rather than "all caught up"', async () => {
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
