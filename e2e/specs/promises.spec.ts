import type { Page } from '@playwright/test';
import { signInViaApi, uniquePhone } from '../support/auth.ts';
import { NARROW, atBothWidths, expectNoAxeViolations, expectNoAxeViolationsAtBothWidths } from '../support/axe.ts';
import { authHeader, bookToWaiver, completeProfile, fillCard, sign } from '../support/booking.ts';
import { expectWhole } from '../support/layout.ts';
import { expect, test } from '../support/test.ts';
import { moveServerClock } from '../support/trip-clock.ts';

const CHICAGO = 'America/Chicago';
/** Decision 025: an unpaid booking holds its car this long. */
const HOLD_MINUTES = 30;

/** An instant on Nashville's clock, as the booking form writes it: YYYY-MM-DD and HH:mm. */
function nashvilleLocal(at: Date): { date: string; time: string } {
  const part = (type: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: CHICAGO,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .find((p) => p.type === type)!.value;
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` };
}

/**
 * Dates for a trip picked up about 20 hours from the server's now (on the quarter hour), returned a
 * day later: past the place's 4-hour notice, but less than a day ahead, so the free-cancellation
 * window (one day before pickup, on the place's clock) has already closed.
 */
async function nextDayTrip(page: Page) {
  const serverNow = Date.parse((await (await page.request.get('/healthz')).json()).time);
  const quarter = 15 * 60_000;
  const pickupAt = Math.ceil((serverNow + 20 * 3_600_000) / quarter) * quarter;
  const pickup = nashvilleLocal(new Date(pickupAt));
  const ret = nashvilleLocal(new Date(pickupAt + 24 * 3_600_000));
  return { pickupDate: pickup.date, pickupTime: pickup.time, returnDate: ret.date, returnTime: ret.time };
}

// Each flow once, each screen it stops at judged at both widths (decision 078).
test.describe('promises that hold', () => {
  test.use({ viewport: NARROW });

  test('booked less than a day before pickup: no free cancellation is promised before paying, and the trip says why Cancel is missing', async ({
    page,
  }) => {
    const trip = await nextDayTrip(page);
    const where = await page.request.get('/api/v1/search/autocomplete', { params: { query: 'Nashville, TN' } });
    const search = await (
      await page.request.get(`/api/v1/vehicles/search/${(await where.json()).options[0].id}`, { params: trip })
    ).json();
    const car = (search.items as { vin: string; is_self_serve_booking_allowed: boolean }[]).find(
      (i) => i.is_self_serve_booking_allowed,
    );
    expect(car, 'a self-serve Nashville car free from tomorrow').toBeTruthy();
    const session = await signInViaApi(page, uniquePhone(), '/healthz');
    await completeProfile(page.request, session);
    const booking = new URLSearchParams({
      vehicleVin: car!.vin,
      ...trip,
      addonIds: '[]',
      vehicleTimezone: CHICAGO,
    });
    await page.goto(`/create-booking?${booking.toString()}`);
    await page.getByRole('button', { name: "No, I'll cover damages" }).click();
    await sign(page);

    const promise = page.getByRole('region', { name: 'No free cancellation' });
    await expect(promise).toContainText("This booking can't be cancelled for free");
    await expect(promise).toContainText('pickup is less than a day away');
    await expect(page.getByText(/Cancel for free until/)).toHaveCount(0);
    await atBothWidths(page, async () => {
      await expectWhole(promise);
      await expectNoAxeViolations(page);
    });
    await page.screenshot({ path: test.info().outputPath(`promises-closed-pay.png`), fullPage: true });

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page).toHaveURL(/\/trip\/[A-Z0-9-]+$/);
    const cancel = page.getByRole('region', { name: 'Cancellation' });
    await expect(cancel).toContainText('booked less than a day before pickup');
    await expect(cancel).toContainText("can't be cancelled for free");
    await expect(page.getByRole('button', { name: 'Cancel Trip' })).toHaveCount(0);
    await atBothWidths(page, async () => {
      await expectWhole(cancel);
      await expectNoAxeViolations(page);
    });
    await cancel.screenshot({ path: test.info().outputPath(`promises-closed-trip.png`) });
  });

  test('a hold left unpaid for 30 minutes says it expired, on the pay page and the trip, and reopens the car for the same dates', async ({
    page,
  }) => {
    const { session, id, vin } = await bookToWaiver(page);
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation as { pickup_at: string; return_at: string };
    await page.goto('/healthz');
    await moveServerClock(page, HOLD_MINUTES + 1);
    try {
      const again = await signInViaApi(page, session.user.phone, '/healthz');
      await expect
        .poll(
          async () =>
            (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(again) })).json())
              .reservation.status,
          { message: 'the lapsed hold is released', timeout: 20_000 },
        )
        .toBe('Canceled');
      const pickup = nashvilleLocal(new Date(trip.pickup_at));
      const ret = nashvilleLocal(new Date(trip.return_at));
      const carPage = new RegExp(
        `/vehicle/${vin}\\?pickupDate=${pickup.date}&pickupTime=${pickup.time.replace(':', '%3A')}&returnDate=${ret.date}&returnTime=${ret.time.replace(':', '%3A')}$`,
      );

      await page.goto(`/trip/${id}/pay`);
      await expect(page.getByRole('heading', { name: 'This trip is cancelled', level: 1 })).toBeVisible();
      await expect(page.getByText("You're all caught up!")).toHaveCount(0);
      const expired = page.getByRole('status').filter({ hasText: 'Your booking expired before payment' });
      await expect(expired).toContainText('held the car for you for 30 minutes');
      await expect(expired).toContainText('The car may still be free for these dates.');
      await atBothWidths(page, async () => {
        await expectWhole(expired);
        await expectNoAxeViolations(page);
      });
      await page.screenshot({ path: test.info().outputPath(`promises-lapsed-pay.png`), fullPage: true });

      await page.getByRole('link', { name: 'View My Trip' }).click();
      await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
      const onTrip = page.getByRole('status').filter({ hasText: 'Your booking expired before payment' });
      await expect(onTrip).toContainText('The car may still be free for these dates.');
      await expectNoAxeViolationsAtBothWidths(page);
      await page.screenshot({ path: test.info().outputPath(`promises-lapsed-trip.png`) });
      await onTrip.getByRole('link', { name: 'Check These Dates Again' }).click();
      await expect(page).toHaveURL(carPage);
      // The car's page opens on the trip's own dates, ready to book them again.
      const [y, m, d] = pickup.date.split('-').map(Number) as [number, number, number];
      const month = new Date(Date.UTC(y, m - 1, d)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
      await expect(page.getByText(`${month} ${d}, ${y},`).first()).toBeVisible();
    } finally {
      await moveServerClock(page, -(HOLD_MINUTES + 1));
    }
  });
});
