import { type Page, expect } from '@playwright/test';
import { type SignedIn, signInViaApi } from './auth.ts';
import { authHeader } from './booking.ts';
import { DEPOSIT_REVIEW_HOURS } from '@ampere/domain/charges';

/** Moves the server's clock (CLOCK_CONTROL=on in the e2e server); what falls due runs at once. */
export async function moveServerClock(page: Page, minutes: number): Promise<void> {
  const res = await page.request.post('/api/dev/clock', { data: { advance_minutes: minutes } });
  expect(res.ok(), await res.text()).toBe(true);
}

const tripOf = async (page: Page, session: SignedIn, platformId: string) =>
  (await (await page.request.get(`/api/v1/reservations/${platformId}`, { headers: authHeader(session) })).json())
    .reservation;

/** What to wait for after the clock moved: a reading of the trip, and the value it must reach. */
interface Due {
  what: string;
  read: (trip: { status: string; rides: unknown[] }) => string;
  toBe: string;
}

/**
 * Moves the server's clock to `offsetMinutes` after the trip's pickup (before it, when negative).
 * The move ends the renter's session (made on the old clock), so the same renter signs in again;
 * the page waits on the health check meanwhile, since the app would send a renter without a session
 * to sign in. Then waits for what the move makes `due`, if anything. Returns the new session and
 * the minutes moved: move them back when done (on failure here they are moved back already).
 */
async function clockToPickupPlus(
  page: Page,
  session: SignedIn,
  platformId: string,
  offsetMinutes: number,
  due?: Due,
): Promise<{ session: SignedIn; minutes: number }> {
  const trip = await tripOf(page, session, platformId);
  const serverNow = Date.parse((await (await page.request.get('/healthz')).json()).time);
  const minutes = Math.ceil((Date.parse(trip.pickup_at) - serverNow) / 60_000) + offsetMinutes;
  await page.goto('/healthz');
  await moveServerClock(page, minutes);
  try {
    const again = await signInViaApi(page, session.user.phone, '/healthz');
    if (due)
      await expect
        .poll(async () => due.read(await tripOf(page, again, platformId)), { message: due.what, timeout: 20_000 })
        .toBe(due.toBe);
    return { session: again, minutes };
  } catch (err) {
    // The caller never learns how far the clock moved: put it back here.
    await moveServerClock(page, -minutes);
    throw err;
  }
}

/**
 * Moves the server's clock just past the trip's pickup and waits for the trip-status job to put it
 * On Rent and record its ride (see clockToPickupPlus).
 */
export function clockToPickup(
  page: Page,
  session: SignedIn,
  platformId: string,
): Promise<{ session: SignedIn; minutes: number }> {
  return clockToPickupPlus(page, session, platformId, 5, {
    what: 'the trip-status job puts the trip On Rent and records the ride',
    read: (r) => `${r.status} ${r.rides.length}`,
    toBe: 'On Rent 1',
  });
}

/** Moves the server's clock to `hours` before the trip's pickup (see clockToPickupPlus). */
export function clockBeforePickup(
  page: Page,
  session: SignedIn,
  platformId: string,
  hours: number,
): Promise<{ session: SignedIn; minutes: number }> {
  return clockToPickupPlus(page, session, platformId, -hours * 60);
}

/**
 * Lives through the deposit's review after a return (decision 092): moves the server's clock past
 * the window, signs the renter in again (the move ends the session) and waits for the job to
 * settle the hold. Returns the new session and the minutes moved: move them back when done.
 */
export async function throughDepositReview(
  page: Page,
  session: SignedIn,
  platformId: string,
): Promise<{ session: SignedIn; minutes: number }> {
  const minutes = DEPOSIT_REVIEW_HOURS * 60 + 1;
  await page.goto('/healthz');
  await moveServerClock(page, minutes);
  try {
    const again = await signInViaApi(page, session.user.phone, '/healthz');
    await expect
      .poll(
        async () =>
          (await tripOf(page, again, platformId)).transactions.find(
            (t: { category: string }) => t.category === 'Deposit',
          ).status,
        { message: 'the job settles the hold when the review ends', timeout: 20_000 },
      )
      .not.toBe('Pending');
    return { session: again, minutes };
  } catch (err) {
    await moveServerClock(page, -minutes);
    throw err;
  }
}
