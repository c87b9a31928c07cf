import { Button, Collapse, Container, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { type LoaderFunctionArgs } from '../../../shared/router/core.ts';
import { useLoaderData } from '../../../shared/router/react.tsx';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import { type Trip, moveToEarliestValid, withDefaultTimes } from '@ampere/domain/dates';
import { formatDateShort, formatTime12 } from '@ampere/domain/format';
import { sameCity, toggleColor, toggleLongRange, toggleModel } from '@ampere/domain/filters';
import { track } from '../../../shared/analytics.ts';
import { type SearchQuery, readSearchQuery, searchQueryRecord } from '../../../shared/search-query.ts';
import { defaultTripFor } from '../default-trip.ts';
import { MobileSearch } from '../public/mobile-search.tsx';
import { SearchBar } from '../public/search-bar.tsx';
import { autocompleteQueryOptions, citiesQueryOptions, searchOptionQueryOptions } from '../public/search-options.ts';
import { nearestCitiesQueryOptions, vehicleSearchQueryOptions } from '../api/search-api.ts';
import { FilterBar } from '../components/filter-bar.tsx';
import { Results } from '../components/results.tsx';
import { useSearchState } from '../use-search-state.ts';
import { useWideLayout } from '../../../shared/ui/use-wide-layout.ts';
import classes from './search-page.module.css';

function currentPosition(): Promise<{ latitude: number; longitude: number } | null> {
  if (!('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { timeout: 4000, maximumAge: 600_000 },
    );
  });
}

/**
 * The trip the address names: both dates, and the times; a time it does not give is the time
 * dropdown's default in the place's zone (spec 4), so it waits for the place (`timeZone`). Null
 * without both dates.
 */
function addressTrip(query: SearchQuery, timeZone: string | null | undefined): Trip | null {
  const { pickupDate, returnDate, pickupTime, returnTime } = query;
  if (!pickupDate || !returnDate) return null;
  if (pickupTime && returnTime) return { pickupDate, returnDate, pickupTime, returnTime };
  if (!timeZone) return null;
  return withDefaultTimes({ pickupDate, returnDate, pickupTime, returnTime }, new Date(), timeZone);
}

/** The address's trip, moved to the earliest valid dates at the place when its pickup has passed (a bookmark). */
function movedTrip(asked: Trip | null, place: SearchOption | null | undefined): Trip | null {
  if (!asked || !place) return null;
  return moveToEarliestValid(asked, new Date(), place.timezone, place.min_reservation_buffer_hours);
}

function movedNotice(from: Trip, to: Trip): string {
  const when = (date: string, time: string) => `${formatDateShort(date)}, ${formatTime12(time)}`;
  return (
    `The pickup you searched for, ${when(from.pickupDate, from.pickupTime)}, can no longer be booked, so we moved ` +
    `your trip to the earliest dates you can book: ${when(to.pickupDate, to.pickupTime)} to ` +
    `${when(to.returnDate, to.returnTime)}.`
  );
}

/**
 * The place and dates a first screen drawn on the server searched (decision 046), until the address
 * names its own: the place the address names, else the city it names, else the first city (search
 * setup's last resort: only the browser can ask where the renter is, and once running it does, and
 * moves the search there if nearer). Dates: the address's, else the place's default trip.
 */
export interface DrawnSearch {
  option: SearchOption;
  trip: Trip;
}

/**
 * On the server, reads what the first screen needs (the cities, the place, the cars) into the
 * request's query cache (`context.queryClient`). In the browser, where the page settles its own
 * search, nothing. A place it cannot settle without the browser draws the page without results.
 */
