import { addressLine } from '@ampere/domain/format';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '../../../shared/router/react.tsx';
import { ADDON_LABELS, INCLUDED_MILES_PER_DAY } from '@ampere/domain/constants';
import { CHARGING_MINIMUM, CHARGING_MINIMUM_PREPAID } from '@ampere/domain/end-trip';
import { shownReturn } from '@ampere/domain/return-summary';
import { paths, patterns } from '../../../shared/paths.ts';
import { formatInstantInZone } from '../public/booking-rules.ts';
import { useReservation } from '../public/get-reservation.ts';
import { EndTrip } from '../components/end-trip.tsx';
import { TripFailure, TripLoading } from '../../../shared/errors/trip-fallback.tsx';
import { sanitizeInstructionsHtml } from '../../../shared/ui/instructions-html.ts';
import classes from '../components/trip.module.css';

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** /trip/:id/return (spec 2): where and when the car goes back, the location's return instructions, and End Trip. */
export function ReturnPage() {
  const { id } = useParams(patterns.trip.return);
  const reservation = useReservation(id);
  if (reservation.isPending) return <TripLoading />;
  if (reservation.error) return <TripFailure error={reservation.error} />;
  const r = reservation.data;
  const place = r.dropoff_location;
  // Once ended, the time the car actually came back (decision 054).
  const back = shownReturn(r);
  const address = addressLine(place);
  return (
    <div className={classes.page}>
      <div>
        <Anchor component={Link} to={paths.trip.detail(r.platform_id)} size="sm" c="ampere.8">
          ← My Trip
        </Anchor>
        <Title order={1} mt={6}>
          Return your {r.vehicle.model.name}
        </Title>
      </div>
      {r.status === 'Returned' && <Text role="status">This trip has ended. Thanks for driving with us!</Text>}
      {r.status === 'Canceled' && <Text role="status">This trip was cancelled.</Text>}
      <section className={classes.panel} aria-labelledby="return-when">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" id="return-when">
            {back.returned ? 'Returned' : 'Return by'}
          </Text>
          <Text fw={700}>{formatInstantInZone(back.at, place.timezone)}</Text>
          {back.booked && (
            <Text size="sm" c="dimmed">
              Booked return: {formatInstantInZone(back.booked, place.timezone)}
            </Text>
          )}
          <Text size="sm">{place.name}</Text>
          <Text size="sm" c="dimmed">
            {address}
          </Text>
          <Anchor
            href={`https://www.google.com/maps/dir/?api=1&destination=${place.latitude},${place.longitude}`}
            target="_blank"
            rel="noopener"
            size="sm"
            c="ampere.8"
            underline="always"
          >
            Directions
          </Anchor>
        </Stack>
      </section>
      <section className={classes.panel} aria-labelledby="return-instructions">
        <Title order={2} size="h4" id="return-instructions" mb="sm">
          Return instructions
        </Title>
        {place.return_instructions_html ? (
          <div
            className={classes.instructions}
            dangerouslySetInnerHTML={{ __html: sanitizeInstructionsHtml(place.return_instructions_html) }}
          />
        ) : (
          <Text size="sm">
            Park in a marked Ampere space, plug the car in if a charger is free, and lock it with your digital key.
          </Text>
        )}
        <Text size="sm" mt="sm">
          Bring it back with at least {percent(CHARGING_MINIMUM)} battery ({percent(CHARGING_MINIMUM_PREPAID)} with{' '}
          {ADDON_LABELS.PREPAID_EV_CHARGING}) and within {INCLUDED_MILES_PER_DAY} miles a day unless you added{' '}
          {ADDON_LABELS.UNLIMITED_MILES}, or a fee applies.
        </Text>
      </section>
      <EndTrip reservation={r} showReturnLink={false} />
    </div>
  );
}
