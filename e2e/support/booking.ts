import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { type SignedIn, readCode, signInViaApi, uniquePhone } from './auth.ts';
import { cardExpiryYY, inDays } from './test.ts';

/** A pickup window far enough out and spread enough that tests rarely meet. */
export function tripDates(length = 3): { pickupDate: string; returnDate: string } {
  const start = 30 + Math.floor(Math.random() * 250);
  return { pickupDate: inDays(start), returnDate: inDays(start + length) };
}

/** The self-serve cars free on those dates in that city, nearest first, as the search API offers them. */
export async function freeCars(
  request: APIRequestContext,
  city: string,
  dates: { pickupDate: string; returnDate: string },
): Promise<{ vin: string; model: { name: string }; location: { id: number } }[]> {
  const res = await request.get('/api/v1/search/autocomplete', { params: { query: city } });
  const id = (await res.json()).options[0].id;
  const search = await (
    await request.get(`/api/v1/vehicles/search/${id}`, {
      params: { ...dates, pickupTime: '10:00', returnTime: '10:00' },
    })
  ).json();
  const items = (
    search.items as {
      vin: string;
      model: { name: string };
      location: { id: number };
      is_self_serve_booking_allowed: boolean;
    }[]
  ).filter((i) => i.is_self_serve_booking_allowed);
  expect(items.length, `a self-serve car in ${city}`).toBeGreaterThan(0);
  return items;
}

/**
 * A self-serve car free on those dates in that city, found through the search API; at the location
 * `atLocation` when given (a city has several lots, and a board shows one).
 */
export async function freeVin(
  request: APIRequestContext,
  city: string,
  dates: { pickupDate: string; returnDate: string },
  atLocation?: number,
): Promise<string> {
  const items = (await freeCars(request, city, dates)).filter(
    (i) => atLocation === undefined || String(i.location.id) === String(atLocation),
  );
  expect(items.length, `a self-serve car free at location ${atLocation}`).toBeGreaterThan(0);
  return items[Math.floor(Math.random() * Math.min(items.length, 5))]!.vin;
}

export const authHeader = (s: SignedIn) => ({ stytch_auth: s.session_token });

/** Fills in the whole profile through the API, as a returning renter would have it. */
export async function completeProfile(request: APIRequestContext, session: SignedIn, last = 'Rivera'): Promise<void> {
  const res = await request.patch('/api/v1/users/profile', {
    headers: authHeader(session),
    data: {
      first_name: 'Sam',
      last_name: last,
      email: `sam.${Date.now()}@example.com`,
      birthday: '1990-04-12',
      address_line1: '100 Broadway',
      city: 'Nashville',
      state: 'TN',
      zip_code: '37203',
      country: 'us',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Signs a second renter in through the API only (no page), e.g. to take a car first. */
export async function apiRenter(request: APIRequestContext): Promise<SignedIn> {
  const sent = await request.post('/api/v1/auth/sms/send', { data: { phone: uniquePhone() } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const phone = ((await sent.json()) as { phone: string }).phone;
  const verified = await request.post('/api/v1/auth/sms/verify', {
    data: { phone, code: await readCode(request, phone) },
  });
  expect(verified.ok(), await verified.text()).toBe(true);
  return (await verified.json()) as SignedIn;
}

export function createBookingPath(
  vin: string,
  dates: { pickupDate: string; returnDate: string },
  addonIds: string[] = [],
): string {
  const q = new URLSearchParams({
    vehicleVin: vin,
    pickupDate: dates.pickupDate,
    pickupTime: '10:00',
    returnDate: dates.returnDate,
    returnTime: '10:00',
    addonIds: JSON.stringify(addonIds),
    vehicleTimezone: 'America/Chicago',
  });
  return `/create-booking?${q.toString()}`;
}

/**
 * Signs in, completes the profile (unless told not to) and books a Nashville car (`vin`, free on
 * `dates`, when given), stopping on the damage-waiver page.
 */
export async function bookToWaiver(
  page: Page,
  opts: { profile?: boolean; last?: string; dates?: { pickupDate: string; returnDate: string }; vin?: string } = {},
): Promise<{ session: SignedIn; id: string; vin: string }> {
  const dates = opts.dates ?? tripDates();
  const vin = opts.vin ?? (await freeVin(page.request, 'Nashville, TN', dates));
  const session = await signInViaApi(page, uniquePhone(), '/healthz');
  if (opts.profile !== false) await completeProfile(page.request, session, opts.last);
  await page.goto(createBookingPath(vin, dates));
  await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+\/damage-waiver$/);
  await expect(page.getByRole('heading', { name: 'Add Collision Protection?', level: 1 })).toBeVisible();
  const id = /\/trip\/([A-Z0-9-]+)\//.exec(page.url())![1]!;
  return { session, id, vin };
}

/** Ticks the three consents and chooses a purpose on the signature page. */
export async function sign(page: Page, names?: { first: string; last: string }): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Your Signature', level: 1 })).toBeVisible();
  if (names) {
    await page.getByLabel('First name').fill(names.first);
    await page.getByLabel('Last name').fill(names.last);
  }
  await page.getByRole('radio', { name: 'Leisure' }).check();
  await page.getByRole('checkbox', { name: /soft credit pre-qualification check/ }).check();
  await page.getByRole('checkbox', { name: /sign these documents digitally/ }).check();
  await page.getByRole('checkbox', { name: /agree to the Rental Agreement/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/pay$/);
}

/** Types a card into the payment page's card form. */
export async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration').fill(`12 / ${cardExpiryYY()}`);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('ZIP code').fill('37203');
}

/** '$1,234.50' → 123450 */
export const cents = (money: string) => Math.round(Number(money.replace(/[^0-9.]/g, '')) * 100);

/** Books a Nashville car, declines the waiver, signs and pays with the sandbox's good card; ends on the trip page. */
export async function bookAndPay(
  page: Page,
  dates?: { pickupDate: string; returnDate: string },
): Promise<{ session: SignedIn; id: string; vin: string }> {
  const booked = await bookToWaiver(page, { dates });
  await page.getByRole('button', { name: "No, I'll cover damages" }).click();
  await sign(page);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page).toHaveURL(new RegExp(`/trip/${booked.id}$`));
  return booked;
}
