import { type Page, expect } from '@playwright/test';
import { type SignedIn, signInViaApi } from './auth.ts';
import { authHeader } from './booking.ts';

/** Moves the server's clock (CLOCK_CONTROL=on in the e2e server); what falls due runs at once. */
export async function moveServerClock(page: Page, minutes: number): Promise<void> {
  const res = await page.request.post('/api/dev/clock', { data: { advance_minutes: minutes } });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * Moves the server's clock just past the trip's pickup and waits for the trip-status job to put it
 * On Rent and record its ride. The move ends the renter's session (made on the old clock), so the
 * same renter signs in again; the page waits on the health check meanwhile, since the app would
 * send a renter without a session to sign in. Returns the new session and the minutes moved: move
 * them back when done (on failure here they are moved back already).
 */
export async function clockToPickup(
  page: Page,
  session: SignedIn,
  platformId: string,
): Promise<{ session: SignedIn; minutes: number }> {
  const trip = (
    await (await page.request.get(`/api/v1/reservations/${platformId}`, { headers: authHeader(session) })).json()
  ).reservation;
  const serverNow = Date.parse((await (await page.request.get('/healthz')).json()).time);
  const minutes = Math.ceil((Date.parse(trip.pickup_at) - serverNow) / 60_000) + 5;
  await page.goto('/healthz');
  await moveServerClock(page, minutes);
  try {
    const again = await signInViaApi(page, session.user.phone, '/healthz');
    await expect
      .poll(
        async () => {
          const r = (
            await (await page.request.get(`/api/v1/reservations/${platformId}`, { headers: authHeader(again) })).json()
          ).reservation;
          return `${r.status} ${r.rides.length}`;
        },
        { message: 'the trip-status job puts the trip On Rent and records the ride', timeout: 20_000 },
      )
      .toBe('On Rent 1');
    return { session: again, minutes };
  } catch (err) {
    // The caller never learns how far the clock moved: put it back here.
    await moveServerClock(page, -minutes);
    throw err;
  }
}
