import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import type { Reservation } from '@ampere/domain/contract/booking';
import { paths } from '../../../shared/paths.ts';
import { CancelledNotice } from './cancelled-notice.tsx';
import { Link } from '../../../shared/router/react.tsx';
import classes from './booking.module.css';

/** Review & Pay when the trip or the renter could not be read. */
export function PayLoadFailed({ id }: { id: string }) {
  return (
    <Stack className={classes.page} align="flex-start">
      <Title order={1}>Review &amp; Pay</Title>
      <Text>We couldn't load this trip. Please reload the page.</Text>
      <Anchor c="ampere.8" underline="always" component={Link} to={paths.trip.detail(id)}>
        View My Trip
      </Anchor>
    </Stack>
  );
}

/** A cancelled trip has nothing to pay, and is not "all caught up": it says why it ended (decision 053). */
export function PayCancelled({ id, r }: { id: string; r: Reservation }) {
  return (
    <Stack className={classes.page} align="flex-start">
      <Title order={1}>This trip is cancelled</Title>
      <Text>There is nothing to pay on it.</Text>
      <CancelledNotice reservation={r} />
      <Anchor c="ampere.8" underline="always" component={Link} to={paths.trip.detail(id)}>
        View My Trip
      </Anchor>
    </Stack>
  );
}

/** Spec 2: with no outstanding balance, 'You're all caught up!' with a link to the trip. */
export function AllCaughtUp({ id }: { id: string }) {
  return (
    <Stack className={classes.page} align="flex-start">
      <Title order={1}>You're all caught up!</Title>
      <Text>There is nothing to pay on this trip right now.</Text>
      <Button component={Link} to={paths.trip.detail(id)}>
        View My Trip
      </Button>
    </Stack>
  );
}
