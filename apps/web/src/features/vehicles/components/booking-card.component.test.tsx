import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { Vehicle } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { fakeApi, ok } from '../../../test/fake-api.ts';
import { NASHVILLE_LOT, aUser, aVehicle, anAddon } from '../../../test/fixtures.ts';
import { renderWidget, signIn } from '../../../test/render.tsx';
import { BookingCard } from './booking-card.tsx';

/** Three days from 10:00 on 10 March 2031, picked up and returned in Nashville. */
const THREE_DAYS: Trip = {
  pickupDate: '2031-03-10',
  pickupTime: '10:00',
  returnDate: '2031-03-13',
  returnTime: '10:00',
};

/** The card on the car's page, which keeps the trip the card changes (as the vehicle page does). */
function CarPage({ vehicle, initial }: { vehicle: Vehicle; initial: Trip }) {
  const [trip, setTrip] = useState(initial);
  return <BookingCard vehicle={vehicle} trip={trip} onTripChange={setTrip} />;
}

function openCard(vehicle = aVehicle(), trip = THREE_DAYS) {
  const api = fakeApi()
    .on('POST /api/v1/addons/related', ok({ addons: [anAddon()] }))
    .on('GET /api/v1/locations/search', ok({ locations: [NASHVILLE_LOT] }));
  return { api, page: renderWidget(<CarPage vehicle={vehicle} initial={trip} />, { url: `/vehicle/${vehicle.vin}` }) };
}

const breakdown = () => screen.getByRole('group', { name: 'Price breakdown' });
const book = () => screen.getByRole('button', { name: 'Book' });

describe('the booking card', () => {
  it('shows the price per day, the days and the total for the chosen dates', async () => {
    await openCard().page;
    const card = screen.getByRole('region', { name: '$89/day' });
    expect(card).toHaveTextContent('PickupMar 10, 2031, 10:00 AMReturnMar 13, 2031, 10:00 AM');
    expect(breakdown()).toHaveTextContent('$89 × 3 days$267.00Sales tax$24.70Total$291.70');
    expect(screen.getByText('Total · 3 days')).toBeInTheDocument();
    expect(book()).toBeEnabled();
  });

  it('a period chosen moves the return, and the days and total follow', async () => {
    const { page } = openCard();
    const { user } = await page;
    await user.click(screen.getByRole('checkbox', { name: '1 week' }));
    expect(breakdown()).toHaveTextContent('$89 × 1 week$623.00Sales tax$57.63Total$680.63');
    expect(screen.getByRole('region', { name: '$89/day' })).toHaveTextContent('ReturnMar 17, 2031, 10:00 AM');
    expect(screen.getByRole('checkbox', { name: '1 week' })).toBeChecked();
  });

  it('an extra ticked joins the price, taxed with the rest', async () => {
    const { page } = openCard();
    const { user } = await page;
    await user.click(await screen.findByRole('checkbox', { name: 'Collision Protection · $25/day' }));
    expect(breakdown()).toHaveTextContent('$89 × 3 days$267.00Collision Protection$75.00Sales tax$31.64Total$373.64');
  });

  it('signed in, Book opens the booking with the trip and the extras chosen', async () => {
    signIn(aUser());
    const { page } = openCard();
    const { user, path } = await page;
    await user.click(await screen.findByRole('checkbox', { name: 'Collision Protection · $25/day' }));
    await user.click(book());
    await waitFor(() => expect(path()).toMatch(/^\/create-booking\?/));
    expect(Object.fromEntries(new URLSearchParams(path().split('?')[1]))).toEqual({
      vehicleVin: '5YJYGDEE1LF000001',
      pickupDate: '2031-03-10',
      pickupTime: '10:00',
      returnDate: '2031-03-13',
      returnTime: '10:00',
      addonIds: '["collision-protection"]',
      vehicleTimezone: 'America/Chicago',
    });
  });

  it('signed out, Book goes to sign in first, carrying the booking to resume', async () => {
    const { page } = openCard();
    const { user, path } = await page;
    await user.click(book());
    await waitFor(() => expect(path()).toMatch(/^\/login\?/));
    const query = new URLSearchParams(path().split('?')[1]);
    expect(query.get('redirect')).toBe('create-booking');
    expect(query.get('vehicleVin')).toBe('5YJYGDEE1LF000001');
    expect(query.get('returnDate')).toBe('2031-03-13');
  });

  it('a return that is not after the pickup leaves nothing to book', async () => {
    await openCard(aVehicle(), { ...THREE_DAYS, returnDate: '2031-03-10' }).page;
    expect(breakdown()).toHaveTextContent('Total$0.00');
    expect(book()).toBeDisabled();
  });

  it('dates the car is already booked for say so, and Book is disabled', async () => {
    const busy = [{ from: '2031-03-11T15:00:00.000Z', until: '2031-03-12T17:00:00.000Z' }];
    await openCard(aVehicle({ busy })).page;
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Not availableThis car is booked for part of these dates. Change your dates to book it.',
    );
    expect(book()).toBeDisabled();
  });

  it('a car our team books has no Book button: the renter is offered a text to the concierge', async () => {
    await openCard(aVehicle({ is_self_serve_booking_allowed: false })).page;
    expect(screen.queryByRole('button', { name: 'Book' })).not.toBeInTheDocument();
    expect(screen.getByText("This car is booked through our concierge. Text us and we'll set it up.")).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Text (615) 555-0199' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^sms:/),
    );
  });
});