export async function searchLoader({ request, context }: LoaderFunctionArgs): Promise<DrawnSearch | null> {
  const client = context?.queryClient;
  if (typeof window !== 'undefined' || !client) return null;
  const query = readSearchQuery(new URL(request.url).searchParams);
  const cities = await client.fetchQuery(citiesQueryOptions());
  let option: SearchOption | undefined;
  if (query.searchQuery) {
    if (!/^\d+$/.test(query.searchQuery)) return null;
    option = await client.fetchQuery(searchOptionQueryOptions(Number(query.searchQuery)));
  } else {
    option = query.city ? cities.find((c) => sameCity(c.query, query.city!)) : cities[0];
    if (!option) return null;
    client.setQueryData(searchOptionQueryOptions(option.id).queryKey, option);
  }
  const fallback = defaultTripFor(option);
  const asked = addressTrip(query, option.timezone);
  const trip: Trip = movedTrip(asked, option) ??
    asked ?? {
      ...fallback,
      pickupTime: query.pickupTime ?? fallback.pickupTime,
      returnTime: query.returnTime ?? fallback.returnTime,
    };
  await client.prefetchQuery(
    vehicleSearchQueryOptions({ searchQueryId: option.id, ...trip, model: query.model, color: query.color }),
  );
  return { option, trip };
}

