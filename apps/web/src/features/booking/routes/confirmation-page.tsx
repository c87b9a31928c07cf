import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation, useParams } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import { useReservation } from '../../../shared/reservations/get-reservation.ts';
import { confirmationTitle, formatInstant } from '../../../shared/reservations/booking-rules.ts';
import classes from '../components/booking.module.css';

/** /trip/:id/confirmation (spec 2): the title by the trip's state and 'View My Trip'. */
export function ConfirmationPage() {
  const { id = '' } = useParams();
  const reservation = useReservation(id);
  const r = reservation.data;
  // Set by the payment page: the title as the trip stood when the renter paid.
  const title = (useLocation().state as { title?: string } | null)?.title;
  if (reservation.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading your trip" />
      </Center>
    );
  }
  return (
    <Stack className={classes.page} gap="md" align="flex-start">
      <Title order={1}>{title ?? (r ? confirmationTitle(r) : 'Your Payment was successfull!')}</Title>
      {r && (
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
