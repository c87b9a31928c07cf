import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fails, ok } from '../../../test/fake-api.ts';
import { aSavedCard, aTransaction, aTrip } from '../../../test/fixtures.ts';
import { findDialog } from '../../../test/render.tsx';
import { breakdown, events, newId, openPayPage, payServer, typeCard, writesSince } from './pay-page.fake.tsx';

describe('paying on Review & Pay', () => {
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

    // Editing the card: the message was about the card as it was, so it goes.
    await page.user.type(screen.getByLabelText('Card number'), '{Backspace}');
    expect(within(payment).queryByText('Your card was declined.')).not.toBeInTheDocument();

    await typeCard(page, '4242 4242 4242 4242');
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByRole('heading', { name: 'My Trip' })).toBeVisible();
  });

  it('a card whose bank asks for 3-D Secure the page cannot complete: the fallback message under the card, nothing confirmed', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    api.on(
      'POST /api/sandbox/v1/payment_intents/confirm',
      ok({ id: 'pi_charge_1', status: 'requires_action', payment_method: 'pm_3ds', last_payment_error: null }),
    );
    const page = await openPayPage(trip);
    await typeCard(page, '4000 0027 6000 3184');
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));

    const payment = screen.getByRole('region', { name: 'Payment' });
    expect(await within(payment).findByRole('alert')).toHaveTextContent(
      'Your payment could not be completed. Try another card.',
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled());
    expect(api.callsTo('POST /api/v1/reservations/confirm')).toHaveLength(0);
  });

  it('a deposit hold refused after the charge went through: paying again holds the deposit only, with the card charged', async () => {
    const trip = aTrip({ platform_id: newId() });
    const { api } = payServer(trip);
    let holds = 0;
    api.on('POST /api/sandbox/v1/payment_intents/confirm', ({ body }) => {
      const { client_secret } = body as { client_secret: string };
      if (client_secret === 'pi_charge_secret_1')
        return ok({ id: 'pi_charge_1', status: 'succeeded', payment_method: 'pm_new_card' });
      return ++holds === 1
        ? fails(402, 'Your card has insufficient funds.', { type: 'card_error', code: 'card_declined' })
        : ok({ id: 'pi_deposit_1', status: 'requires_capture', payment_method: 'pm_new_card' });
    });
    const page = await openPayPage(trip);
    await typeCard(page, '4242 4242 4242 4242');
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    const payment = screen.getByRole('region', { name: 'Payment' });
    expect(await within(payment).findByRole('alert')).toHaveTextContent('Your card has insufficient funds.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled());

    const before = api.calls.length;
    await page.user.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByRole('heading', { name: 'My Trip' })).toBeVisible();
    expect(writesSince(api.calls, before)).toEqual([
      'POST /api/v1/reservations/eligibility-check',
      'POST /api/sandbox/v1/payment_intents/confirm',
      'POST /api/v1/reservations/confirm',
    ]);
    expect(api.callsTo('POST /api/sandbox/v1/payment_intents/confirm').at(-1)!.body).toEqual({
      client_secret: 'pi_deposit_secret_1',
      payment_method: 'pm_new_card',
    });
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

    expect(await findDialog("Sorry, you don't currently qualify to rent with us.")).toBeVisible();
    expect(api.callsTo('POST /api/v1/payments')).toHaveLength(1);
    expect(api.callsTo('POST /api/sandbox/v1/payment_intents/confirm')).toHaveLength(0);
    expect(events()).toContainEqual(expect.objectContaining({ name: 'reservation_eligibility_check_failed' }));
  });
});
