import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUSTIN, DALLAS, placesApi } from '../../../test/places.ts';
import { renderWidget } from '../../../test/render.tsx';
import { SearchBar } from './search-bar.tsx';

const box = () => screen.getByRole('combobox', { name: 'Location' });
const options = () =>
  within(screen.getByRole('listbox', { name: 'Location' }))
    .queryAllByRole('option')
    .map((o) => o.textContent);
const events = () => (window.__ampereEvents ?? []).map((e) => ({ name: e.name, ...e.properties }));

describe('the search bar', () => {
  it("offers the cities, narrows them as the renter types, and adds the server's suggestions", async () => {
    const api = placesApi();
    const { user } = await renderWidget(<SearchBar location={null} trip={null} onSearch={() => {}} />);
    expect(box()).toHaveAttribute('placeholder', 'Enter a city or landmark');
    await user.click(box());
    await waitFor(() => expect(options()).toEqual(['Nashville, TN', 'Dallas, TX', 'Austin, TX']));

    await user.type(box(), 'aus');
    expect(options()).toEqual(['Austin, TX']);
    await waitFor(() => expect(options()).toEqual(['Austin, TX', 'Austin-Bergstrom International Airport']));
    expect(api.callsTo('GET /api/v1/search/autocomplete').at(-1)!.query.toString()).toBe('query=aus&limit=5');
  });

  it('says when no place matches, and leaving the box puts back the place chosen', async () => {
    placesApi();
    const { user } = await renderWidget(<SearchBar location={AUSTIN} trip={null} onSearch={() => {}} />);
    await user.clear(box());
    await user.type(box(), 'zzz');
    expect(await screen.findByText('No results found for "zzz"')).toBeVisible();
    await user.tab();
    await waitFor(() => expect(box()).toHaveValue('Austin, TX'));
    expect(box()).toHaveAttribute('aria-expanded', 'false');
  });

  it('the keyboard chooses a place; its next trip fills the dates, and Search hands both over', async () => {
    // 11:30 AM in Nashville: the default trip is tomorrow at 11:00 for a week.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-03-10T16:30:00Z') });
    placesApi();
    const onSearch = vi.fn();
    const { user } = await renderWidget(<SearchBar location={null} trip={null} onSearch={onSearch} />);
    const search = screen.getByRole('button', { name: 'Search' });
    expect(search).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Trip dates Choose dates' })).toBeVisible();

    await user.tab();
    expect(box()).toHaveFocus();
    await waitFor(() => expect(options()).toHaveLength(3));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('option', { name: 'Dallas, TX' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');

    expect(box()).toHaveValue('Dallas, TX');
    expect(box()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Trip dates 03/11/2031 11:00 AM – 03/18/2031 11:00 AM' })).toBeVisible();
    expect(events()).toContainEqual(expect.objectContaining({ name: 'location_selected', query: 'Dallas, TX' }));
    expect(search).toBeEnabled();
    await user.click(search);
    expect(onSearch).toHaveBeenCalledWith(DALLAS, {
      pickupDate: '2031-03-11',
      pickupTime: '11:00',
      returnDate: '2031-03-18',
      returnTime: '11:00',
    });
  });
});
