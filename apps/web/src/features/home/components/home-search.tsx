import { Button, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from '../../../shared/router/react.tsx';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { paths } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { MobileSearch } from '../../search/public/mobile-search.tsx';
import { SearchBar } from '../../search/public/search-bar.tsx';
import classes from './home.module.css';
import { useWideLayout } from '../../../shared/ui/use-wide-layout.ts';

export interface HomeSearchProps {
  greeting: ReactNode;
  onDraftChange(location: SearchOption | null, trip: Trip | null): void;
}

/**
 * The hero (spec 2): the greeting, then the search bar whose button reads 'View Vehicles'. Under
 * 768 px the search opens as the three-step dialog, as on /search, with 'View Vehicles' below it
 * to browse what is near.
 */
export function HomeSearch({ greeting, onDraftChange }: HomeSearchProps) {
  const wide = useWideLayout();
  const navigate = useNavigate();
  const search = (location: SearchOption, trip: Trip) => {
    track('search_performed', {
      query: location.query,
      latitude: location.latitude,
      longitude: location.longitude,
      pickupDate: trip.pickupDate,
      returnDate: trip.returnDate,
    });
    void navigate(paths.search({ searchQuery: String(location.id), ...trip }));
  };
  return (
    <section className={classes.hero} aria-label="Find a car">
      <div>
        {greeting}
        <Text mt={6} size="lg" c="dark.5">
          Where are you driving next? Pick a place and dates to see the cars free for your trip.
        </Text>
      </div>
      {wide ? (
        <SearchBar
          location={null}
          trip={null}
          onSearch={search}
          submitLabel="View Vehicles"
          onDraftChange={onDraftChange}
        />
      ) : (
        <div className={classes.heroSearch}>
          <MobileSearch location={null} trip={null} onSearch={search} />
          <Button component={Link} to={paths.search()} size="md" fullWidth>
            View Vehicles
          </Button>
        </div>
      )}
    </section>
  );
}
