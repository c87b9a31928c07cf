import { Alert, Badge, Button, Container, Group, Loader, Center, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from '../../../shared/router/react.tsx';
import type { Vehicle } from '@ampere/domain/contract/catalog';
import { type Trip, defaultTripFor, tripWithoutTimes, withDefaultTimes } from '@ampere/domain/dates';
import { cityLabel, isLongRange } from '@ampere/domain/filters';
import { TOAST_DURATION_MS } from '@ampere/domain/constants';
import { formatInstant } from '@ampere/domain/format';
import { paths, patterns } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { readSearchQuery, searchQueryRecord } from '../../../shared/search-query.ts';
import { NotFoundPage } from '../../../shared/errors/error-pages.tsx';
import { vehicleQueryOptions } from '../public/vehicle-api.ts';
import { BookingCard } from '../components/booking-card.tsx';
import { Photos } from '../components/photos.tsx';
import { UnavailableModal } from '../components/unavailable-modal.tsx';
import { VehicleDetails } from '../components/vehicle-details.tsx';
import classes from '../components/vehicle.module.css';
import '../../../shared/ui/mantine-extra-styles.ts';
import { useDeferredData } from '../../../shared/use-deferred-data.ts';

function initialTrip(vehicle: Vehicle, params: URLSearchParams): Trip {
  const q = readSearchQuery(params);
  // Dates without times (spec 5, 9): at least 7 days, and the card books what it counts; the times
  // take the time dropdown's default in the car's zone (spec 4).
  if (q.pickupDate && q.returnDate) {
    const { pickupDate, returnDate } =
      !q.pickupTime && !q.returnTime
        ? tripWithoutTimes(q.pickupDate, q.returnDate)
        : { pickupDate: q.pickupDate, returnDate: q.returnDate };
    return withDefaultTimes(
      { pickupDate, returnDate, pickupTime: q.pickupTime, returnTime: q.returnTime },
      new Date(),
      vehicle.location.timezone,
    );
  }
  // Spec 9: the pickup place's own notice (min_reservation_buffer_hours), not the default.
  return defaultTripFor(new Date(), vehicle.location.timezone, vehicle.location.min_reservation_buffer_hours);
}

export function VehiclePage() {
  const { vin } = useParams(patterns.vehicle);
  // Keyed by the car, so another car's page starts afresh (no earlier car shown while it loads).
  return <CarPage key={vin} vin={vin} />;
}

function CarPage({ vin }: { vin: string }) {
  const [params, setParams] = useSearchParams();
  const vehicle = useQuery(vehicleQueryOptions(vin));
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    // The alert closes itself after the spec's toast time (9), like the app's other notices.
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const [trip, setTrip] = useState<Trip | null>(null);
  const unavailableOpen = params.get('vehicleUnavailableModal') === 'true';

  // Arriving after the page opened, the data is drawn as a transition, in slices (useDeferredData).
  const v = useDeferredData(vehicle.data);
  useEffect(() => {
    if (!v || trip) return;
    // In a task of its own, after the take-over's: a default trip reads the zone's clock, and the
    // first such reading loads the browser's date data (decision 050).
    const timer = setTimeout(() => {
      startTransition(() => setTrip(initialTrip(v, params)));
      track('vehicle_details_viewed', { vin: v.vin, model: v.model.name });
    });
    return () => clearTimeout(timer);
  }, [v, trip, params]);

  if (vehicle.error) {
    if (vehicle.error instanceof ApiError && (vehicle.error.status === 404 || vehicle.error.status === 400))
      return <NotFoundPage />;
    throw vehicle.error;
  }
  if (!v) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading vehicle" />
      </Center>
    );
  }
  const backQuery = searchQueryRecord({ ...readSearchQuery(params), ...(trip ?? {}) });

  const changeTrip = (t: Trip) => {
    setTrip(t);
    const next = new URLSearchParams(params);
    for (const [k, val] of Object.entries(t)) next.set(k, val);
    setParams(next, { replace: true });
  };

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="sm">
        <Button
          component={Link}
          to={paths.search(backQuery)}
          variant="subtle"
          leftSection={<span aria-hidden="true">←</span>}
        >
          Search
        </Button>
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            navigator.clipboard?.writeText(window.location.href).then(
              () => setCopied(true),
              (err) => console.info('Clipboard failed', err),
            );
          }}
        >
          Copy Page Link
        </Button>
      </Group>
      {copied && (
        <Alert color="ampere" withCloseButton onClose={() => setCopied(false)} mb="sm" role="status">
          Page URL copied!
        </Alert>
      )}
      <div className={classes.layout}>
        <Stack gap="lg">
          <div>
            <Group gap="sm">
              <Title order={1}>
                {v.year} {v.model.name}
              </Title>
              {isLongRange(v.model.name) && <Badge color="ampere">Long Range</Badge>}
            </Group>
            <Text c="dark.3">
              {v.location.name} · {v.location.city}, {v.location.state}
            </Text>
          </div>
          <Photos vehicle={v} />
          <VehicleDetails vehicle={v} />
        </Stack>
        <div className={classes.aside}>
          {v.own_booking && (
            <Alert
              color="yellow"
              title="You started booking this car"
              mb="md"
              role="status"
              styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
            >
              <Text size="sm">
                {formatInstant(v.own_booking.pickup_at, v.location.timezone)} to{' '}
                {formatInstant(v.own_booking.return_at, v.location.timezone)}, not paid yet.
              </Text>
              <Button size="xs" mt="xs" component={Link} to={paths.trip.pay(v.own_booking.platform_id)}>
                Continue your booking
              </Button>
            </Alert>
          )}
          {trip && <BookingCard vehicle={v} trip={trip} onTripChange={changeTrip} />}
        </div>
      </div>
      <UnavailableModal
        opened={unavailableOpen}
        searchTo={paths.search({
          ...backQuery,
          // Back from booking (a 409) the address has the dates but not the place: the car's city.
          city: backQuery.searchQuery ? undefined : cityLabel(v.location.city, v.location.state),
        })}
        onClose={() => {
          const next = new URLSearchParams(params);
          next.delete('vehicleUnavailableModal');
          setParams(next, { replace: true });
        }}
      />
    </Container>
  );
}
