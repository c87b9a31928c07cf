import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { placesApi } from '../../../test/places.ts';
import { findDialog, renderWidget } from '../../../test/render.tsx';
import { setWindowWidth } from '../../../test/window.ts';
import { HomeSearch } from './home-search.tsx';

const hero = <HomeSearch greeting={<h1>Welcome</h1>} onDraftChange={() => {}} />;
/** The search the renter lands on, as its query: the order of the parameters does not matter. */
const searchOf = (path: string) => ({
  page: path.split('?')[0],
  query: Object.fromEntries(new URLSearchParams(path.split('?')[1])),
});
const day = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });

describe("the home page's search", () => {
  beforeEach(() => {
    // 11:30 AM in Nashville on Monday 10 March 2031: the default trip is tomorrow at 11:00 for a week.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-03-10T16:30:00Z') });
    placesApi();
  });

  it('wide: a place and dates picked in the bar lead to /search for them', async () => {
    const { user, path } = await renderWidget(hero);
    await user.click(screen.getByRole('combobox', { name: 'Location' }));
    await user.click(await screen.findByRole('option', { name: 'Nashville, TN' }));
    await user.click(screen.getByRole('button', { name: /^Trip dates/ }));
    const dialog = await findDialog('Change Dates');
    await user.click(day('Thursday, March 20, 2031'));
    await user.click(day('Sunday, March 23, 2031'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply Dates' }));
    await user.click(screen.getByRole('button', { name: 'View Vehicles' }));

    await waitFor(() => expect(path()).toMatch(/^\/search\?/));
    expect(searchOf(path())).toEqual({
      page: '/search',
      query: {
        searchQuery: '7',
        pickupDate: '2031-03-20',
        pickupTime: '11:00',
        returnDate: '2031-03-23',
        returnTime: '11:00',
      },
    });
    expect(window.__ampereEvents).toContainEqual(
      expect.objectContaining({
        name: 'search_performed',
        properties: expect.objectContaining({ query: 'Nashville, TN', pickupDate: '2031-03-20' }),
      }),
    );
  });

  it('on a phone: the three steps (Location, Pickup, Return) lead to /search for them', async () => {
    setWindowWidth(375);
    const { user, path } = await renderWidget(hero);
    await user.click(screen.getByRole('button', { name: /^Change search: Where to\?/ }));
    let dialog = await findDialog('Location');
    const place = within(dialog).getByRole('combobox', { name: 'Location' });
    expect(place).toHaveAttribute('placeholder', 'Search by zip code, city, state, or airport');
    await user.type(place, 'dal');
    await user.keyboard('{ArrowDown}{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Pickup Date' }));

    dialog = await findDialog('Pickup');
    expect(within(dialog).getByRole('button', { name: 'Location: Dallas, TX. Change' })).toBeVisible();
    await user.click(day('Friday, March 14, 2031'));
    await user.click(within(dialog).getByRole('button', { name: 'Return Date' }));

    dialog = await findDialog('Return');
    expect(within(dialog).getByRole('button', { name: 'Pickup: 03/14/2031 11:00 AM. Change' })).toBeVisible();
    await user.click(day('Monday, March 17, 2031'));
    await user.click(within(dialog).getByRole('button', { name: 'Search Vehicles' }));

    await waitFor(() => expect(path()).toMatch(/^\/search\?/));
    expect(searchOf(path())).toEqual({
      page: '/search',
      query: {
        searchQuery: '8',
        pickupDate: '2031-03-14',
        pickupTime: '11:00',
        returnDate: '2031-03-17',
        returnTime: '11:00',
      },
    });
  });
});
