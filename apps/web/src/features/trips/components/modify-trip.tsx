import { Button, Text, Title } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { isOpenTrip } from '@ampere/domain/booking';
import { paths } from '../../../shared/paths.ts';
import { formatInstantInZone } from '../public/booking-rules.ts';
import classes from './trip.module.css';

/** Spec 2 'modify-reservation area': a paid trip can start earlier (until it starts) or end later (until it ends). */
export function ModifyTrip({ reservation: r }: { reservation: Reservation }) {
  if (!isOpenTrip(r.status)) return null;
  const tz = r.pickup_location.timezone;
  return (
    <section className={classes.panel} aria-labelledby="modify-title" style={{ display: 'grid', gap: 8 }}>
      <Title order={2} size="h4" id="modify-title">
        Modify Reservation
      </Title>
      {r.requested_change ? (
        <Text size="sm">
          New dates {formatInstantInZone(r.requested_change.pickup_at, tz)} to{' '}
          {formatInstantInZone(r.requested_change.return_at, tz)} are held for you until you pay for them.
        </Text>
      ) : (
        <Text size="sm">
          {r.status === 'On Rent'
            ? 'Need the car longer? Extend your return.'
            : 'Need the car longer? Pick it up earlier or return it later.'}
        </Text>
      )}
      <div>
        <Button variant="light" component={Link} to={paths.trip.extension(r.platform_id)}>
          {r.status === 'On Rent' ? 'Extend Trip' : 'Change Dates'}
        </Button>
      </div>
    </section>
  );
}
