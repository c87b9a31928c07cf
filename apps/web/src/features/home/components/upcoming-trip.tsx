import { Button, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from '../../../shared/router/react.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { addressLine, formatDateShort, formatTimeInZone } from '@ampere/domain/format';
import { toLocal } from '@ampere/domain/time';
import { formatTotal } from '@ampere/domain/money';
import { mainPhoto } from '@ampere/domain/photos';
import { paths } from '../../../shared/paths.ts';
import { openedLazily } from '../../../shared/ui/opened-lazily.tsx';
import { tripTotalCents } from '../../trips/public/booking-rules.ts';
import classes from './home.module.css';

// The dialog's code (Modal, the sanitiser) loads when first opened, not with the home page (decision 066).
const InstructionsModal = openedLazily(() => import('./instructions-modal.tsx').then((m) => m.InstructionsModal));

/** A date and time on the place's clock: 'Jan 4, 2027' over '10:00 AM CST'. */
function When({ label, iso, timeZone }: { label: string; iso: string; timeZone: string }) {
  const local = toLocal(new Date(iso), timeZone);
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {formatDateShort(local.date)}
        <Text component="span" display="block" size="sm" fw={400}>
          {formatTimeInZone(iso, timeZone)}
        </Text>
      </dd>
    </div>
  );
}

/**
 * The reservation card (spec 2): model, dates on the pickup place's clock, price, pickup place,
 * 'Trip Details', the place's pickup and return instructions in a dialog, and the receipt.
 */
export function UpcomingTrip({ trip: r }: { trip: Reservation }) {
  const [instructions, setInstructions] = useState(false);
  const photo = mainPhoto(r.vehicle.images);
  const place = r.pickup_location;
  const current = r.status === 'On Rent';
  return (
    <section aria-labelledby="home-trip">
      <div className={classes.sectionHead}>
        <Title order={2} size="h3" id="home-trip">
          {current ? 'Your current trip' : 'Your upcoming trip'}
        </Title>
        <Text size="sm" c="dimmed">{`Trip ID ${r.platform_id}`}</Text>
      </div>
      <article className={classes.trip} aria-label={`${r.vehicle.model.name} trip`}>
        {photo && <img className={classes.tripPhoto} src={photo.image_url} alt="" fetchPriority="high" />}
        <div className={classes.tripBody}>
          <Title order={3} size="h3">
            {r.vehicle.model.name}
          </Title>
          <dl className={classes.facts}>
            <When label="Pickup" iso={r.pickup_at} timeZone={place.timezone} />
            <When label="Return" iso={r.return_at} timeZone={r.dropoff_location.timezone} />
            <div>
              <dt>Pickup place</dt>
              <dd>
                {place.name}
                <Text component="span" display="block" size="sm" fw={400} c="dimmed">
                  {addressLine(place)}
                </Text>
              </dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{formatTotal(tripTotalCents(r))}</dd>
            </div>
          </dl>
          <div className={classes.actions}>
            <Button component={Link} to={paths.trip.detail(r.platform_id)}>
              Trip Details
            </Button>
            <Button variant="default" onClick={() => setInstructions(true)}>
              Pickup/Return Instructions
            </Button>
            <Button component={Link} to={paths.trip.receipt(r.platform_id)} variant="subtle">
              Receipt
            </Button>
          </div>
        </div>
      </article>
      <InstructionsModal opened={instructions} onClose={() => setInstructions(false)} trip={r} />
    </section>
  );
}