export function SearchPage() {
  const { query, update } = useSearchState();
  const drawn = useLoaderData<typeof searchLoader>();
  const wide = useWideLayout();
  const queryClient = useQueryClient();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const cities = useQuery(citiesQueryOptions());
  const optionId = query.searchQuery && /^\d+$/.test(query.searchQuery) ? Number(query.searchQuery) : null;
  // The place searched: the address's, else the one the first screen was drawn with.
  const placeId = optionId ?? (query.searchQuery ? null : (drawn?.option.id ?? null));
  const option = useQuery({ ...searchOptionQueryOptions(placeId ?? 0), enabled: placeId !== null });
  // The place's default trip (spec 4) for whatever the address does not say yet; nothing once it has both dates.
  const { pickupDate, returnDate, pickupTime, returnTime } = query;
  const missingDates = useCallback(
    (place: SearchOption) => {
      if (pickupDate && returnDate) {
        if (pickupTime && returnTime) return {};
        // Dates without times: the dropdown's default (spec 4), written down so the cards carry it.
        const t = withDefaultTimes({ pickupDate, returnDate, pickupTime, returnTime }, new Date(), place.timezone);
        return { pickupTime: t.pickupTime, returnTime: t.returnTime };
      }
      const t = defaultTripFor(place);
      return {
        pickupDate: t.pickupDate,
        returnDate: t.returnDate,
        pickupTime: pickupTime ?? t.pickupTime,
        returnTime: returnTime ?? t.returnTime,
      };
    },
    [pickupDate, returnDate, pickupTime, returnTime],
  );

  // Search setup (spec 4): a city shortcut, else the city nearest the renter, else the first city.
  useEffect(() => {
    if (optionId !== null || !cities.data || cities.data.length === 0) return;
    let cancelled = false;
    // Never rejects: each lookup falls back, and the position prompt resolves null on refusal.
    void (async () => {
      const city = query.city;
      let chosen = city ? cities.data.find((c) => sameCity(c.query, city)) : undefined;
      if (!chosen && city) {
        // A city beyond the list's first 50 (a Rent Again link to a smaller market): ask for it by name.
        const found = await queryClient.fetchQuery(autocompleteQueryOptions(city)).catch(() => []);
        chosen = found.find((o) => o.type === 'CITY' && sameCity(o.query, city));
      }
      if (!chosen) {
        const here = await currentPosition();
        if (here) {
          const nearest = await queryClient
            .fetchQuery(nearestCitiesQueryOptions(here.latitude, here.longitude))
            .catch(() => []);
          chosen = cities.data.find((c) => c.id === nearest[0]?.search_query_id);
        }
      }
      chosen ??= cities.data[0]!;
      if (cancelled) return;
      // The list already holds the whole option: the page needs no second round trip for it before searching.
      queryClient.setQueryData(searchOptionQueryOptions(chosen.id).queryKey, (known) => known ?? chosen);
      // The place and its default dates in one write: each write re-renders the whole page, here as
      // a transition (in slices), since the cards on screen stay right meanwhile.
      const place = chosen;
      startTransition(() => update({ searchQuery: String(place.id), city: null, ...missingDates(place) }));
    })();
    return () => {
      cancelled = true;
    };
  }, [optionId, cities.data, query.city, queryClient, update, missingDates]);

  const location = option.data ?? null;
  useEffect(() => {
    // A place the address names gets its default dates; a place the page chose itself (the screen
    // the server drew) gets them with the place, from search setup above, in one write.
    if (location && optionId !== null) update(missingDates(location));
  }, [location, optionId, update, missingDates]);

  // A bookmarked search whose pickup has passed searches the earliest valid dates instead (and says
  // so), rather than asking the server for dates it refuses; the address is then rewritten to them.
  const zone = location?.timezone;
  const asked = useMemo(
    () => addressTrip({ pickupDate, returnDate, pickupTime, returnTime }, zone),
    [pickupDate, returnDate, pickupTime, returnTime, zone],
  );
  const moved = useMemo(() => movedTrip(asked, location), [asked, location]);
  const [movedFrom, setMovedFrom] = useState<{ from: Trip; to: Trip } | null>(null);
  useEffect(() => {
    if (!moved || !asked) return;
    setMovedFrom({ from: asked, to: moved });
    update(moved);
  }, [moved, asked, update]);
  const shownMove = moved && asked ? { from: asked, to: moved } : movedFrom;

  const trip: Trip | null = moved ?? asked ?? (placeId !== null && placeId === drawn?.option.id ? drawn.trip : null);

  const results = useQuery({
    ...vehicleSearchQueryOptions({
      searchQueryId: placeId ?? 0,
      ...(trip ?? { pickupDate: '', returnDate: '', pickupTime: '', returnTime: '' }),
      model: query.model,
      color: query.color,
    }),
    enabled: placeId !== null && trip !== null,
  });
  useEffect(() => {
    if (results.error) console.error('Vehicle search failed', results.error);
  }, [results.error]);

  const linkQuery = useMemo(() => searchQueryRecord(query), [query]);
  const onSearch = (loc: SearchOption, t: Trip) => {
    track('search_performed', {
      query: loc.query,
      latitude: loc.latitude,
      longitude: loc.longitude,
      pickupDate: t.pickupDate,
      returnDate: t.returnDate,
    });
    setMovedFrom(null);
    update({ searchQuery: String(loc.id), city: null, ...t });
  };
  const setFilter = (patch: { model?: string | null; color?: string | null }) => {
    track('filter_applied', patch);
    update(patch);
  };
  const items = results.isError ? [] : results.data?.items;
  // The cards render as a transition, in slices the browser can interleave with other work, rather than
  // in one long task when the results arrive; meanwhile the previous cards (or placeholders) stay.
  const shownItems = useDeferredValue(items);

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <h1 className="visually-hidden">Search vehicles</h1>
        {wide ? (
          <SearchBar location={location} trip={trip} onSearch={onSearch} />
        ) : (
          <MobileSearch location={location} trip={trip} onSearch={onSearch} />
        )}
        {!wide && (
          <Button
            variant="default"
            size="xs"
            w="fit-content"
            onClick={() => setFiltersOpen((o) => !o)}
            aria-expanded={filtersOpen}
            aria-controls="search-filters"
          >
            {`Filters${query.model || query.color ? ' (on)' : ''}`}
          </Button>
        )}
        {shownMove && (
          <div className={classes.notice} role="status">
            <strong className={classes.noticeTitle}>We moved your dates</strong>
            {movedNotice(shownMove.from, shownMove.to)}
          </div>
        )}
        <Collapse in={wide || filtersOpen} id="search-filters">
          <FilterBar
            model={query.model}
            color={query.color}
            serverModels={results.data?.filters.models}
            serverColors={results.data?.filters.colors}
            onModel={(m) => setFilter({ model: toggleModel(query.model, m) })}
            onLongRange={() => setFilter({ model: toggleLongRange(query.model) })}
            onColor={(c) => setFilter({ color: toggleColor(query.color, c)?.toLowerCase() ?? null })}
          />
        </Collapse>
        <Results
          items={shownItems}
          isLoading={
            (placeId === null || results.isPending || (shownItems === undefined && items !== undefined)) &&
            !results.isError
          }
          location={location}
          linkQuery={linkQuery}
          onClearFilters={() => setFilter({ model: null, color: null })}
          onOpen={(item) => track('vehicle_card_clicked', { vin: item.vin, model: item.model.name })}
        />
      </Stack>
    </Container>
  );
}
