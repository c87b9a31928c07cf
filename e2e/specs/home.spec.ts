import type { Page } from '@playwright/test';
import { type SignedIn, drawPagesInBrowser, signInViaApi, uniquePhone } from '../support/auth.ts';
import {
  NARROW,
  WIDE,
  atBothWidths,
  expectNoAxeViolations,
  expectNoAxeViolationsAtBothWidths,
} from '../support/axe.ts';
import { authHeader, completeProfile, tripDates } from '../support/booking.ts';
import { expectWhole, layoutShift, recordLayoutShifts } from '../support/layout.ts';
import { expect, test } from '../support/test.ts';
import { bookAndPayViaApi, pastTripViaApi } from '../support/trips.ts';

const greeting = (page: Page) => page.getByRole('heading', { level: 1 });
const onDay = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));
const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function signInWithName(page: Page, first: string): Promise<SignedIn> {
  const session = await signInViaApi(page, uniquePhone(), '/healthz');
  const named = await page.request.patch('/api/v1/users/profile', {
    headers: authHeader(session),
    data: { first_name: first },
  });
  expect(named.ok(), await named.text()).toBe(true);
  return session;
}

// Each flow once, at one width, each screen it stops at judged at both (decision 078); the hero's
// search, which differs by width, runs at both.
test.describe('the home page', () => {
  test.use({ viewport: NARROW });

  test('a brand-new renter is welcomed (not welcomed back), by first name once it is known', async ({ page }) => {
    const session = await signInViaApi(page, uniquePhone(), '/');
    await expect(greeting(page)).toHaveText('Welcome');
    await expect(page.getByRole('heading', { name: /Your (upcoming|current) trip/ })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Rent Again' })).toHaveCount(0);
    await page.request.patch('/api/v1/users/profile', { headers: authHeader(session), data: { first_name: 'Ana' } });
    await page.reload();
    await expect(greeting(page)).toHaveText('Welcome, Ana');
    await expect(page.getByRole('link', { name: 'Model Y', exact: false }).first()).toBeVisible();
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
    });
  });

  test('a booked trip shows on its card: dates, price and place; the instructions open; Trip Details and Receipt lead to the trip', async ({
    page,
  }) => {
    await page.setViewportSize(WIDE);
    const session = await signInViaApi(page, uniquePhone(), '/healthz');
    await completeProfile(page.request, session);
    const id = await bookAndPayViaApi(page.request, session, 'Nashville, TN', tripDates(4));
    const trip = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation;
    const total = (trip.transactions as { category: string; status: string; amount: number; discount_amount: number }[])
      .filter((t) => t.category !== 'Deposit' && t.status !== 'Canceled' && t.status !== 'Failed')
      .reduce((sum, t) => sum + t.amount - t.discount_amount, 0);

    await page.goto('/');
    await expect(greeting(page)).toHaveText('Welcome back, Sam');
    const section = page.getByRole('region', { name: 'Your upcoming trip' });
    await expect(section).toContainText(`Trip ID ${id}`);
    const card = section.getByRole('article');
    await expect(card.getByRole('heading', { name: trip.vehicle.model.name })).toBeVisible();
    const zone = trip.pickup_location.timezone as string;
    await expect(card).toContainText(onDay(trip.pickup_at, zone));
    await expect(card).toContainText(onDay(trip.return_at, zone));
    await expect(card).toContainText('10:00 AM');
    await expect(card).toContainText(trip.pickup_location.name);
    await expect(card).toContainText(dollars(total));
    await expectNoAxeViolationsAtBothWidths(page);

    await card.getByRole('button', { name: 'Pickup/Return Instructions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pickup/Return Instructions' });
    await expect(dialog.getByRole('heading', { name: 'Pickup instructions', exact: true })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Return instructions', exact: true })).toBeVisible();
    const pickupText = (trip.pickup_location.pickup_instructions_html as string).replace(/<[^>]+>/g, '').slice(0, 30);
    await expect(dialog).toContainText(pickupText);
    await expectNoAxeViolationsAtBothWidths(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    await card.getByRole('link', { name: 'Receipt' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}/receipt$`));
    await expect(page.getByRole('heading', { name: 'Your Receipts', level: 1 })).toBeVisible();
    await page.goBack();
    await page.getByRole('region', { name: 'Your upcoming trip' }).getByRole('link', { name: 'Trip Details' }).click();
    await expect(page).toHaveURL(new RegExp(`/trip/${id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(trip.vehicle.model.name);
  });

  test('a renter with a past trip sees Rent Again, which searches that city for that model', async ({ page }) => {
    const session = await signInWithName(page, 'Ana');
    const id = await pastTripViaApi(page.request, session, 'Phoenix, AZ');
    const past = (await (await page.request.get(`/api/v1/reservations/${id}`, { headers: authHeader(session) })).json())
      .reservation;
    expect(past.status).toBe('Returned');
    const model = past.vehicle.model.name as string;

    await page.goto('/');
    await expect(greeting(page)).toHaveText('Welcome back, Ana');
    const row = page.getByRole('region', { name: 'Rent Again' });
    const tile = row.getByRole('link', { name: new RegExp(`${model}.*Phoenix, AZ`) });
    await expect(tile).toHaveCount(1);
    await expect(row.getByRole('link')).toHaveCount(1);
    // A trip already returned is not the one to pick up.
    await expect(page.getByRole('heading', { name: /Your (upcoming|current) trip/ })).toHaveCount(0);
    await expectNoAxeViolationsAtBothWidths(page);

    await tile.click();
    await expect(page).toHaveURL(/\/search\?.*searchQuery=\d+/);
    const url = new URL(page.url());
    expect(url.searchParams.get('model')).toBe(model);
    expect(url.searchParams.get('city')).toBeNull();
    await expectSearchIn(page, 'Phoenix, AZ');
  });

  test('while loading, 7 model and 6 city placeholders; then a city tile leads to search results for that city, a model tile to a search for that model', async ({
    page,
  }) => {
    await page.setViewportSize(WIDE);
    await signInWithName(page, 'Ana');
    await drawPagesInBrowser(page);
    // The models and the places answer only once the placeholders have been counted.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(/\/api\/v1\/(vehicle_models|search\/cities)(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByRole('list', { name: 'Loading models' }).getByRole('listitem')).toHaveCount(7);
    await expect(page.getByRole('list', { name: 'Loading cities' }).getByRole('listitem')).toHaveCount(6);
    answer();
    const cities = page.getByRole('region', { name: 'Search by city' });
    await expect(cities.getByRole('link')).toHaveText([
      /Nashville/,
      /St Louis/,
      /Dallas/,
      /Austin/,
      /Phoenix/,
      /Las Vegas/,
    ]);
    await expect(cities.getByRole('link', { name: 'Dallas TX' })).toHaveAttribute('href', '/search?city=Dallas%2C+TX');
    await cities.getByRole('link', { name: 'Dallas TX' }).click();
    await expect(page).toHaveURL(/\/search\?.*searchQuery=\d+/);
    await expectSearchIn(page, 'Dallas, TX');

    await page.goto('/');
    const models = page.getByRole('region', { name: 'Search by model' });
    await models.getByRole('link', { name: /^Model X/ }).click();
    await expect(page).toHaveURL(/\/search\?.*model=Model\+X/);
    await expect(page.getByRole('link', { name: /total for/ }).first()).toBeVisible();
    const names = await page
      .getByRole('link', { name: /total for/ })
      .evaluateAll((links) => links.map((l) => (l as HTMLElement).innerText));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => !/^Model X\b/.test(n))).toEqual([]);
  });

  test('resources: the video plays only once asked, and the blog and FAQs open the landing site in a new tab', async ({
    page,
  }) => {
    await signInWithName(page, 'Ana');
    await page.goto('/');
    const resources = page.getByRole('region', { name: 'Resources' });
    await expect(resources.locator('video')).toHaveCount(0);
    const site = ((await (await page.request.get('/api/v1/config')).json()).marketingSiteUrl as string).replace(
      /\/+$/,
      '',
    );
    for (const [name, path] of [
      ['More resources', '/resources'],
      ['Read the post', '/blog/'],
      ['All FAQs', '/faqs'],
    ] as const) {
      const link = resources.getByRole('link', { name: new RegExp(name) });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('href', new RegExp(`^${site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path}`));
    }
    await resources.getByText('Can I cancel?').click();
    await expect(resources.getByText('free of charge until one day before pickup')).toBeVisible();
    await resources.getByRole('button', { name: /Play video/ }).click();
    const video = resources.locator('video');
    await expect(video).toBeVisible();
    const src = await video.getAttribute('src');
    const served = await page.request.get(src!);
    expect(served.ok()).toBe(true);
    expect(served.headers()['content-type']).toBe('video/webm');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 || !v.paused), {
        message: 'the video starts playing',
      })
      .toBe(true);
    await expectNoAxeViolationsAtBothWidths(page);
  });
});

