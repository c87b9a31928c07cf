import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation, useParams } from '../../../shared/router/react.tsx';
import { paths, patterns } from '../../../shared/paths.ts';
import { useReservation } from '../public/get-reservation.ts';
import { dateChangeTitle } from '@ampere/domain/booking';
import { confirmationTitle, formatInstant } from '../public/booking-rules.ts';
import classes from '../components/booking.module.css';
import { Moved } from '../components/trip-summary.tsx';

/** /trip/:id/confirmation (spec 2): the title by the trip's state and 'View My Trip'. */
export function ConfirmationPage() {
  const { id } = useParams(patterns.trip.confirmation);
  const reservation = useReservation(id);
  const r = reservation.data;
  // Set by the payment page: the title as the trip stood when the renter paid.
  const title = (useLocation().state as { title?: string } | null)?.title;
  const shown = title ?? (r ? confirmationTitle(r) : 'Your Payment was successfull!');
  // A change of dates just paid for (the title says so): its dates read old → new.
  const changed = r && dateChangeTitle(r) === shown ? r.last_change : null;
  if (reservation.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading your trip" />
      </Center>
    );
  }
  return (
    <Stack className={classes.page} gap="md" align="flex-start">
      <Title order={1}>{shown}</Title>
      {r && changed && (
        <>
          <Text>
            {r.vehicle.year} {r.vehicle.model.name}
          </Text>
          {/* The trip's dates now, beside the ones the change replaced. */}
          <dl style={{ margin: 0 }}>
            <Text component="dt" size="xs" c="dimmed">
              Pickup
            </Text>
            <Text component="dd" m={0} mb={6}>
              <Moved from={changed.pickup_at} to={r.pickup_at} timeZone={r.pickup_location.timezone} />
            </Text>
            <Text component="dt" size="xs" c="dimmed">
              Return
            </Text>
            <Text component="dd" m={0}>
              <Moved from={changed.return_at} to={r.return_at} timeZone={r.dropoff_location.timezone} />
            </Text>
          </dl>
        </>
      )}
      {r && !changed && (
        <Text>
          {r.vehicle.year} {r.vehicle.model.name} · {formatInstant(r.pickup_at, r.pickup_location.timezone)} to{' '}
          {formatInstant(r.return_at, r.dropoff_location.timezone)}
        </Text>
      )}
      <Text c="dimmed" size="sm">
        Trip ID {id}
      </Text>
      <Button component={Link} to={paths.trip.detail(id)}>
        View My Trip
      </Button>
    </Stack>
  );
}
