import { Button, Container, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from '../../../shared/router/react.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatDateShort } from '@ampere/domain/format';
import { toLocal } from '@ampere/domain/time';
import { mainPhoto } from '@ampere/domain/photos';
import { shownReturn } from '@ampere/domain/return-summary';
import { paths } from '../../../shared/paths.ts';
import { reservationListsQueryOptions } from '../public/get-reservation.ts';
import classes from '../components/trip.module.css';
import { useDeferredData } from '../../../shared/use-deferred-data.ts';

const day = (iso: string, timeZone: string) => formatDateShort(toLocal(new Date(iso), timeZone).date);

function TripRow({ r, compact }: { r: Reservation; compact?: boolean }) {
  const photo = mainPhoto(r.vehicle.images);
  // A Returned trip ends on the day the car came back (decision 054).
  const back = shownReturn(r);
  return (
    <li className={compact ? classes.rowCompact : classes.row}>
      {!compact &&
        (photo ? (
          <img className={classes.rowPhoto} src={photo.image_url} alt="" />
        ) : (
          <span className={classes.rowPhoto} aria-hidden="true" />
        ))}
      <div className={classes.rowText}>
        <Text fw={700}>{r.vehicle.model.name}</Text>
        <Text size="sm">
          {day(r.pickup_at, r.pickup_location.timezone)} – {back.returned ? 'returned ' : ''}
          {day(back.at, r.dropoff_location.timezone)}
        </Text>
        <Text size="sm" c="dimmed" className={classes.rowWide}>
          {r.pickup_location.name}
        </Text>
        <Text size="xs" c="dimmed" className={classes.rowWide}>
          Trip ID <span className={classes.code}>{r.platform_id}</span>
        </Text>
      </div>
      <Button
        component={Link}
        to={paths.trip.detail(r.platform_id)}
        variant="light"
        size="xs"
        className={classes.rowAction}
        aria-label={`Trip Details for ${r.platform_id}`}
      >
        Trip Details
      </Button>
    </li>
  );
}

function Section({ title, trips, compact }: { title: string; trips: Reservation[]; compact?: boolean }) {
  if (trips.length === 0) return null;
  return (
    <section aria-labelledby={`trips-${title.split(' ')[0]!.toLowerCase()}`}>
      <Title order={2} size="h3" id={`trips-${title.split(' ')[0]!.toLowerCase()}`} mb="sm">
        {title}
      </Title>
      <ul className={classes.rows}>
        {trips.map((r) => (
          <TripRow key={r.platform_id} r={r} compact={compact} />
        ))}
      </ul>
    </section>
  );
}

/**
 * My Trips (spec 2): Active, Upcoming, Past and Canceled Trips; with an active trip the upcoming
 * ones use the compact style; 'No trips yet!' with a Models button when there are none. A list that
 * could not be loaded says so and offers to try again: it is not an empty list.
 */
export function TripsPage() {
  const lists = useQuery(reservationListsQueryOptions());
  useEffect(() => {
    if (lists.error) console.error('Could not load the trips', lists.error);
  }, [lists.error]);
  // Arriving after the page opened, the data is drawn as a transition, in slices (useDeferredData).
  const data = useDeferredData(lists.data);
  const none = !!data && data.active.length + data.upcoming.length + data.past.length + data.canceled.length === 0;
  return (
    <Container size="md" py="xl">
      <Title order={1}>My Trips</Title>
      {!data && !lists.isError ? (
        <Stack mt="lg" gap="sm" role="status" aria-label="Loading trips">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={88} radius="md" />
          ))}
        </Stack>
      ) : !data ? (
        <Paper withBorder radius="lg" p="xl" mt="lg" ta="center" role="alert">
          <Title order={2} size="h3">
            We couldn't load your trips
          </Title>
          <Text mt="xs">
            Something went wrong on our side or with the connection. Your trips are safe; please try again.
          </Text>
          <Button mt="lg" onClick={() => void lists.refetch()} loading={lists.isFetching}>
            Try Again
          </Button>
        </Paper>
      ) : none ? (
        <Paper withBorder radius="lg" p="xl" mt="lg" ta="center">
          <Title order={2} size="h3">
            No trips yet!
          </Title>
          <Text mt="xs">
            You haven't booked a trip yet. Pick a model and dates to find your car; your trips will show up here.
          </Text>
          <Button component={Link} to={paths.search()} mt="lg">
            Models
          </Button>
        </Paper>
      ) : (
        <Stack gap="xl" mt="lg">
          <Section title="Active Trips" trips={data.active} />
          <Section title="Upcoming Trips" trips={data.upcoming} compact={data.active.length > 0} />
          <Section title="Past Trips" trips={data.past} />
          <Section title="Canceled Trips" trips={data.canceled} />
        </Stack>
      )}
    </Container>
  );
}