for (const [label, viewport] of [
  ['1280 px', WIDE],
  ['375 px', NARROW],
] as const) {
  test.describe(`the home page at ${label}`, () => {
    test.use({ viewport });

    test('the search in the hero leads to search results for the place chosen', async ({ page }) => {
      await signInWithName(page, 'Ana');
      await page.goto('/');
      const hero = page.getByRole('region', { name: 'Find a car' });
      if (viewport.width >= 768) {
        await expect(hero.getByRole('button', { name: 'View Vehicles' })).toBeDisabled();
        await hero.getByRole('combobox', { name: 'Location' }).click();
        await page.getByRole('option', { name: 'Austin, TX' }).click();
        // The place chosen (with its default dates) rides along on the model tiles' links.
        const optionId = new URL(
          await page
            .getByRole('region', { name: 'Search by model' })
            .getByRole('link')
            .first()
            .evaluate((a: HTMLAnchorElement) => a.href),
        ).searchParams.get('searchQuery');
        expect(optionId).toMatch(/^\d+$/);
        await hero.getByRole('button', { name: 'View Vehicles' }).click();
        await expect(page).toHaveURL(new RegExp(`/search\\?.*searchQuery=${optionId}`));
      } else {
        // Under 768 px 'View Vehicles' sits whole beneath the search, on the first screen, and browses what is near.
        const view = hero.getByRole('link', { name: 'View Vehicles' });
        await expect(view).toBeInViewport({ ratio: 1 });
        await expectWhole(view);
        await expect(view).toHaveAttribute('href', '/search');
        await hero.getByRole('button', { name: /Change search/ }).click();
        const dialog = page.getByRole('dialog', { name: 'Location' });
        await dialog.getByRole('combobox', { name: 'Location' }).click();
        await page.getByRole('option', { name: 'Austin, TX' }).click();
        await dialog.getByRole('button', { name: 'Pickup Date' }).click();
        await page.getByRole('dialog', { name: 'Pickup' }).getByRole('button', { name: 'Return Date' }).click();
        await page.getByRole('dialog', { name: 'Return' }).getByRole('button', { name: 'Search Vehicles' }).click();
        await expect(page).toHaveURL(/\/search\?.*searchQuery=\d+/);
      }
      await expectSearchIn(page, 'Austin, TX');
    });
  });
}

