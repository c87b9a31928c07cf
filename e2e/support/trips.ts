import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { type SignedIn, readCode, signInViaApi, uniquePhone } from './auth.ts';
import { authHeader, completeProfile, freeVin, tripDates } from './booking.ts';
import { cardExpiryYear, inDays, serverNow } from './test.ts';

/** YYYY-MM-DD, N days after the server's now, on the calendar of `timeZone`. */
export function localDay(n: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(serverNow().getTime() + n * 86_400_000),
  );
}

/**
 * Charges the simulated car to 90 %, as the lot would between renters. The demo fleet is shared by
 * the tests, and a car another test left nearly flat would otherwise change this trip's fees: a
 * Recharge Fee on a return that expects none, or none on a drained car that went out already low
 * (decision 103). Before pickup for a test that drains the car; before the end for one that does not.
 */
export async function chargeTheCar(request: APIRequestContext, vin: string): Promise<void> {
  const charged = await request.post(`/api/dev/vehicles/${vin}/drive`, { data: { battery_level: 0.9 } });
  expect(charged.ok(), await charged.text()).toBe(true);
}

/**
 * Books and pays a car in `city` through the API alone (the sandbox gateway's test card, the
 * deposit held), as a renter who booked before this test: the trip is Pending. Returns its id.
 * `signed`: the rental agreement signed first, as the booking pages do.
 */
export async function bookAndPayViaApi(
  request: APIRequestContext,
  session: SignedIn,
  city: string,
  dates: { pickupDate: string; returnDate: string },
  opts: { signed?: boolean; atLocation?: number } = {},
): Promise<string> {
  const headers = authHeader(session);
  const place = (await (await request.get('/api/v1/search/autocomplete', { params: { query: city } })).json())
    .options[0] as { timezone: string };
  const vin = await freeVin(request, city, dates, opts.atLocation);
  const booked = await request.post('/api/v1/reservations', {
    headers,
    data: {
      vehicleVin: vin,
      ...dates,
      pickupTime: '10:00',
      returnTime: '10:00',
      addonIds: [],
      vehicleTimezone: place.timezone,
    },
  });
  expect(booked.ok(), await booked.text()).toBe(true);
  const id = (await booked.json()).reservation.platform_id as string;
  if (opts.signed) {
    // As the signature page sends it: the rental agreement, signed today.
    const signed = await request.post('/api/v1/agreements', {
      headers,
      data: {
        type: 'RENTAL_AGREEMENT',
        platform_id: id,
        signature: 'Sam Rivera',
        date: inDays(0),
        rental_type: 'LEISURE',
      },
    });
    expect(signed.ok(), await signed.text()).toBe(true);
  }
  const payment = await request.post('/api/v1/payments', { headers, data: { platform_id: id } });
  expect(payment.ok(), await payment.text()).toBe(true);
  const stripe = (await payment.json()).stripe as { client_secret: string; deposit_client_secret: string };
  const charged = await request.post('/api/sandbox/v1/payment_intents/confirm', {
    data: {
      client_secret: stripe.client_secret,
      card: { number: '4242424242424242', exp_month: 12, exp_year: cardExpiryYear(), cvc: '123' },
    },
  });
  expect(charged.ok(), await charged.text()).toBe(true);
  const held = await request.post('/api/sandbox/v1/payment_intents/confirm', {
    data: { client_secret: stripe.deposit_client_secret, payment_method: (await charged.json()).payment_method },
  });
  expect(held.ok(), await held.text()).toBe(true);
  const confirmed = await request.post('/api/v1/reservations/confirm', { headers, data: { platform_id: id } });
  expect((await confirmed.json()).reservation.status).toBe('Pending');
  return id;
}

/** Moves the server's clock (CLOCK_CONTROL=on in the e2e server); what falls due runs at once. */
export async function moveServerClock(request: APIRequestContext, minutes: number): Promise<void> {
  const res = await request.post('/api/dev/clock', { data: { advance_minutes: minutes } });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * A trip the renter has already taken: booked and paid for tomorrow in `city`, then the server's
 * clock moves past its pickup (the trip goes On Rent), on by `outMinutes` more (the time on the road;
 * none unless given), the renter ends it (Returned), and the clock moves back. Returns its id.
 */
export async function pastTripViaApi(
  request: APIRequestContext,
  session: SignedIn,
  city: string,
  opts: { outMinutes?: number } = {},
): Promise<string> {
  const place = (await (await request.get('/api/v1/search/autocomplete', { params: { query: city } })).json())
    .options[0] as { timezone: string };
  const id = await bookAndPayViaApi(request, session, city, {
    pickupDate: localDay(1, place.timezone),
    returnDate: localDay(2, place.timezone),
  });
  const trip = (await (await request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
    .reservation;
  const now = Date.parse((await (await request.get('/healthz')).json()).time);
  let minutes = Math.ceil((Date.parse(trip.pickup_at) - now) / 60_000) + 5;
  await moveServerClock(request, minutes);
  try {
    // The session was made on the old clock: sign in again as the same renter.
    const sent = await request.post('/api/v1/auth/sms/send', { data: { phone: session.user.phone } });
    expect(sent.ok(), await sent.text()).toBe(true);
    const code = await readCode(request, session.user.phone);
    const again = (await (
      await request.post('/api/v1/auth/sms/verify', { data: { phone: session.user.phone, code } })
    ).json()) as SignedIn;
    await expect
      .poll(
        async () =>
          (await (await request.get(`/api/v1/reservations/${id}`, { headers: authHeader(again) })).json()).reservation
            .status,
        { message: 'the trip goes On Rent at pickup', timeout: 20_000 },
      )
      .toBe('On Rent');
    if (opts.outMinutes) {
      await moveServerClock(request, opts.outMinutes);
      minutes += opts.outMinutes;
    }
    await chargeTheCar(request, trip.vehicle.vin);
    const ended = await request.post(`/api/v1/reservations/${id}/end`, { headers: authHeader(again) });
    expect(ended.ok(), await ended.text()).toBe(true);
  } finally {
    await moveServerClock(request, -minutes);
  }
  return id;
}

/**
 * The trip `bookAndPay` makes (a new renter with a whole profile, a Nashville car, no waiver, the
 * agreement signed, paid with the sandbox's good card), made through the API alone, then its trip
 * page opened: for specs about what comes after paying. The booking pages themselves are driven by
 * booking.spec.ts, booking-mobile.spec.ts and booking-money.spec.ts (decision 078).
 */
export async function paidTrip(
  page: Page,
  dates: { pickupDate: string; returnDate: string } = tripDates(),
  opts: { atLocation?: number } = {},
): Promise<{ session: SignedIn; id: string; vin: string }> {
  const session = await signInViaApi(page, uniquePhone(), '/healthz');
  await completeProfile(page.request, session);
  const id = await bookAndPayViaApi(page.request, session, 'Nashville, TN', dates, { signed: true, ...opts });
  const trip = await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) });
  const vin = ((await trip.json()) as { reservation: { vehicle: { vin: string } } }).reservation.vehicle.vin;
  await page.goto(`/trip/${id}`);
  return { session, id, vin };
}
