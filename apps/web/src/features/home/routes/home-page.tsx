import { Skeleton, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { hasAnyTrip, homeGreeting, homeTrip } from '@ampere/domain/home';
import { useSession } from '../../../shared/auth/use-session.ts';
import { searchQueryRecord } from '../../../shared/search-query.ts';
import { reservationListsQueryOptions } from '../../trips/public/get-reservation.ts';
import { CityGrid } from '../components/city-grid.tsx';
import { HomeSearch } from '../components/home-search.tsx';
import { ModelGrid } from '../components/model-grid.tsx';
import { RentAgain } from '../components/rent-again.tsx';
import { Resources } from '../components/resources.tsx';
import { UpcomingTrip } from '../components/upcoming-trip.tsx';
import classes from '../components/home.module.css';
import { useDeferredData } from '../../../shared/use-deferred-data.ts';
import { TakenOverLater } from '../../../shared/ui/taken-over-later.tsx';

/**
 * The signed-in home (spec 2): greeting, search, the trip to come, Rent Again, search by model
 * and by city, and resources. What goes where is decision 030.
 */
export function HomePage() {
  const firstName = useSession()?.user?.first_name;
  const lists = useQuery(reservationListsQueryOptions());
  // Arriving after the page opened, the data is drawn as a transition, in slices (useDeferredData).
  const trips = useDeferredData(lists.data);
  const tripsKnown = !!trips || lists.isError;
  useEffect(() => {
    if (lists.error) console.error('Could not load the trips for the home page', lists.error);
  }, [lists.error]);
  // The place and dates chosen in the search bar, carried by the model tiles' links.
  const [draft, setDraft] = useState<{ location: SearchOption | null; trip: Trip | null }>({
    location: null,
    trip: null,
  });
  const onDraftChange = useCallback(
    (location: SearchOption | null, trip: Trip | null) => setDraft({ location, trip }),
    [],
  );
  const current = searchQueryRecord({
    searchQuery: draft.location ? String(draft.location.id) : undefined,
    ...draft.trip,
  });

  // The title waits for the trips (it says "Welcome back" to a returning renter); meanwhile, and
  // after, the longer greeting is laid out unseen in the same place, so the title's arrival (one
  // line or two on a phone) moves nothing below it.
  const greeting = (
    <div className={classes.greeting}>
      <div className={classes.greetingRoom} aria-hidden="true">
        {homeGreeting(firstName, true)}
      </div>
      {!tripsKnown ? (
        <div className={classes.greetingSkeleton} role="status" aria-label="Loading">
          <Skeleton height={32} width={260} radius="sm" />
        </div>
      ) : (
        <Title order={1}>{homeGreeting(firstName, !!trips && hasAnyTrip(trips))}</Title>
      )}
    </div>
  );
  const trip = trips ? homeTrip(trips) : null;

  return (
    <div className={classes.page}>
      <HomeSearch greeting={greeting} onDraftChange={onDraftChange} />
      {/* What lies under the search comes in once the trips are known: a trip card or Rent Again
          row arriving later would push the sections already drawn down the screen. The page's
          frame keeps the footer below the fold meanwhile. */}
      {/* Taken over after the search, in two parts: what a phone shows first, then the rest (decision 066). */}
      {tripsKnown && (
        <TakenOverLater>
          {trip && <UpcomingTrip trip={trip} />}
          {trips && <RentAgain past={trips.past} />}
          <TakenOverLater>
            <ModelGrid searchQuery={current} />
            <CityGrid />
            <Resources />
          </TakenOverLater>
        </TakenOverLater>
      )}
    </div>
  );
}