/** The search page has settled on `city` and lists cars there. */
async function expectSearchIn(page: Page, city: string): Promise<void> {
  if (page.viewportSize()!.width >= 768)
    await expect(page.getByRole('combobox', { name: 'Location' })).toHaveValue(city);
  else await expect(page.getByRole('button', { name: new RegExp(`^Change search: ${city}`) })).toBeVisible();
  const first = page.getByRole('link', { name: /total for/ }).first();
  await expect(first).toBeVisible();
  await expect(first).toContainText(city.split(',')[0]!);
}

test.describe('navigation under 768 px', () => {
  test.use({ viewport: NARROW });

  test('the menu lists Profile, My Trips and Log Out directly; Log Out signs out and lands on search', async ({
    page,
  }) => {
    await signInWithName(page, 'Ana');
    await page.goto('/trips');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    for (const name of ['Profile', 'My Trips'])
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Log Out' })).toBeVisible();
    await expectNoAxeViolations(page);
    await menu.getByRole('link', { name: 'Profile', exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/search(\?|$)/);
    expect(new URL(page.url()).pathname).toBe('/search');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('session_token')), { message: 'the session is cleared' })
      .toBeNull();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Sign In' })).toBeVisible();
  });
});

test('Log Out from the user menu on the home page lands on search, not on sign-in', async ({ page }) => {
  await page.setViewportSize(WIDE);
  await signInWithName(page, 'Ana');
  await page.goto('/');
  await expect(greeting(page)).toHaveText('Welcome, Ana');
  await page.getByRole('button', { name: 'Ana' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/search(\?|$)/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' })).toBeVisible();
  // Signed out, home is search again.
  await page.goto('/');
  await expect(page).toHaveURL(/\/search(\?|$)/);
});

test.describe('the home page on a phone', () => {
  test.use({ viewport: NARROW });

  test('for a returning renter the greeting and the trip card arrive without moving the page under them', async ({
    page,
  }) => {
    // A name long enough to take two lines on a phone.
    const session = await signInViaApi(page, uniquePhone(), '/healthz');
    await completeProfile(page.request, session);
    await page.request.patch('/api/v1/users/profile', {
      headers: authHeader(session),
      data: { first_name: 'Maximiliana' },
    });
    // An upcoming trip: welcomed back, and its card comes in with the greeting.
    await bookAndPayViaApi(page.request, session, 'Phoenix, AZ', tripDates(4));
    await page.goto('/');
    await expect(greeting(page)).toHaveText('Welcome back, Maximiliana');
    // The browser keeps the renter it last heard of: wait for this visit to store the new name, as a
    // renter's next visit would find it (otherwise the reload below starts from the name-less copy).
    await expect
      .poll(() =>
        page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { first_name?: string }).first_name),
      )
      .toBe('Maximiliana');
    await recordLayoutShifts(page);
    // The trips (which decide "Welcome back") arrive after the page has drawn its placeholder.
    await drawPagesInBrowser(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/v1\/reservations(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await expect(page.getByRole('status', { name: 'Loading' }).first()).toBeVisible();
    release();
    await expect(greeting(page)).toHaveText('Welcome back, Maximiliana');
    await expect(page.getByRole('heading', { name: /Your upcoming trip/ })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  });
});
