import { Alert, Button, Text } from '@mantine/core';
import { UNPAID_HOLD_MINUTES } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import { toLocal } from '@ampere/domain/time';
import { Link } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';

type Cancelled = Pick<Reservation, 'status' | 'cancel_reason' | 'pickup_at' | 'return_at' | 'vehicle'> & {
  pickup_location: Pick<Reservation['pickup_location'], 'timezone'>;
};

/** The car's page for the trip's own dates, on the pickup place's clock, as search links to it. */
export function sameDatesPath(r: Cancelled): string {
  const tz = r.pickup_location.timezone;
  const pickup = toLocal(new Date(r.pickup_at), tz);
  const ret = toLocal(new Date(r.return_at), tz);
  return paths.vehicle(r.vehicle.vin, {
    pickupDate: pickup.date,
    pickupTime: pickup.time,
    returnDate: ret.date,
    returnTime: ret.time,
  });
}

/**
 * Why a cancelled trip was cancelled (decision 053), on its trip page and its payment page. A hold
 * that lapsed unpaid is not something the renter did: it says so, that the car may still be free,
 * and reopens the car for the same dates. Trips cancelled before reasons were kept say nothing more.
 */
export function CancelledNotice({ reservation: r }: { reservation: Cancelled }) {
  if (r.status !== 'Canceled' || !r.cancel_reason) return null;
  if (r.cancel_reason === 'hold_expired') {
    return (
      <Alert color="yellow" title="Your booking expired before payment" role="status" styles={TITLE_STYLES}>
        <Text size="sm">
          We held the car for you for {UNPAID_HOLD_MINUTES} minutes. The hold ran out without a payment, so this booking
          was cancelled. The car may still be free for these dates.
        </Text>
        <Button component={Link} to={sameDatesPath(r)} size="sm" mt="sm">
          Check These Dates Again
        </Button>
      </Alert>
    );
  }
  if (r.cancel_reason === 'replaced') {
    return (
      <Alert color="gray" title="This booking was replaced" role="status" styles={TITLE_STYLES}>
        <Text size="sm">
          You booked this car again for these dates before paying for this booking, so the newer booking took its place.
        </Text>
        <Button component={Link} to={paths.trips()} size="sm" mt="sm" variant="default">
          View My Trips
        </Button>
      </Alert>
    );
  }
  return (
    <Alert color="gray" title="You cancelled this trip" role="status" styles={TITLE_STYLES}>
      <Text size="sm">Anything you paid for it is refunded to your card, and the deposit hold is released.</Text>
    </Alert>
  );
}

/** Alert titles in the body's dark text: the tinted default is too faint on the yellow. */
const TITLE_STYLES = { title: { color: 'var(--mantine-color-dark-7)' } };
